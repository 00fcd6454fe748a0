/**
 * `npm run ts -- bench/usdPrices.ts`: what the USD prices of GET /blockchains/pools and pool ranking cost
 * (src/graph/usdPrices.ts: the deepest-path search from the stablecoins over a chain's pools), computed once per
 * followed block when something asks: on the shipped devnet snapshot and on the generated chain of 10,000 pools over
 * 500 tokens (bench/lib/generateScale.ts, generateRoutingGraph; BENCH_PRICE_POOLS / BENCH_PRICE_TOKENS for others).
 * Medians over BENCH_ROUNDS (default 20) rounds, each on a new graph after one followed block (a v2 pool moved):
 * wall time and this thread's CPU time (the latter steadier on a shared machine).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCatalog } from '../src/catalog/loadCatalog.ts';
import { PoolGraph } from '../src/graph/PoolGraph.ts';
import { loadSnapshots } from '../src/graph/snapshot.ts';
import { chainUsdPrices } from '../src/graph/usdPrices.ts';
import type { SnapshotPoolV2 } from '../src/protocols/uniswapV2/SnapshotPoolV2.ts';
import { projectRoot as ROOT } from '../test/helpers/serverProcess.ts';
import { type BenchRow, ms, num, reportRows } from './lib/benchRows.ts';
import { generateRoutingGraph, ROUTING_GRAPH } from './lib/generateScale.ts';
import { median } from './lib/timing.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
const CHAIN_ID = 31337;

function measure(name: string, catalogDir: string, snapshotDir: string): BenchRow {
  const catalog = loadCatalog(catalogDir);
  let graph = new PoolGraph(loadSnapshots(snapshotDir).snapshots, catalog);
  const base = graph.snapshot(CHAIN_ID)!;
  const v2 = graph.pools(CHAIN_ID).find((p): p is SnapshotPoolV2 => p.version === 'v2')!;
  const times: number[] = [];
  const cpu: number[] = [];
  let priced = 0;
  for (let round = 1; round <= ROUNDS; round++) {
    const moved: SnapshotPoolV2 = { ...v2, reserve0: String(BigInt(v2.reserve0) + BigInt(round)) };
    graph = graph.withUpdate({
      chainId: CHAIN_ID,
      blockNumber: base.blockNumber + round,
      blockHash: `0x${round.toString(16).padStart(64, '0')}`,
      parentHash: `0x${(round - 1).toString(16).padStart(64, '0')}`,
      blockTimestamp: base.blockTimestamp + round,
      gasPriceWei: base.gasPriceWei ?? '0',
      pools: [moved],
      removed: [],
    });
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    priced = chainUsdPrices(graph, catalog, CHAIN_ID).size;
    const c = process.cpuUsage(c0);
    times.push(performance.now() - t0);
    cpu.push((c.user + c.system) / 1000);
  }
  const pools = graph.pools(CHAIN_ID).length;
  return {
    part: 'prices',
    case: `USD prices after a followed block, ${name} (${num(pools)} pools)`,
    result: `${ms(median(times))} median (CPU ${ms(median(cpu))}), ${num(priced)} tokens priced`,
    ratio: `${((median(times) * 1000) / pools).toFixed(2)} µs per pool`,
    target: '',
    met: null,
  };
}

const rows: BenchRow[] = [measure('devnet', join(ROOT, 'catalog'), join(ROOT, 'seeds/snapshots'))];
const dir = mkdtempSync(join(tmpdir(), 'bench-prices-'));
try {
  const fixture = generateRoutingGraph(dir, {
    ...ROUTING_GRAPH,
    pools: Number(process.env.BENCH_PRICE_POOLS ?? ROUTING_GRAPH.pools),
    tokens: Number(process.env.BENCH_PRICE_TOKENS ?? ROUTING_GRAPH.tokens),
  });
  rows.push(measure(`generated, ${num(fixture.tokens.length)} tokens`, fixture.catalogDir, fixture.snapshotDir));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
reportRows(rows);
