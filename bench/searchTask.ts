/**
 * `npm run ts -- bench/searchTask.ts <other checkout>`: the CPU cost of one trade task (findTrades of src/quote/TradeTask.ts, as the API thread
 * runs it for POST /quotes/routes) in this checkout against another checkout of the project (e.g. a worktree of
 * main before a change), in one process: both load the shipped catalogue and devnet snapshot, run the varied one-pool
 * quote mix (bench/lib/quoteMix.ts, 20 amounts per pair, maxHops 1, maxSplits 1, one search per DEX deployment)
 * for a 2 s warm-up each, then 15 alternating rounds of 300 ms; prints the median CPU µs per task of each.
 * BENCH_SPLITS / BENCH_HOPS change the routing limits (default 1 / 1). First it checks that both checkouts find the same
 * trades for every task (the outcomes serialized, bigints included) and prints how many are identical.
 *
 * BENCH_TASKS=cases: instead of the quote mix, bench:routing's search cases (bench/lib/routingGraphs.ts: every devnet
 * pair, and on BENCH_GRAPH=generated 40 pairs of a generated 10,000-pool graph with 500 v4 and 200 Balancer pools, five
 * deployments), each at 0.01%, 1% and 20% of its depth, exact input and exact output. BENCH_SNAPSHOT_DIR: the devnet
 * graph from another snapshot folder (a devnet seeded with v4 pools, say). BENCH_PER_DEPLOYMENT=0: the
 * tasks without the per-deployment searches (POST /quotes' task: one search over all deployments). BENCH_GRAPH=scale
 * without BENCH_TASKS: the varied devnet mix on bench:scale's 100,000-pool graph (generateScale, DEFAULT_SCALE: the
 * devnet's pools and 100,000 generated ones), generated into a temporary folder.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseUnits } from 'viem';
import { projectRoot } from '../test/helpers/serverProcess.ts';
import { DEFAULT_SCALE, generateRoutingGraph, generateScale, ROUTING_GRAPH } from './lib/generateScale.ts';
import { variedQuoteBodies } from './lib/quoteMix.ts';
import { devnetPairs, generatedPairs, loadGraph, pairCases } from './lib/routingGraphs.ts';

const other = process.argv[2];
if (!other) throw new Error('usage: npm run ts -- bench/searchTask.ts <other checkout of the project>');
const limits = { maxHops: Number(process.env.BENCH_HOPS ?? 1), maxSplits: Number(process.env.BENCH_SPLITS ?? 1) };

/** A task's trade: the pair, side and fixed amount. */
type Subject = { tokenIn: string; tokenOut: string; tradeType: 'exactIn' | 'exactOut'; amount: bigint };

