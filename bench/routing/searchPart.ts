/**
 * bench:routing, part "search": latency per quote at the API's defaults (maxHops 3, maxSplits 5, splits at the optimum,
 * the gas price recorded in the snapshot), p50/p99 of wall and CPU time over rounds in shuffled order, after a first
 * pass that converts the pools the quotes touch. Targets (issue 24): devnet p99 <= 1 ms, 10,000 pools p99 <= 3 ms.
 *
 * BENCH_BEFORE=<git ref>: the same graphs are also loaded with that commit's modules (a temporary worktree,
 * bench/lib/beforeCheckout.ts) and searched in alternating rounds (this, before; before, this; ...) in this process,
 * so that load from other jobs falls on both alike; one more row per graph gives the ratios and compares the outputs.
 */

import { beforeCheckout, type CheckoutOutcome, type CheckoutSearch, checkoutSearch, removeCheckout } from '../lib/beforeCheckout.ts';
import { type BenchRow, ms, num } from '../lib/benchRows.ts';
import { rng } from '../lib/generateScale.ts';
import { LatencyRecorder } from '../lib/percentiles.ts';
import {
  bestTradeOfCase,
  type Case,
  CHAIN_ID,
  type Graph,
  outcomeSummary,
  type RoutingGraphs,
  SEARCH_ROUNDS,
  servedTradeOfCase,
} from '../lib/routingGraphs.ts';
import { median, shuffled, timed, timedCpu } from '../lib/timing.ts';

const BEFORE = process.env.BENCH_BEFORE;

/** Wall and CPU latencies of one side. */
interface Side {
  readonly wall: LatencyRecorder;
  readonly cpu: LatencyRecorder;
}

function searchGraph(graph: Graph, cases: readonly Case[], target: number, before: CheckoutSearch | undefined): BenchRow[] {
  const first = cases.map((c) => timed(() => bestTradeOfCase(graph, c, graph.gasPriceWei)));
  const firstBefore = before ? cases.map((c) => before(c, graph.gasPriceWei)) : [];
  const sides: Side[] = (before ? [0, 1] : [0]).map(() => ({ wall: new LatencyRecorder(), cpu: new LatencyRecorder() }));
  const searches: ((c: Case) => unknown)[] = [(c) => bestTradeOfCase(graph, c, graph.gasPriceWei)];
  if (before) searches.push((c) => before(c, graph.gasPriceWei));
  // Last: the same search as the service runs it, its pairs' candidate paths kept per index (servedTradeOfCase).
  const served = { wall: new LatencyRecorder(), cpu: new LatencyRecorder() };
  sides.push(served);
  searches.push((c) => servedTradeOfCase(graph, c, graph.gasPriceWei));
  // Its first pass finds and keeps each pair's paths, as the service's first quote of a pair after a block does.
  for (const c of cases) servedTradeOfCase(graph, c, graph.gasPriceWei);
  const perCase = new Map<Case, number[]>(cases.map((c) => [c, []]));
  const random = rng(17);
  for (let round = 0; round < SEARCH_ROUNDS; round++) {
    const order = round % 2 === 0 ? searches.keys() : [...searches.keys()].reverse();
    for (const k of order) {
      for (const c of shuffled(cases, random)) {
        const [, wall, cpu] = timedCpu(() => searches[k](c));
        sides[k].wall.add(wall);
        sides[k].cpu.add(cpu);
        if (k === 0) perCase.get(c)!.push(cpu);
      }
    }
  }
  const [p50, p99, max] = sides[0].wall.percentiles([50, 99, 100]);
  const [cpu50, cpu99] = sides[0].cpu.percentiles([50, 99]);
  const slowest = [...perCase]
    .map(([c, t]) => [c, median(t)] as const)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 5);
  for (const [c, t] of slowest)
    process.stdout.write(
      `  slow: ${graph.symbol(c.tokenIn)} -> ${graph.symbol(c.tokenOut)} ${c.size} (${c.amount}): median CPU ${ms(t)}\n`,
    );
  const coldMax = Math.max(...first.map(([, t]) => t));
  const pairs = new Set(cases.map((c) => `${c.tokenIn}:${c.tokenOut}`)).size;
  process.stdout.write(
    `search ${graph.name}: ${sides[0].wall.count} quotes, p50 ${ms(p50)}, p99 ${ms(p99)}, max ${ms(max)}; CPU p50 ${ms(cpu50)}, p99 ${ms(cpu99)}; first pass max ${ms(coldMax)}; ${outcomeSummary(first.map(([o]) => o))}\n`,
  );
  const [s50, s99] = served.wall.percentiles([50, 99]);
  const [sc50, sc99] = served.cpu.percentiles([50, 99]);
  process.stdout.write(
    `search ${graph.name}, candidate paths kept per pair as the service keeps them: p50 ${ms(s50)}, p99 ${ms(s99)}; CPU p50 ${ms(sc50)}, p99 ${ms(sc99)}\n`,
  );
  const rows: BenchRow[] = [
    {
      part: 'routing',
      case: `search per quote, ${graph.name}, defaults, snapshot gas price ${(Number(graph.gasPriceWei) / 1e9).toFixed(2)} gwei`,
      result: `p50 ${ms(p50)}, p99 ${ms(p99)} (max ${ms(max)}); CPU time p50 ${ms(cpu50)}, p99 ${ms(cpu99)}; ${num(sides[0].wall.count)} quotes: ${pairs} pairs x 3 sizes x ${SEARCH_ROUNDS} rounds`,
      ratio: `${outcomeSummary(first.map(([o]) => o))}; first pass (pool conversion) max ${ms(coldMax)}`,
      target: `p99 <= ${target} ms`,
      met: p99 <= target,
    },
    {
      part: 'routing',
      case: `search per quote, ${graph.name}, defaults, candidate paths kept per pair (as the service searches)`,
      result: `p50 ${ms(s50)}, p99 ${ms(s99)}; CPU time p50 ${ms(sc50)}, p99 ${ms(sc99)}; same rounds as the row above`,
      ratio: `p99 x${(s99 / p99).toFixed(2)} of finding the paths on every search`,
      target: `p99 <= ${target} ms`,
      met: s99 <= target,
    },
  ];
  if (before)
    rows.push(
      beforeRow(
        graph,
        sides,
        first.map(([o]) => o),
        firstBefore,
      ),
    );
  return rows;
}

