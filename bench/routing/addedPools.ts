/**
 * The measure of bench:routing's parts "v4" and "balancer": the route search per quote (as part "search": API
 * defaults, the snapshot's gas price) on a graph with pools of one kind added against the same graph without them,
 * same cases, in one process. With a control (the same pools added as another kind, e.g. v4 pools as v3 pools of the
 * same state), a third graph joins and a second row compares the added pools with it: what their kind costs beyond
 * the paths they add.
 *
 * How (p99 of a few thousand searches pooled over rounds moved by ±20% from run to run on a 2-core VM shared with
 * other jobs): every case is searched on every graph back to back (A B C, then A C B, B A C, ...: every order in
 * turn, so each graph takes each place after each other graph equally often), so load and cache state fall on all alike; a round is one pass over the shuffled cases; the
 * time is the process's CPU time per search (timedCpu: other jobs' turns left out). Per round and graph the mean
 * CPU per search; per block of BLOCK rounds and graph the p99 over cases of each case's median CPU in the block;
 * their ratios between graphs, round by round and block by block; reported: the median of those ratios with their
 * quartiles and extremes, the p99 over cases of each case's median over all rounds, and the pooled wall and CPU
 * p99 as before. Allocation per search is counted in a pass of its own (HeapTally: load-independent). Target: the
 * median of the per-block CPU p99 ratios at most +10%.
 *
 * BENCH_PATHS_KEPT=1: each graph's candidate paths found once per pair and kept (servedTradeOfCase, as the service
 * searches: bestTradesByDeployment's allowKey), not on every search; the trades are the same.
 */
import type { TradeOutcome } from '../../src/routing/bestTrade.ts';
import { type BenchRow, ms, num } from '../lib/benchRows.ts';
import { rng } from '../lib/generateScale.ts';
import { LatencyRecorder } from '../lib/percentiles.ts';
import { bestTradeOfCase, type Case, type Graph, SEARCH_ROUNDS, servedTradeOfCase } from '../lib/routingGraphs.ts';
import { HeapTally, median, shuffled, timedCpu } from '../lib/timing.ts';

/** Rounds of the paired comparison (BENCH_PAIRED_ROUNDS; default the larger of BENCH_ROUTING_ROUNDS and 60). */
const PAIRED_ROUNDS = Number(process.env.BENCH_PAIRED_ROUNDS ?? Math.max(SEARCH_ROUNDS, 60));
/** Rounds per block (BENCH_PAIRED_BLOCK, default 5): a block's p99 is over its cases' median CPU in the block. */
const BLOCK = Number(process.env.BENCH_PAIRED_BLOCK ?? 5);

/** BENCH_PATHS_KEPT=1: candidate paths kept per pair and graph, as the service keeps them (see the header). */
const PATHS_KEPT = process.env.BENCH_PATHS_KEPT === '1';

/** One case's search on a graph: paths found on every search, or kept per pair with BENCH_PATHS_KEPT=1. */
function search(g: Graph, c: Case): TradeOutcome {
  return PATHS_KEPT ? servedTradeOfCase(g, c, g.gasPriceWei) : bestTradeOfCase(g, c, g.gasPriceWei);
}

/** The pools added: what the rows call them ("v4", "Balancer"), how many, and whether a leg's version is one. */
export interface AddedPools {
  readonly label: string;
  readonly count: number;
  /** Said of the count, e.g. "(120 weighted, 12 stable)". */
  readonly detail?: string;
  readonly version: string;
}

/** The same pools added as another kind (the control), and what the rows call it. */
export interface ControlPools {
  readonly graph: Graph;
  /** e.g. "as v3 pools". */
  readonly label: string;
}