/** The graph's files and its tasks' trades (BENCH_TASKS, BENCH_GRAPH); `cleanup` removes a generated graph. */
function taskMix(): { catalogDir: string; snapshotDir: string; subjects: Subject[]; cleanup: () => void } {
  // BENCH_SNAPSHOT_DIR: another devnet snapshot folder (e.g. one seeded from `startDevnet({ v4: true })`, with v4 pools).
  const shipped = {
    catalogDir: join(projectRoot, 'catalog'),
    snapshotDir: process.env.BENCH_SNAPSHOT_DIR ?? join(projectRoot, 'seeds/snapshots'),
  };
  if (process.env.BENCH_TASKS !== 'cases') {
    // BENCH_GRAPH=scale: the same devnet mix on bench:scale's 100,000-pool graph (generateScale, DEFAULT_SCALE).
    const scaled = process.env.BENCH_GRAPH === 'scale' ? scaleGraph() : undefined;
    const folders = scaled ?? { ...shipped, cleanup: () => {} };
    const catalog = loadGraph(scaled ? 'scale' : 'devnet', folders.catalogDir, folders.snapshotDir);
    const subjects = variedQuoteBodies(20, limits).map((body): Subject => {
      const b = JSON.parse(body) as { tokenIn: string; tokenOut: string; amount: string };
      const tokenIn = b.tokenIn.toLowerCase();
      return { tokenIn, tokenOut: b.tokenOut.toLowerCase(), tradeType: 'exactIn', amount: parseUnits(b.amount, catalog.decimals(tokenIn)) };
    });
    return { ...folders, subjects };
  }
  const bothSides = (cases: readonly { tokenIn: string; tokenOut: string; amount: bigint }[]): Subject[] =>
    cases.flatMap((c) => (['exactIn', 'exactOut'] as const).map((tradeType) => ({ ...c, tradeType })));
  if (process.env.BENCH_GRAPH !== 'generated') {
    const graph = loadGraph('devnet', shipped.catalogDir, shipped.snapshotDir);
    return { ...shipped, subjects: bothSides(devnetPairs(graph).flatMap(([a, b]) => pairCases(graph.index, a, b))), cleanup: () => {} };
  }
  const dir = mkdtempSync(join(tmpdir(), 'search-task-'));
  const fixture = generateRoutingGraph(dir, { ...ROUTING_GRAPH, v4Pools: 500, balancerPools: 200 });
  const graph = loadGraph('generated', fixture.catalogDir, fixture.snapshotDir);
  const subjects = bothSides(generatedPairs(fixture).flatMap(([a, b]) => pairCases(graph.index, a, b)));
  return {
    catalogDir: fixture.catalogDir,
    snapshotDir: fixture.snapshotDir,
    subjects,
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}
/** bench:scale's generated graph in a temporary folder, removed by `cleanup`. */
function scaleGraph(): { catalogDir: string; snapshotDir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'search-task-scale-'));
  const fixture = generateScale(dir, DEFAULT_SCALE);
  return { catalogDir: fixture.catalogDir, snapshotDir: fixture.snapshotDir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
const mix = taskMix();
/** BENCH_PER_DEPLOYMENT=0: the search over all deployments only (POST /quotes' task), to tell what the others cost. */
const perDeployment = process.env.BENCH_PER_DEPLOYMENT !== '0';

/** Loads a checkout's modules and state; returns one pass over the task mix. */
async function setup(root: string): Promise<{ run: () => void; outcomes: () => string[]; tasks: number }> {
  const { loadCatalog } = await import(`${root}/src/catalog/loadCatalog.ts`);
  const { loadSnapshots, snapshotGasPriceWei } = await import(`${root}/src/graph/snapshot.ts`);
  const { PoolGraph } = await import(`${root}/src/graph/PoolGraph.ts`);
  const { PricingGraph } = await import(`${root}/src/graph/PricingGraph.ts`);
  // The task's search under its name here, or under its former one (runTradeTask) in checkouts from before.
  const findTrades: (graph: unknown, task: unknown) => unknown = existsSync(`${root}/src/quote/TradeTask.ts`)
    ? (await import(`${root}/src/quote/TradeTask.ts`)).findTrades
    : (await import(`${root}/src/quote/runTradeTask.ts`)).runTradeTask;
  const catalog = loadCatalog(mix.catalogDir);
  const graph = new PoolGraph(loadSnapshots(mix.snapshotDir).snapshots, catalog);
  const pricing = new PricingGraph(graph, catalog);
  const chain = catalog.chain(31337);
  const gasPriceWei: bigint = snapshotGasPriceWei(graph.snapshot(31337));
  const deployments: string[] = chain.dexes.map((d: { slug: string; version: string }) => `${d.slug}/${d.version}`);
  const tasks = mix.subjects.map(({ tokenIn, tokenOut, tradeType, amount }) => {
    return {
      chainId: 31337,
      tokenIn,
      tokenOut,
      tradeType,
      amount,
      // Both task shapes: the routing limits nested (RoutingLimits) and flat (checkouts from before they were).
      limits: { ...limits, gasPriceWei, deployments },
      ...limits,
      gasPriceWei,
      deployments,
      perDeployment,
      generation: 0,
    };
  });
  const run = (): void => {
    for (const t of tasks) findTrades(pricing, t);
  };
  // Every task's outcomes as text (bigints marked), to check both checkouts find the same trades before timing them.
  const outcomes = (): string[] =>
    tasks.map((t) => JSON.stringify(findTrades(pricing, t), (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)));
  return { run, outcomes, tasks: tasks.length };
}

const sides = { this: await setup(projectRoot), other: await setup(resolve(other)) };
const mine = sides.this.outcomes();
const theirs = sides.other.outcomes();
const differing = mine.filter((o, i) => o !== theirs[i]).length;
process.stdout.write(`outcomes: ${mine.length - differing} of ${mine.length} tasks identical in both checkouts\n`);
const perTask: Record<keyof typeof sides, number[]> = { this: [], other: [] };
const spin = (side: keyof typeof sides, ms: number): number => {
  let n = 0;
  for (const t0 = performance.now(); performance.now() - t0 < ms; n += sides[side].tasks) sides[side].run();
  return n;
};
spin('other', 2000);
spin('this', 2000);
for (let round = 0; round < 15; round++) {
  for (const side of round % 2 ? (['this', 'other'] as const) : (['other', 'this'] as const)) {
    const cpu = process.cpuUsage();
    const n = spin(side, 300);
    const used = process.cpuUsage(cpu);
    perTask[side].push((used.user + used.system) / n);
  }
}
const median = (a: number[]): number => [...a].sort((x, y) => x - y)[a.length >> 1];
const rounds = (a: number[]): string => a.map((x) => x.toFixed(0)).join(' ');
mix.cleanup();
const kind =
  process.env.BENCH_TASKS === 'cases'
    ? `${process.env.BENCH_GRAPH === 'generated' ? 'generated' : 'devnet'} search cases`
    : process.env.BENCH_GRAPH === 'scale'
      ? 'varied devnet mix on the 100k-pool graph'
      : 'varied devnet';
process.stdout.write(`trade task, maxHops ${limits.maxHops}, maxSplits ${limits.maxSplits}, ${sides.this.tasks} ${kind} tasks:\n`);
process.stdout.write(`  this checkout:  ${median(perTask.this).toFixed(1)} µs CPU per task (rounds: ${rounds(perTask.this)})\n`);
process.stdout.write(`  ${other}: ${median(perTask.other).toFixed(1)} µs CPU per task (rounds: ${rounds(perTask.other)})\n`);
