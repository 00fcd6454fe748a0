/**
 * `npm run ts -- bench/scaleTrades.ts`: what bench:scale's 100,000-pool graph changes in the devnet quote mix's trades,
 * and what it costs, pair by pair. Both graphs are loaded in one process as a pricing worker loads them (the shipped
 * devnet files, and generateScale's DEFAULT_SCALE graph: the devnet's pools and 100,000 generated ones, priced
 * consistently), and each pair of the mix (bench/lib/quoteMix.ts, 20 varied amounts) is searched as POST
 * /quotes/routes searches it (default routing, one search per DEX deployment plus the best over all: findTrades).
 *
 * Per pair: CPU µs per task on each graph (alternating rounds, medians), how many of the answer's entries are the
 * same trade on both graphs, the paths they carry in all (members summed over the entries), and what the best entry
 * gains in output on the bigger graph. Then the whole mix, and the tasks whose every entry is the same on both graphs
 * (the cost of the graph's size alone, for identical answers). Environment: BENCH_ROUNDS (default 7),
 * BENCH_PER_DEPLOYMENT=0 (POST /quotes' task: the one search over all deployments, one entry per answer).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseUnits } from 'viem';
import { deploymentId } from '../src/catalog/Catalog.ts';
import { bestTradesByDeployment, type DeploymentTrade } from '../src/routing/bestTradesByDeployment.ts';
import { projectRoot } from '../test/helpers/serverProcess.ts';
import { DEFAULT_SCALE, generateScale } from './lib/generateScale.ts';
import { DEVNET_QUOTES, DEVNET_TOKENS } from './lib/quoteMix.ts';
import { type Graph, loadGraph, MAX_HOPS, MAX_SPLITS } from './lib/routingGraphs.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
/** BENCH_PER_DEPLOYMENT=0: one search over all deployments per task (POST /quotes' task), as searchTask.ts. */
const PER_DEPLOYMENT = process.env.BENCH_PER_DEPLOYMENT !== '0';
const AMOUNTS = 20;

/** One pair's tasks on one graph. */
type Search = () => DeploymentTrade[];

/** The mix's searches on a graph, by pair: 20 amounts each (the listed amount plus 0.0001 × i, as variedQuoteBodies). */
function searches(graph: Graph): Search[][] {
  const deployments = graph.index.chain.dexes.map((d) => deploymentId(d.slug, d.version));
  const limits = { maxHops: MAX_HOPS, maxSplits: MAX_SPLITS, gasPriceWei: graph.gasPriceWei, deployments };
  return DEVNET_QUOTES.map(([a, b, amount]) => {
    const tokenIn = DEVNET_TOKENS[a].toLowerCase();
    const tokenOut = DEVNET_TOKENS[b].toLowerCase();
    return Array.from({ length: AMOUNTS }, (_, i) => {
      const subject = {
        tokenIn,
        tokenOut,
        tradeType: 'exactIn' as const,
        amount: parseUnits(i === 0 ? amount : `${amount}.${String(i).padStart(4, '0')}`, graph.decimals(tokenIn)),
      };
      return () => bestTradesByDeployment(graph.index, subject, limits, PER_DEPLOYMENT);
    });
  });
}

/** CPU µs per task of running `tasks` for about `ms`. */
function cpuPerTask(tasks: readonly Search[], ms: number): number {
  const cpu = process.cpuUsage();
  let n = 0;
  for (const t0 = performance.now(); performance.now() - t0 < ms; n += tasks.length) for (const t of tasks) t();
  const used = process.cpuUsage(cpu);
  return (used.user + used.system) / n;
}

/** Medians of alternating rounds on the two graphs. */
function alternating(devnet: readonly Search[], big: readonly Search[], ms: number): [number, number] {
  const rounds: [number[], number[]] = [[], []];
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 ? ([0, 1] as const) : ([1, 0] as const);
    for (const side of order) rounds[side].push(cpuPerTask(side === 0 ? devnet : big, ms));
  }
  return [median(rounds[0]), median(rounds[1])];
}

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const text = (entries: readonly DeploymentTrade[]): string =>
  JSON.stringify(entries, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));