/** One graph's times: pooled over all rounds, per round, and per case. */
interface Side {
  readonly wall: LatencyRecorder;
  readonly cpu: LatencyRecorder;
  /** Per round: the CPU milliseconds of each search. */
  readonly rounds: number[][];
  /** Per case (index into the cases): its CPU milliseconds in every round. */
  readonly perCase: number[][];
  /** Collections and allocation over one pass of the cases (load-independent). */
  readonly heap: HeapTally;
}

/** The nearest-rank percentile of a list. */
function percentileOf(values: readonly number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

const sum = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0);

/** Every order of a list's items. */
function permutations(items: readonly number[]): number[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((x, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((p) => [x, ...p]));
}

/** Runs the rounds: every case on every graph back to back, in every order of the graphs in turn. */
function measure(graphs: readonly Graph[], cases: readonly Case[], added: AddedPools): { sides: Side[]; using: number } {
  // A first pass converts the pools the quotes touch, on all; it also counts the trades that use an added pool.
  let using = 0;
  for (const [k, g] of graphs.entries())
    for (const c of cases) {
      const outcome = search(g, c);
      if (k === 0 && outcome.ok && outcome.trade.splits.some((s) => s.route.legs.some((l) => l.version === added.version))) using++;
    }
  const sides: Side[] = graphs.map(() => ({
    wall: new LatencyRecorder(),
    cpu: new LatencyRecorder(),
    rounds: [],
    perCase: cases.map(() => []),
    heap: new HeapTally(),
  }));
  const random = rng(23);
  const order = cases.map((_, i) => i);
  // Every order of the graphs in turn: each graph takes each place, after each other graph, equally often.
  const orders = permutations(graphs.map((_, k) => k));
  let turn = 0;
  for (let round = 0; round < PAIRED_ROUNDS; round++) {
    for (const side of sides) side.rounds.push([]);
    for (const i of shuffled(order, random)) {
      for (const k of orders[turn++ % orders.length]) {
        const g = graphs[k];
        const [, wall, cpu] = timedCpu(() => search(g, cases[i]));
        const side = sides[k];
        side.wall.add(wall);
        side.cpu.add(cpu);
        side.rounds[round].push(cpu);
        side.perCase[i].push(cpu);
      }
    }
  }
  for (const [k, g] of graphs.entries()) sides[k].heap.measure(() => cases.map((c) => search(g, c)));
  return { sides, using };
}

/**
 * Per block of BLOCK rounds, each case's median CPU over the block's rounds (a GC pause or another job's cache
 * traffic landing in one search of a case does not move it): one list of per-case medians per block.
 */
function blockMedians(s: Side): number[][] {
  const blocks: number[][] = [];
  for (let b = 0; (b + 1) * BLOCK <= s.rounds.length; b++) blocks.push(s.perCase.map((t) => median(t.slice(b * BLOCK, (b + 1) * BLOCK))));
  return blocks;
}

/**
 * Ratios of a over b: per round, of the mean CPU per search; per block of rounds, of the p99 over cases of their
 * median CPU in the block (a round's own p99, its 2nd slowest of 120 searches, is mostly where a collection landed).
 */
function roundRatios(a: Side, b: Side): { mean: number[]; p99: number[] } {
  const mean = a.rounds.map((r, i) => sum(r) / sum(b.rounds[i]));
  const bb = blockMedians(b);
  const p99 = blockMedians(a).map((m, i) => percentileOf(m, 99) / percentileOf(bb[i], 99));
  return { mean, p99 };
}

/** A list of ratios as "median +x% [p25 +y%, p75 +z%] (min .. max)". */
function spread(ratios: readonly number[]): string {
  const q = (p: number) => signed(percentileOf(ratios, p));
  return `${signed(median(ratios))} [quartiles ${q(25)}, ${q(75)}; range ${q(0)} .. ${q(100)}]`;
}

/** A ratio as a signed percentage. */
function signed(ratio: number): string {
  return `${ratio >= 1 ? '+' : ''}${((ratio - 1) * 100).toFixed(1)}%`;
}

/** a against b as a signed percentage. */
function pct(a: number, b: number): string {
  return signed(a / b);
}

/** The p99 over cases of each case's median CPU across rounds: the tail with the rounds' noise left out. */
function caseMedianP99(s: Side): number {
  return percentileOf(
    s.perCase.map((t) => median(t)),
    99,
  );
}

/** A graph's collections and allocation per search: load-independent, unlike its wall and CPU times. */
function heapText(s: Side, searches: number): string {
  return `${(s.heap.allocatedBytes / searches / 1024).toFixed(0)} KiB allocated/search, ${s.heap.gcs} GCs (${s.heap.gcMs.toFixed(1)} ms) in ${num(searches)} searches`;
}

/** One graph's pooled figures. */
function sideText(s: Side, searches: number): string {
  const [w50, w99] = s.wall.percentiles([50, 99]);
  const [c50, c99] = s.cpu.percentiles([50, 99]);
  return `p50 ${ms(w50)}, p99 ${ms(w99)} (CPU p50 ${ms(c50)}, p99 ${ms(c99)}; per-case median CPU p99 ${ms(caseMedianP99(s))}; ${heapText(s, searches)})`;
}

/** The comparison of side a with side b: per-round medians first (the figure the target reads), then pooled. */
function comparison(a: Side, b: Side): { text: string; met: boolean } {
  const r = roundRatios(a, b);
  const pooled = `pooled p99 ${pct(a.wall.percentile(99), b.wall.percentile(99))}, pooled CPU p99 ${pct(a.cpu.percentile(99), b.cpu.percentile(99))}`;
  const text = `per-block CPU p99 ${spread(r.p99)} over ${r.p99.length} blocks of ${BLOCK} rounds; per-round mean CPU ${spread(r.mean)}; per-case median CPU p99 ${pct(caseMedianP99(a), caseMedianP99(b))}; ${pooled}`;
  return { text, met: median(r.p99) <= 1.1 };
}

const TARGET = 'median per-block CPU p99 <= +10%';

/**
 * The same cases on both graphs (and the control's, when given), searched back to back: one row, and one more
 * against the control.
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
  const { sides, using } = measure(graphs, cases, added);
  const pools = `${num(added.count)} ${added.label} pools${added.detail ? ` ${added.detail}` : ''}`;
  const n = cases.length;
  const vsWithout = comparison(sides[0], sides[1]);
  const how = `${PAIRED_ROUNDS} rounds of ${n} cases, each case on every graph back to back${PATHS_KEPT ? ', candidate paths kept per pair (as the service searches)' : ''}`;
  process.stdout.write(
    `${added.label} ${name}: with ${pools}: ${sideText(sides[0], n)}; without: ${sideText(sides[1], n)}; with against without: ${vsWithout.text}; ${using} of ${n} trades use a ${added.label} pool\n`,
  );
  const rows: BenchRow[] = [
    {
      part: 'routing',
      case: `search per quote with ${added.label} pools vs without, ${name}, defaults, ${how}`,
      result: `with ${pools}: ${sideText(sides[0], n)}; without: ${sideText(sides[1], n)}; ${using}/${n} best trades use ${added.label}`,
      ratio: vsWithout.text,
      target: TARGET,
      met: vsWithout.met,
    },
  ];
  if (!control) return rows;
  const same = `the same ${num(added.count)} pools ${control.label}`;
  const vsControl = comparison(sides[0], sides[2]);
  process.stdout.write(`${added.label} ${name}: ${same}: ${sideText(sides[2], n)}; ${added.label} against them: ${vsControl.text}\n`);
  rows.push({
    part: 'routing',
    case: `search per quote with ${added.label} pools vs ${same}, ${name}, same rounds (control: the cost of the kind, not of the paths added)`,
    result: `${same}: ${sideText(sides[2], n)}`,
    ratio: vsControl.text,
    target: TARGET,
    met: vsControl.met,
  });
  return rows;
}
