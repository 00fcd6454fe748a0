/**
 * bench:routing, part "search": latency per quote at the API's defaults (maxHops 3, maxSplits 5, splits at the optimum,
 * the gas price recorded in the snapshot), p50/p99 of wall and CPU time over rounds in shuffled order, after a first
 * pass that converts the pools the quotes touch. Targets: devnet p99 <= 2 ms, 10,000 pools p99 <= 10 ms.
 */
import { type BenchRow, ms, num } from '../lib/benchRows.ts';
import { rng } from '../lib/generateScale.ts';
import { LatencyRecorder } from '../lib/percentiles.ts';
import { bestTradeOfCase, type Case, type Graph, outcomeSummary, type RoutingGraphs, SEARCH_ROUNDS } from '../lib/routingGraphs.ts';
import { median, shuffled, timed, timedCpu } from '../lib/timing.ts';

function searchGraph(graph: Graph, cases: readonly Case[], target: number): BenchRow {
  const first = cases.map((c) => timed(() => bestTradeOfCase(graph, c, graph.gasPriceWei)));
  const recorder = new LatencyRecorder();
  const cpuRecorder = new LatencyRecorder();
  const perCase = new Map<Case, number[]>(cases.map((c) => [c, []]));
  const random = rng(17);
  for (let round = 0; round < SEARCH_ROUNDS; round++) {
    for (const c of shuffled(cases, random)) {
      const [, wall, cpu] = timedCpu(() => bestTradeOfCase(graph, c, graph.gasPriceWei));
      recorder.add(wall);
      cpuRecorder.add(cpu);
      perCase.get(c)!.push(cpu);
    }
  }
  const [p50, p99, max] = recorder.percentiles([50, 99, 100]);
  const [cpu50, cpu99] = cpuRecorder.percentiles([50, 99]);
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
    `search ${graph.name}: ${recorder.count} quotes, p50 ${ms(p50)}, p99 ${ms(p99)}, max ${ms(max)}; first pass max ${ms(coldMax)}; ${outcomeSummary(first.map(([o]) => o))}\n`,
  );
  return {
    part: 'routing',
    case: `search per quote, ${graph.name}, defaults, snapshot gas price ${(Number(graph.gasPriceWei) / 1e9).toFixed(2)} gwei`,
    result: `p50 ${ms(p50)}, p99 ${ms(p99)} (max ${ms(max)}); CPU time p50 ${ms(cpu50)}, p99 ${ms(cpu99)}; ${num(recorder.count)} quotes: ${pairs} pairs x 3 sizes x ${SEARCH_ROUNDS} rounds`,
    ratio: `${outcomeSummary(first.map(([o]) => o))}; first pass (pool conversion) max ${ms(coldMax)}`,
    target: `p99 <= ${target} ms`,
    met: p99 <= target,
  };
}

/** The search part on both graphs: one row each. */
export function searchPart(graphs: RoutingGraphs): BenchRow[] {
  return [searchGraph(graphs.devnet, graphs.devnetCases, 2), searchGraph(graphs.generated, graphs.generatedCases, 10)];
}