/** The row comparing this checkout with BENCH_BEFORE's on one graph: latency ratios and outputs case by case. */
function beforeRow(graph: Graph, sides: readonly Side[], now: readonly CheckoutOutcome[], then: readonly CheckoutOutcome[]): BenchRow {
  const [[w50, w99], [b50, b99]] = sides.map((s) => s.wall.percentiles([50, 99]));
  const [[c50, c99], [d50, d99]] = sides.map((s) => s.cpu.percentiles([50, 99]));
  let higher = 0;
  let lower = 0;
  let answered = 0;
  for (let i = 0; i < now.length; i++) {
    const a = now[i];
    const b = then[i];
    if (!a.ok || !b.ok) {
      if (a.ok !== b.ok) a.ok ? higher++ : lower++;
      continue;
    }
    answered++;
    if (a.trade.amountOut > b.trade.amountOut) higher++;
    else if (a.trade.amountOut < b.trade.amountOut) lower++;
  }
  const x = (a: number, b: number): string => `x${(a / b).toFixed(2)}`;
  const result = `this: p50 ${ms(w50)}, p99 ${ms(w99)}, CPU p50 ${ms(c50)}, p99 ${ms(c99)}; before: p50 ${ms(b50)}, p99 ${ms(b99)}, CPU p50 ${ms(d50)}, p99 ${ms(d99)}`;
  const ratio = `p50 ${x(w50, b50)}, p99 ${x(w99, b99)}; CPU p50 ${x(c50, d50)}, p99 ${x(c99, d99)}; output vs before: ${higher} higher, ${lower} lower of ${now.length} (${answered} answered by both)`;
  process.stdout.write(`search ${graph.name} against ${BEFORE}: ${result}; ${ratio}\n`);
  return {
    part: 'routing',
    case: `search per quote, ${graph.name}, against ${BEFORE}, alternating rounds`,
    result,
    ratio,
    target: '',
    met: null,
  };
}

/** The search part on both graphs: one row each (two with BENCH_BEFORE). */
export async function searchPart(graphs: RoutingGraphs): Promise<BenchRow[]> {
  const root = BEFORE ? beforeCheckout(BEFORE) : undefined;
  try {
    const before = async (catalogDir: string, snapshotDir: string): Promise<CheckoutSearch | undefined> =>
      root ? checkoutSearch(root, catalogDir, snapshotDir, CHAIN_ID) : undefined;
    return [
      ...searchGraph(graphs.devnet, graphs.devnetCases, 1, await before(graphs.devnetDirs.catalogDir, graphs.devnetDirs.snapshotDir)),
      ...searchGraph(graphs.generated, graphs.generatedCases, 3, await before(graphs.fixture.catalogDir, graphs.fixture.snapshotDir)),
    ];
  } finally {
    if (root) removeCheckout(root);
  }
}
