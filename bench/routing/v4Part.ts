/**
 * bench:routing, part "v4": the route search per quote with Uniswap v4 pools in the graph against the same graph
 * without them (bench/routing/addedPools.ts: each case on every graph back to back, CPU time per search, the median
 * of per-round ratios), on two graphs: the devnet with v4 (a fresh `startDevnet({ v4: true })` seeded into a
 * temporary folder: its v2/v3 pools and the v4 pools of seeds/devnet/devnetV4Plan.ts) and the generated
 * 10,000-pool graph with ROUTING_V4_POOLS v4 pools added (generateRoutingGraph's v4Pools option: the 10,000 v2/v3
 * pools are the same, the v4 pools come on top). "Without" is the same snapshot with its v4 pools dropped before
 * indexing, and the cases are the same (their amounts from the graph without v4). "With v4" holds the v4 pools the
 * API searches by default (hooks "safe" with the catalogue's allowedHooks: v4HookAdmits), not the refused ones,
 * which no request's search reads.
 *
 * Both graphs have a control: the same v4 pools as v3 pools of the same state (price, liquidity, ticks, balances,
 * fee; native ETH as the wrapped token, whose node native ETH pools join), in the same rounds. More pools mean more
 * paths whatever their kind (the devnet's 7 add about a third more paths on its few tokens; the generated graph's
 * 1,000 are a tenth more pools): "with against without" is the cost of those paths, the control row is what being
 * v4 costs beyond them. Target: p99 with v4 at most 10% above (addedPools.ts says which figure).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getAddress } from 'viem';
import { startDevnet } from '../../seeds/devnet/startDevnet.ts';
import { loadCatalog } from '../../src/catalog/loadCatalog.ts';
import { seedChains } from '../../src/chain/seedChains.ts';
import type { SnapshotPool } from '../../src/protocols/registry.ts';
import type { SnapshotPoolV3 } from '../../src/protocols/uniswapV3/SnapshotPoolV3.ts';
import type { SnapshotPoolV4 } from '../../src/protocols/uniswapV4/SnapshotPoolV4.ts';
import { chainAllowedHooks, v4HookAdmits } from '../../src/protocols/uniswapV4/v4Fees.ts';
import { projectRoot as ROOT } from '../../test/helpers/serverProcess.ts';
import { type BenchRow, num } from '../lib/benchRows.ts';
import { generateRoutingGraph, ROUTING_GRAPH } from '../lib/generateScale.ts';
import { type Case, CHAIN_ID, devnetPairs, type Graph, generatedPairs, loadGraph, pairCases } from '../lib/routingGraphs.ts';
import { type AddedPools, compareAddedPools } from './addedPools.ts';

/** v3's highest fee (V3_POOL_LIMITS): a 100% fee v4 pool's control. */
const V3_MAX_FEE = 999_999;

/** v4 pools added to the generated graph (BENCH_ROUTING_V4_POOLS, default 1,000: a tenth of its pools). */
const ROUTING_V4_POOLS = Number(process.env.BENCH_ROUTING_V4_POOLS ?? 1_000);

const withoutV4 = (p: { version: string }): boolean => p.version !== 'v4';
const v4Added = (count: number): AddedPools => ({ label: 'v4', count, version: 'v4' });

/** A v4 pool as a v3 pool of the same state: its poolId's last 20 bytes as address, native ETH as `wrapped`. */
function asV3(p: SnapshotPoolV4, wrapped: string): SnapshotPoolV3 {
  const { poolManager: _m, hooks: _h, lpFee, protocolFee: _p, ...state } = p;
  const token = (t: string) => (BigInt(t) === 0n ? wrapped : t);
  // The wrapped token sorts where 0x0 did on the devnet (below every token a native pool pairs with): checked.
  if (BigInt(p.token0) === 0n && BigInt(wrapped) >= BigInt(p.token1))
    throw new Error(`${p.address}: the wrapped token sorts after ${p.token1}`);
  return {
    ...state,
    version: 'v3',
    address: getAddress(`0x${p.address.slice(-40)}`),
    token0: token(p.token0),
    token1: token(p.token1),
    fee: Math.min(lpFee, V3_MAX_FEE),
  };
}

