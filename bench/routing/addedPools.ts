/**
 * The measure of bench:routing's parts "v4" and "balancer": the route search per quote (as part "search": API
 * defaults, the snapshot's gas price) on a graph with pools of one kind added against the same graph without them,
 * same cases, rounds alternating between the two graphs (with, without, with, ...) in one process, so that load from
 * other processes falls on both alike. Target: p99 with the added pools at most 10% above p99 without. With a
 * control (the same pools added as another kind, e.g. v4 pools as v3 pools of the same state), a third graph joins
 * the rounds and a second row compares the added pools with it: what their kind costs beyond the paths they add.
 */
import { type BenchRow, ms, num } from '../lib/benchRows.ts';
import { rng } from '../lib/generateScale.ts';
import { LatencyRecorder } from '../lib/percentiles.ts';
import { bestTradeOfCase, type Case, type Graph, SEARCH_ROUNDS } from '../lib/routingGraphs.ts';
import { HeapTally, shuffled, timedCpu } from '../lib/timing.ts';

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
  /** Collections and allocation over the graph's searches (load-independent). */
  readonly heap: HeapTally;
}

/** The same pools added as another kind (the control), and what the rows call it. */
export interface ControlPools {
  readonly graph: Graph;
  /** e.g. "as v3 pools". */
  readonly label: string;
}

/**
 * Search p50/p99 of the same cases on both graphs (and the control's, when given), rounds alternating between them:
 * one row, and one more against the control.
 */
export function compareAddedPools(
  name: string,
  withAdded: Graph,
  without: Graph,
  cases: readonly Case[],
  added: AddedPools,
  control?: ControlPools,
): BenchRow[] {
  const graphs = control ? [withAdded, without, control.graph] : [withAdded, without];
  // A first pass converts the pools the quotes touch, on both.
  for (const g of graphs) for (const c of cases) bestTradeOfCase(g, c, g.gasPriceWei);
  const rec: Latencies[] = graphs.map(() => ({ wall: new LatencyRecorder(), cpu: new LatencyRecorder(), heap: new HeapTally() }));
  const random = rng(23);
  let using = 0;
  for (let round = 0; round < SEARCH_ROUNDS; round++) {
    for (const [k, g] of graphs.entries()) {
      rec[k].heap.measure(() => {
        for (const c of shuffled(cases, random)) {
          const [outcome, wall, cpu] = timedCpu(() => bestTradeOfCase(g, c, g.gasPriceWei));
          rec[k].wall.add(wall);
          rec[k].cpu.add(cpu);
          if (
            round === 0 &&
            k === 0 &&
            outcome.ok &&
            outcome.trade.splits.some((s) => s.route.legs.some((l) => l.version === added.version))
          )
            using++;
        }
      });
    }
  }
  const [[w50, w99], [o50, o99]] = rec.map((r) => r.wall.percentiles([50, 99]));
  const [[c50, c99], [d50, d99]] = rec.map((r) => r.cpu.percentiles([50, 99]));
  const [h, o, k] = rec.map((r) => heapText(r));
  const pools = `${num(added.count)} ${added.label} pools${added.detail ? ` ${added.detail}` : ''}`;
  const line = `${added.label} ${name}: with ${pools} p50 ${ms(w50)} p99 ${ms(w99)} (CPU ${ms(c50)} / ${ms(c99)}); without p50 ${ms(o50)} p99 ${ms(o99)} (CPU ${ms(d50)} / ${ms(d99)}); p99 ${pct(w99, o99)}, CPU p99 ${pct(c99, d99)}; ${using} of ${cases.length} trades use a ${added.label} pool; with: ${h}; without: ${o}`;
  process.stdout.write(`${line}\n`);
  const row: BenchRow = {
    part: 'routing',
    case: `search per quote with ${added.label} pools vs without, ${name}, defaults, alternating rounds`,
    result: `with ${pools}: p50 ${ms(w50)}, p99 ${ms(w99)} (CPU p50 ${ms(c50)}, p99 ${ms(c99)}; ${h}); without: p50 ${ms(o50)}, p99 ${ms(o99)} (CPU p50 ${ms(d50)}, p99 ${ms(d99)}; ${o}); ${num(rec[0].wall.count)} quotes each; ${using}/${cases.length} best trades use ${added.label}`,
    ratio: `p50 ${pct(w50, o50)}, p99 ${pct(w99, o99)}; CPU p50 ${pct(c50, d50)}, p99 ${pct(c99, d99)}`,
    target: 'p99 <= +10%',
    met: w99 <= o99 * 1.1,
  };
  if (!control) return [row];
  const [[k50, k99], [e50, e99]] = [rec[2].wall.percentiles([50, 99]), rec[2].cpu.percentiles([50, 99])];
  const same = `the same ${num(added.count)} pools ${control.label}`;
  process.stdout.write(
    `${added.label} ${name}: ${same} p50 ${ms(k50)} p99 ${ms(k99)} (CPU ${ms(e50)} / ${ms(e99)}; ${k}); ${added.label} against them: p99 ${pct(w99, k99)}, CPU p50 ${pct(c50, e50)}, CPU p99 ${pct(c99, e99)}\n`,
  );
  return [
    row,
    {
      part: 'routing',
      case: `search per quote with ${added.label} pools vs ${same}, ${name}, same rounds (control: the cost of the kind, not of the paths added)`,
      result: `${same}: p50 ${ms(k50)}, p99 ${ms(k99)} (CPU p50 ${ms(e50)}, p99 ${ms(e99)}; ${k}); ${num(rec[2].wall.count)} quotes`,
      ratio: `p50 ${pct(w50, k50)}, p99 ${pct(w99, k99)}; CPU p50 ${pct(c50, e50)}, p99 ${pct(c99, e99)}`,
      target: '',
      met: null,
    },
  ];
}

/** A graph's collections and allocation per search: load-independent, unlike its wall and CPU times. */
function heapText(r: Latencies | undefined): string {
  if (!r) return '';
  const n = r.wall.count;
  return `${(r.heap.allocatedBytes / n / 1024).toFixed(0)} KiB allocated/search, ${r.heap.gcs} GCs (${r.heap.gcMs.toFixed(1)} ms) in ${num(n)} searches`;
}

/** a against b as a signed percentage. */
function pct(a: number, b: number): string {
  return `${a >= b ? '+' : ''}${((a / b - 1) * 100).toFixed(1)}%`;
}
