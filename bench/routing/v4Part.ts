/**
 * bench:routing, part "v4": the route search per quote with Uniswap v4 pools in the graph against the same graph
 * without them (bench/routing/addedPools.ts), on two graphs: the devnet with v4 (a fresh
 * `startDevnet({ v4: true })` seeded into a temporary folder: its v2/v3 pools and the v4 pools of
 * seeds/devnet/devnetV4Plan.ts) and the generated 10,000-pool graph with ROUTING_V4_POOLS v4 pools added
 * (generateRoutingGraph's v4Pools option: the 10,000 v2/v3 pools are the same). "Without" is the same snapshot with
 * its v4 pools dropped before indexing, and the cases are the same (their amounts from the graph without v4). Target: p99 with
 * v4 at most 10% above p99 without.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDevnet } from '../../seeds/devnet/startDevnet.ts';
import { loadCatalog } from '../../src/catalog/loadCatalog.ts';
import { seedChains } from '../../src/chain/seedChains.ts';
import { loadSnapshots } from '../../src/graph/snapshot.ts';
import { projectRoot as ROOT } from '../../test/helpers/serverProcess.ts';
import { type BenchRow, num } from '../lib/benchRows.ts';
import { generateRoutingGraph, ROUTING_GRAPH } from '../lib/generateScale.ts';
import { devnetPairs, type Graph, generatedPairs, loadGraph, pairCases } from '../lib/routingGraphs.ts';
import { type AddedPools, compareAddedPools } from './addedPools.ts';

/** v4 pools added to the generated graph (BENCH_ROUTING_V4_POOLS, default 1,000: a tenth of its pools). */
const ROUTING_V4_POOLS = Number(process.env.BENCH_ROUTING_V4_POOLS ?? 1_000);

const withoutV4 = (p: { version: string }): boolean => p.version !== 'v4';
const v4Added = (count: number): AddedPools => ({ label: 'v4', count, version: 'v4' });

/** The devnet with v4, seeded now into `dir`. */
async function devnetWithV4(dir: string): Promise<{ withV4: Graph; without: Graph; v4Pools: number }> {
  mkdirSync(dir, { recursive: true });
  const catalogDir = join(ROOT, 'catalog');
  const devnet = await startDevnet({ v4: true });
  try {
    const chain = loadCatalog(catalogDir).chain(devnet.chainId)!;
    const report = await seedChains({
      chains: [chain],
      rpcUrls: new Map([[devnet.chainId, devnet.rpcUrl]]),
      snapshotDir: dir,
      progress: 'none',
      log: () => undefined,
    });
    if (report.chains[0]?.status !== 'seeded') throw new Error('seeding the v4 devnet failed');
  } finally {
    await devnet.stop();
  }
  const withV4 = loadGraph('devnet with v4', catalogDir, dir);
  const without = loadGraph('devnet without v4', catalogDir, dir, withoutV4);
  const v4Pools = loadSnapshots(dir).snapshots.reduce((n, x) => n + x.pools.filter((p) => !withoutV4(p)).length, 0);
  return { withV4, without, v4Pools };
}

/** The v4 part: one row per graph. */
export async function v4Part(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-routing-v4-'));
  try {
    const devnetDir = join(dir, 'devnet');
    const devnet = await devnetWithV4(devnetDir);
    const devnetCases = devnetPairs(devnet.without).flatMap(([a, b]) => pairCases(devnet.without.index, a, b));
    const rows = [compareAddedPools('devnet', devnet.withV4, devnet.without, devnetCases, v4Added(devnet.v4Pools))];
    const fixture = generateRoutingGraph(join(dir, 'generated'), { ...ROUTING_GRAPH, v4Pools: ROUTING_V4_POOLS });
    const name = `generated ${num(ROUTING_GRAPH.pools)} pools`;
    const withV4 = loadGraph(`${name} + ${num(fixture.v4Pools)} v4`, fixture.catalogDir, fixture.snapshotDir);
    const without = loadGraph(name, fixture.catalogDir, fixture.snapshotDir, withoutV4);
    const cases = generatedPairs(fixture).flatMap(([a, b]) => pairCases(without.index, a, b));
    rows.push(compareAddedPools(name, withV4, without, cases, v4Added(fixture.v4Pools)));
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
