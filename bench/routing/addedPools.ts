/**
 * The measure of bench:routing's parts "v4" and "balancer": the route search per quote (as part "search": API
 * defaults, the snapshot's gas price) on a graph with pools of one kind added against the same graph without them,
 * same cases, rounds alternating between the two graphs (with, without, with, ...) in one process, so that load from
 * other processes falls on both alike. Target: p99 with the added pools at most 10% above p99 without.
 */
import { type BenchRow, ms, num } from '../lib/benchRows.ts';
import { rng } from '../lib/generateScale.ts';
import { LatencyRecorder } from '../lib/percentiles.ts';
import { bestTradeOfCase, type Case, type Graph, SEARCH_ROUNDS } from '../lib/routingGraphs.ts';
import { shuffled, timedCpu } from '../lib/timing.ts';

/** The pools added: what the rows call them ("v4", "Balancer"), how many, and whether a leg's version is one. */
export interface AddedPools {
  readonly label: string;
  readonly count: number;
  /** Said of the count, e.g. "(120 weighted, 12 stable)". */
  readonly detail?: string;
  readonly version: string;
}

interface Latencies {
  readonly wall: LatencyRecorder;
  readonly cpu: LatencyRecorder;
}

/** Search p50/p99 of the same cases on both graphs, rounds alternating between them: one row. */
export function compareAddedPools(name: string, withAdded: Graph, without: Graph, cases: readonly Case[], added: AddedPools): BenchRow {
  const graphs = [withAdded, without] as const;
  // A first pass converts the pools the quotes touch, on both.
  for (const g of graphs) for (const c of cases) bestTradeOfCase(g, c, g.gasPriceWei);
  const rec: Latencies[] = graphs.map(() => ({ wall: new LatencyRecorder(), cpu: new LatencyRecorder() }));
  const random = rng(23);
  let using = 0;
  for (let round = 0; round < SEARCH_ROUNDS; round++) {
    for (const [k, g] of graphs.entries()) {
      for (const c of shuffled(cases, random)) {
        const [outcome, wall, cpu] = timedCpu(() => bestTradeOfCase(g, c, g.gasPriceWei));
        rec[k].wall.add(wall);
        rec[k].cpu.add(cpu);
        if (round === 0 && k === 0 && outcome.ok && outcome.trade.splits.some((s) => s.route.legs.some((l) => l.version === added.version)))
          using++;
      }
    }
  }
  const [[w50, w99], [o50, o99]] = rec.map((r) => r.wall.percentiles([50, 99]));
  const [[c50, c99], [d50, d99]] = rec.map((r) => r.cpu.percentiles([50, 99]));
  const pct = (a: number, b: number) => `${a >= b ? '+' : ''}${((a / b - 1) * 100).toFixed(1)}%`;
  const pools = `${num(added.count)} ${added.label} pools${added.detail ? ` ${added.detail}` : ''}`;
  const line = `${added.label} ${name}: with ${pools} p50 ${ms(w50)} p99 ${ms(w99)} (CPU ${ms(c50)} / ${ms(c99)}); without p50 ${ms(o50)} p99 ${ms(o99)} (CPU ${ms(d50)} / ${ms(d99)}); p99 ${pct(w99, o99)}, CPU p99 ${pct(c99, d99)}; ${using} of ${cases.length} trades use a ${added.label} pool`;
  process.stdout.write(`${line}\n`);
  return {
    part: 'routing',
    case: `search per quote with ${added.label} pools vs without, ${name}, defaults, alternating rounds`,
    result: `with ${pools}: p50 ${ms(w50)}, p99 ${ms(w99)} (CPU p50 ${ms(c50)}, p99 ${ms(c99)}); without: p50 ${ms(o50)}, p99 ${ms(o99)} (CPU p50 ${ms(d50)}, p99 ${ms(d99)}); ${num(rec[0].wall.count)} quotes each; ${using}/${cases.length} best trades use ${added.label}`,
    ratio: `p50 ${pct(w50, o50)}, p99 ${pct(w99, o99)}; CPU p50 ${pct(c50, d50)}, p99 ${pct(c99, d99)}`,
    target: 'p99 <= +10%',
    met: w99 <= o99 * 1.1,
  };
}
