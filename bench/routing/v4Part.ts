/**
 * bench:routing, part "v4": the route search per quote (as part "search": API defaults, the snapshot's gas price) with
 * Uniswap v4 pools in the graph against the same graph without them, on two graphs: the devnet with v4 (a fresh
 * `startDevnet({ v4: true })` seeded into a temporary folder: its v2/v3 pools and the v4 pools of
 * seeds/devnet/devnetV4Plan.ts) and the generated 10,000-pool graph with ROUTING_V4_POOLS v4 pools added
 * (generateRoutingGraph's v4Pools option: the 10,000 v2/v3 pools are the same). "Without" is the same snapshot with
 * its v4 pools dropped before indexing, and the cases are the same (their amounts from the graph without v4). The two
 * graphs are timed in alternating rounds (with, without, with, ...) in one process, so that load from other processes
 * falls on both alike. Target: p99 with v4 at most 10% above p99 without.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDevnet } from '../../seeds/devnet/startDevnet.ts';
import { loadCatalog } from '../../src/catalog/loadCatalog.ts';
import { seedChains } from '../../src/chain/seedChains.ts';
import { loadSnapshots } from '../../src/graph/snapshot.ts';
import { projectRoot as ROOT } from '../../test/helpers/serverProcess.ts';
import { type BenchRow, ms, num } from '../lib/benchRows.ts';
import { generateRoutingGraph, ROUTING_GRAPH, rng } from '../lib/generateScale.ts';
import { LatencyRecorder } from '../lib/percentiles.ts';
import {
  bestTradeOfCase,
  type Case,
  devnetPairs,
  type Graph,
  generatedPairs,
  loadGraph,
  pairCases,
  SEARCH_ROUNDS,
} from '../lib/routingGraphs.ts';
import { shuffled, timedCpu } from '../lib/timing.ts';

/** v4 pools added to the generated graph (BENCH_ROUTING_V4_POOLS, default 1,000: a tenth of its pools). */
const ROUTING_V4_POOLS = Number(process.env.BENCH_ROUTING_V4_POOLS ?? 1_000);

const withoutV4 = (p: { version: string }): boolean => p.version !== 'v4';

interface Latencies {
  readonly wall: LatencyRecorder;
  readonly cpu: LatencyRecorder;
}

/** Search p50/p99 of the same cases on both graphs, rounds alternating between them. */
function compare(name: string, withV4: Graph, without: Graph, cases: readonly Case[], v4Pools: number): BenchRow {
  const graphs = [withV4, without] as const;
  // A first pass converts the pools the quotes touch, on both.
  for (const g of graphs) for (const c of cases) bestTradeOfCase(g, c, g.gasPriceWei);
  const rec: Latencies[] = graphs.map(() => ({ wall: new LatencyRecorder(), cpu: new LatencyRecorder() }));
  const random = rng(23);
  let v4Trades = 0;
  for (let round = 0; round < SEARCH_ROUNDS; round++) {
    for (const [k, g] of graphs.entries()) {
      for (const c of shuffled(cases, random)) {
        const [outcome, wall, cpu] = timedCpu(() => bestTradeOfCase(g, c, g.gasPriceWei));
        rec[k].wall.add(wall);
        rec[k].cpu.add(cpu);
        if (round === 0 && k === 0 && outcome.ok && outcome.trade.splits.some((s) => s.route.legs.some((l) => l.version === 'v4')))
          v4Trades++;
      }
    }
  }
  const [[w50, w99], [o50, o99]] = rec.map((r) => r.wall.percentiles([50, 99]));
  const [[c50, c99], [d50, d99]] = rec.map((r) => r.cpu.percentiles([50, 99]));
  const pct = (a: number, b: number) => `${a >= b ? '+' : ''}${((a / b - 1) * 100).toFixed(1)}%`;
  const line = `v4 ${name}: with ${num(v4Pools)} v4 pools p50 ${ms(w50)} p99 ${ms(w99)} (CPU ${ms(c50)} / ${ms(c99)}); without p50 ${ms(o50)} p99 ${ms(o99)} (CPU ${ms(d50)} / ${ms(d99)}); p99 ${pct(w99, o99)}, CPU p99 ${pct(c99, d99)}; ${v4Trades} of ${cases.length} trades use a v4 pool`;
  process.stdout.write(`${line}\n`);
  return {
    part: 'routing',
    case: `search per quote with v4 pools vs without, ${name}, defaults, alternating rounds`,
    result: `with ${num(v4Pools)} v4 pools: p50 ${ms(w50)}, p99 ${ms(w99)} (CPU p99 ${ms(c99)}); without: p50 ${ms(o50)}, p99 ${ms(o99)} (CPU p99 ${ms(d99)}); ${num(rec[0].wall.count)} quotes each; ${v4Trades}/${cases.length} best trades use v4`,
    ratio: `p99 ${pct(w99, o99)}, CPU p99 ${pct(c99, d99)}`,
    target: 'p99 <= +10%',
    met: w99 <= o99 * 1.1,
  };
}

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
    const rows = [compare('devnet', devnet.withV4, devnet.without, devnetCases, devnet.v4Pools)];
    const fixture = generateRoutingGraph(join(dir, 'generated'), { ...ROUTING_GRAPH, v4Pools: ROUTING_V4_POOLS });
    const name = `generated ${num(ROUTING_GRAPH.pools)} pools`;
    const withV4 = loadGraph(`${name} + ${num(fixture.v4Pools)} v4`, fixture.catalogDir, fixture.snapshotDir);
    const without = loadGraph(name, fixture.catalogDir, fixture.snapshotDir, withoutV4);
    const cases = generatedPairs(fixture).flatMap(([a, b]) => pairCases(without.index, a, b));
    rows.push(compare(name, withV4, without, cases, fixture.v4Pools));
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