/**
 * The control's snapshot folder: `dir`'s files with the pools `admitted` keeps and their v4 pools rewritten as v3
 * pools (asV3), written into `controlDir`; the count of v4 pools rewritten.
 */
function writeAsV3(dir: string, controlDir: string, admitted: (p: SnapshotPool) => boolean, wrapped: string): number {
  mkdirSync(controlDir);
  let v4Pools = 0;
  for (const name of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    const file = JSON.parse(readFileSync(join(dir, name), 'utf8')) as { pools: SnapshotPool[] };
    file.pools = file.pools.filter(admitted);
    v4Pools += file.pools.filter((p) => p.version === 'v4').length;
    file.pools = file.pools.map((p) => (p.version === 'v4' ? asV3(p, wrapped) : p));
    writeFileSync(join(controlDir, name), JSON.stringify(file));
  }
  return v4Pools;
}

/** A graph with v4, without them, and with them as v3 (the control), and how many v4 pools it holds. */
interface V4Graphs {
  readonly withV4: Graph;
  readonly without: Graph;
  readonly asV3: Graph;
  readonly v4Pools: number;
}

/** The devnet with v4, seeded now into `dir`: with the v4 pools the API admits, without them, and with them as v3. */
async function devnetWithV4(dir: string): Promise<V4Graphs> {
  mkdirSync(dir, { recursive: true });
  const catalogDir = join(ROOT, 'catalog');
  const devnet = await startDevnet({ v4: true });
  const chain = loadCatalog(catalogDir).chain(devnet.chainId)!;
  try {
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
  // What the API's default search admits (bestTradesByDeployment's filter, hooks "safe").
  const allowed = chainAllowedHooks(chain);
  const admitted = (p: SnapshotPool): boolean => p.version !== 'v4' || v4HookAdmits(p, 'safe', allowed);
  const withV4 = loadGraph('devnet with v4', catalogDir, dir, admitted);
  const without = loadGraph('devnet without v4', catalogDir, dir, withoutV4);
  const controlDir = join(dir, 'as-v3');
  const v4Pools = writeAsV3(dir, controlDir, admitted, chain.wrappedNativeToken);
  return { withV4, without, asV3: loadGraph('devnet with the v4 pools as v3', catalogDir, controlDir), v4Pools };
}

/** The generated graph with ROUTING_V4_POOLS v4 pools, generated now into `dir`, with its cases. */
function generatedWithV4(dir: string): V4Graphs & { cases: Case[]; name: string } {
  const fixture = generateRoutingGraph(dir, { ...ROUTING_GRAPH, v4Pools: ROUTING_V4_POOLS });
  const name = `generated ${num(ROUTING_GRAPH.pools)} pools`;
  const { catalogDir, snapshotDir } = fixture;
  const withV4 = loadGraph(`${name} + ${num(fixture.v4Pools)} v4`, catalogDir, snapshotDir);
  const without = loadGraph(name, catalogDir, snapshotDir, withoutV4);
  const wrapped = loadCatalog(catalogDir).chain(CHAIN_ID)!.wrappedNativeToken;
  const controlDir = join(dir, 'as-v3');
  writeAsV3(snapshotDir, controlDir, () => true, wrapped);
  const asV3Graph = loadGraph(`${name} + the ${num(fixture.v4Pools)} v4 as v3`, catalogDir, controlDir);
  const cases = generatedPairs(fixture).flatMap(([a, b]) => pairCases(without.index, a, b));
  return { withV4, without, asV3: asV3Graph, v4Pools: fixture.v4Pools, cases, name };
}

/** The v4 part: one row per graph, and one per graph's control. */
export async function v4Part(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-routing-v4-'));
  try {
    const devnet = await devnetWithV4(join(dir, 'devnet'));
    const devnetCases = devnetPairs(devnet.without).flatMap(([a, b]) => pairCases(devnet.without.index, a, b));
    const control = (g: V4Graphs) => ({ graph: g.asV3, label: 'as v3 pools' });
    const rows = compareAddedPools('devnet', devnet.withV4, devnet.without, devnetCases, v4Added(devnet.v4Pools), control(devnet));
    const gen = generatedWithV4(join(dir, 'generated'));
    rows.push(...compareAddedPools(gen.name, gen.withV4, gen.without, gen.cases, v4Added(gen.v4Pools), control(gen)));
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