const members = (entries: readonly DeploymentTrade[]): number =>
  entries.reduce((n, e) => n + (e.outcome.ok ? e.outcome.trade.splits.length : 0), 0);
const bestOut = (entries: readonly DeploymentTrade[]): bigint =>
  entries.reduce((m, e) => (e.outcome.ok && e.outcome.trade.amountOut > m ? e.outcome.trade.amountOut : m), 0n);

const dir = mkdtempSync(join(tmpdir(), 'scale-trades-'));
try {
  const fixture = generateScale(dir, DEFAULT_SCALE);
  const devnet = loadGraph('devnet', join(projectRoot, 'catalog'), join(projectRoot, 'seeds/snapshots'));
  const big = loadGraph('100k', fixture.catalogDir, fixture.snapshotDir);
  const small = searches(devnet);
  const large = searches(big);
  // Warm-up: every task on both graphs for 2 s each (the pair memo and the JIT).
  cpuPerTask(small.flat(), 2000);
  cpuPerTask(large.flat(), 2000);
  const same: [Search[], Search[]] = [[], []];
  const lines: string[] = [];
  let sameEntries = 0;
  let allEntries = 0;
  for (let p = 0; p < DEVNET_QUOTES.length; p++) {
    let equal = 0;
    let entries = 0;
    let m0 = 0;
    let m1 = 0;
    const gains: number[] = [];
    for (let i = 0; i < AMOUNTS; i++) {
      const a = small[p][i]();
      const b = large[p][i]();
      const pairs = Math.max(a.length, b.length);
      let equalHere = 0;
      for (let e = 0; e < pairs; e++) if (a[e] && b[e] && text([a[e]]) === text([b[e]])) equalHere++;
      equal += equalHere;
      entries += pairs;
      if (equalHere === pairs) {
        same[0].push(small[p][i]);
        same[1].push(large[p][i]);
      }
      m0 += members(a);
      m1 += members(b);
      const out0 = bestOut(a);
      gains.push(out0 > 0n ? (Number(((bestOut(b) - out0) * 10_000_000n) / out0) / 10_000_000) * 100 : 0);
    }
    sameEntries += equal;
    allEntries += entries;
    const [cpu0, cpu1] = alternating(small[p], large[p], 100);
    const [a, b, amount] = DEVNET_QUOTES[p];
    lines.push(
      `${`${a} -> ${b} ${amount}`.padEnd(22)} ${cpu0.toFixed(0).padStart(5)} ${cpu1.toFixed(0).padStart(6)}  x${(cpu1 / cpu0).toFixed(2)}  ${`${equal}/${entries}`.padStart(7)}  ${(m0 / AMOUNTS).toFixed(1).padStart(5)} ${(m1 / AMOUNTS).toFixed(1).padStart(5)}  +${median(gains).toFixed(3)}%`,
    );
  }
  process.stdout.write(
    'pair (20 amounts)      devnet   100k  ratio  entries  paths devnet/100k  best output gain (median)\n' +
      `                       µs CPU per task      same on both\n${lines.join('\n')}\n`,
  );
  const [all0, all1] = alternating(small.flat(), large.flat(), 300);
  process.stdout.write(
    `whole mix (${small.flat().length} tasks): devnet ${all0.toFixed(0)} µs, 100k ${all1.toFixed(0)} µs CPU per task: x${(all1 / all0).toFixed(2)}; ${sameEntries} of ${allEntries} entries the same trade on both graphs\n`,
  );
  if (same[0].length > 0) {
    const [s0, s1] = alternating(same[0], same[1], 300);
    process.stdout.write(
      `tasks whose every entry is the same on both graphs (${same[0].length}): devnet ${s0.toFixed(0)} µs, 100k ${s1.toFixed(0)} µs CPU per task: x${(s1 / s0).toFixed(2)}\n`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
