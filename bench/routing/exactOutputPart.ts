/**
 * bench:routing, part "exactout": exact-output quotes (tradeType exactOut) beside exact-input ones at the same search
 * settings. Each exact-input case that finds a trade gets an exact-output twin asking for exactly that trade's output;
 * both are timed in the same rounds (shuffled, the two sides alternating which goes first), after a first pass of each.
 */
import { type BenchRow, ms, num } from '../lib/benchRows.ts';
import { rng } from '../lib/generateScale.ts';
import { LatencyRecorder } from '../lib/percentiles.ts';
import { bestTradeOfCase, type Case, type Graph, outcomeSummary, type RoutingGraphs, SEARCH_ROUNDS } from '../lib/routingGraphs.ts';
import { shuffled, timedCpu } from '../lib/timing.ts';

function exactOutputGraph(graph: Graph, cases: readonly Case[]): BenchRow[] {
  const pairs: { exactIn: Case; exactOut: Case }[] = [];
  for (const c of cases) {
    const o = bestTradeOfCase(graph, c, graph.gasPriceWei);
    if (o.ok) pairs.push({ exactIn: c, exactOut: { ...c, tradeType: 'exactOut', amount: o.trade.amountOut } });
  }
  const firstOut = pairs.map((p) => bestTradeOfCase(graph, p.exactOut, graph.gasPriceWei));
  const recorders = {
    exactIn: [new LatencyRecorder(), new LatencyRecorder()],
    exactOut: [new LatencyRecorder(), new LatencyRecorder()],
  } as const;
  const random = rng(23);
  for (let round = 0; round < SEARCH_ROUNDS; round++) {
    for (const p of shuffled(pairs, random)) {
      const sides = round % 2 === 0 ? (['exactIn', 'exactOut'] as const) : (['exactOut', 'exactIn'] as const);
      for (const side of sides) {
        const [, wall, cpu] = timedCpu(() => bestTradeOfCase(graph, p[side], graph.gasPriceWei));
        recorders[side][0].add(wall);
        recorders[side][1].add(cpu);
      }
    }
  }
  const figures = (side: 'exactIn' | 'exactOut') => {
    const [p50, p99] = recorders[side][0].percentiles([50, 99]);
    const [cpu50, cpu99] = recorders[side][1].percentiles([50, 99]);
    return { p50, p99, cpu50, cpu99, count: recorders[side][0].count };
  };
  const inF = figures('exactIn');
  const outF = figures('exactOut');
  const summary = outcomeSummary(firstOut);
  process.stdout.write(
    `exact output ${graph.name}: ${outF.count} quotes, p50 ${ms(outF.p50)}, p99 ${ms(outF.p99)}; exact input p50 ${ms(inF.p50)}, p99 ${ms(inF.p99)}; ${summary}\n`,
  );
  const row = (side: 'exactIn' | 'exactOut', f: ReturnType<typeof figures>): BenchRow => ({
    part: 'routing',
    case: `search per quote, ${graph.name}, defaults, ${side === 'exactIn' ? 'exact input' : 'exact output of the same trades'}`,
    result: `p50 ${ms(f.p50)}, p99 ${ms(f.p99)}; CPU time p50 ${ms(f.cpu50)}, p99 ${ms(f.cpu99)}; ${num(f.count)} quotes (${pairs.length} cases x ${SEARCH_ROUNDS} rounds)`,
    ratio:
      side === 'exactIn' ? '100%' : `p50 x${(f.p50 / inF.p50).toFixed(2)}, p99 x${(f.p99 / inF.p99).toFixed(2)} of exact input; ${summary}`,
    target: '',
    met: null,
  });
  return [row('exactIn', inF), row('exactOut', outF)];
}

/** The exactout part on both graphs: an exact-input and an exact-output row each. */
export function exactOutputPart(graphs: RoutingGraphs): BenchRow[] {
  return [...exactOutputGraph(graphs.devnet, graphs.devnetCases), ...exactOutputGraph(graphs.generated, graphs.generatedCases)];
}
