import { type Candidate, type ExecutablePaths, otherCandidate } from './candidates.ts';
import { fixedAmountCurve } from './optimalSplit.ts';
import { type LadderCache, type PathQuote, pricePath } from './priceRoutes.ts';
import { buildCurve, type CurveCache, type Curves, FLOAT_MARGIN, leastSingleFee, pendingScoreBound, scoreBound } from './searchCurves.ts';
import { gasCost, type Search, score } from './searchGas.ts';
import type { PricedSplit, RateOrder } from './splitContext.ts';
import type { OutputBound } from './stagedRoutes.ts';

/*
 * The best single path of a search (bestTrade.ts): its steered paths priced best bound first, and the paths beyond
 * them by their rate at zero, each priced only where it may beat the best so far and the split search's trade.
 */

/**
 * What one request's searches (same index, side, amount, gas price and fee rate: the same bound, quote and score of a
 * path) learnt of a single path for the whole amount, by Candidate.key: its float bound (scoreBound), its exact quote
 * and, where it went through, its score.
 */
export type SingleCache = Map<string, { bound?: number; quote?: PathQuote; score?: bigint }>;

/** What the single-path search reads of its search's options (BestTradeOptions, bestTrade.ts). */
interface SharedCaches {
  readonly singles?: SingleCache;
  readonly records?: boolean;
  readonly curves?: CurveCache;
  /** BestTradeOptions.boundBeforeCurves: false, a path beyond the steered ones gets its curve before its depth bound. */
  readonly boundBeforeCurves?: boolean;
}

/** With more candidates than this, the single-path search prices exactly only those whose float bound can still win. */
const PRUNE_FROM = 2;
/** SinglePath.levels of a path not bounded yet. */
const UNBOUNDED = 255;

/**
 * The single-path search before any path is priced: with curves and more than PRUNE_FROM paths, each path's bound of
 * its score alone is taken when first asked (boundOf: by the split search's first round, or bestSinglePath), so a
 * path that neither reaches is never bounded. A path without its curve yet is bounded from its OutputBound (level 0);
 * bestSinglePath tightens a bound, for exact input from its pools' depth at the amount (level 1), then from its curve
 * (its scoreBound, level 2), only while it may still win.
 */
export function singleBounds(
  candidates: readonly Candidate[],
  curves: Curves | undefined,
  byRate: RateOrder,
  { singles, records }: SharedCaches,
): SinglePath {
  const whole: PathQuote[] = new Array(candidates.length);
  const single: SinglePath = {
    best: undefined,
    bestAt: -1,
    whole,
    byRate,
    singles,
    records: records === true && singles !== undefined,
  };
  if (curves && candidates.length > PRUNE_FROM) startBounds(candidates.length, single);
  return single;
}

/** Makes room for the paths' bounds (SinglePath.bounds, levels, fees), none taken yet. */
function startBounds(paths: number, single: SinglePath): void {
  single.bounds = new Array(paths);
  single.fees = new Array(paths);
  single.levels = new Uint8Array(paths).fill(UNBOUNDED);
}

/**
 * Path i's bound of its score alone (SinglePath.bounds), taken on first ask: the request's singles' where an earlier
 * search recorded it, its curve's where it has one (level 2), else its OutputBound's with its least fee (level 0).
 */
export function boundOf(search: Search, candidates: readonly Candidate[], curves: Curves, single: SinglePath, i: number): number {
  const bounds = single.bounds!;
  const levels = single.levels!;
  if (levels[i] !== UNBOUNDED) return bounds[i];
  const c = candidates[i];
  levels[i] = 2;
  const known = single.singles?.get(c.key);
  if (known?.bound !== undefined) bounds[i] = known.bound;
  else {
    const pending = curves.pending[i];
    if (!pending) bounds[i] = recordBound(single, c, scoreBound(search, c, curves.all[i]));
    else {
      levels[i] = 0;
      single.fees![i] = leastSingleFee(search, c);
      bounds[i] = pendingScoreBound(search, c, pending, single.fees![i], false);
    }
  }
  return bounds[i];
}

/**
 * A number never below any bound boundOf and bestSinglePath give a path whose rate at zero has ceiling `ceiling`
 * (rateCeiling): its value at that rate for the whole amount (`fixed`, as a number), with their margins (FLOAT_MARGIN on top of the output
 * bound's slack, which the ceiling carries) and no fee taken off. Paths in rate order have descending ceilings.
 */
function scoreCeiling(search: Search, fixed: number, ceiling: number): number {
  return search.request.tradeType === 'exactIn'
    ? (fixed * ceiling * (1 + FLOAT_MARGIN) + 1) * (1 + FLOAT_MARGIN)
    : -(fixed / ceiling) * (1 - FLOAT_MARGIN) * (1 - FLOAT_MARGIN) + 1;
}

/**
 * What a path's score must reach to be priced: the best single path's so far and `floor` (the split's score as a
 * float: a single path is chosen over the split only when its score is at least the split's), whichever is higher;
 * undefined when neither is known.
 */
function leastToPrice(single: SinglePath, floor: number | undefined): number | undefined {
  if (single.best === undefined) return floor;
  const best = Number(single.best.score);
  return floor === undefined || best > floor ? best : floor;
}

/**
 * The best single path for the whole amount, net of its network fee (ties: the earlier path, as findRoutes orders
 * them), and each path's quote of the whole amount where it was priced, after the split search (whose score is
 * `floor`). With bounds (singleBounds; a few paths are bounded here only against a split), paths are priced exactly in
 * the order of their tightest bounds, and a path whose bound is below the best exact score so far, or below the
 * split's, is not priced: it cannot be chosen. Paths are bounded in rate order (SinglePath.byRate), each only once its
 * ceiling (scoreCeiling) is above every bound waiting, and not at all once it is below what a path must reach. When no
 * path carries the amount and there is no split, every path is priced (the refusal code reads them all).
 */
export function bestSinglePath(
  search: Search,
  candidates: readonly Candidate[],
  curves: Curves | undefined,
  cache: LadderCache | undefined,
  single: SinglePath,
  floor: number | undefined,
  { curves: curveCache }: SharedCaches,
): void {
  const { whole } = single;
  if (curves && !single.bounds && floor !== undefined) startBounds(candidates.length, single);
  const { bounds, levels, fees } = single;
  if (!curves || !bounds || !levels || !fees) {
    for (let i = 0; i < candidates.length; i++) priceSingle(search, candidates, i, cache, single);
    return;
  }
  const deep = search.request.tradeType === 'exactIn' ? 1 : 2;
  const { order, ceilings } = single.byRate;
  // The fixed amount as a number, converted once (each path's ceiling reads it).
  const fixed = Number(search.request.amount);
  // Best first: a path bounded (or its bound tightened) here waits in `refined` (ascending bound) until no path's bound
  // is above its own, nor the ceiling of the next path in rate order (never below that path's bounds), so paths are
  // priced in the order of their bounds, and a path is bounded more dearly (its curve built) only while its bound so
  // far is not below the least it must reach (every bound left is at most the one visited).
  const refined: number[] = [];
  let next = 0;
  for (;;) {
    const least = leastToPrice(single, floor);
    const top = refined.length > 0 ? refined[refined.length - 1] : -1;
    if (next < order.length) {
      const ceiling = scoreCeiling(search, fixed, ceilings[order[next]]);
      // No path after it in rate order can reach the least either.
      if (least !== undefined && ceiling < least) next = order.length;
      else if (top < 0 || ceiling > bounds[top]) {
        const i = order[next++];
        const bound = boundOf(search, candidates, curves, single, i);
        if (bound !== Number.NEGATIVE_INFINITY && (least === undefined || !(bound < least))) wait(refined, bounds, i);
        continue;
      }
    }
    if (top < 0) break;
    const i = refined.pop()!;
    if (bounds[i] === Number.NEGATIVE_INFINITY || (least !== undefined && bounds[i] < least)) break;
    if (levels[i] < 2) {
      const c = candidates[i];
      // (The split search may have built its curve since it was bounded.)
      const pending = curves.pending[i];
      let tighter: number;
      if (pending && levels[i] < deep) tighter = depthTightened(search, c, i, pending, single);
      else {
        const curve = pending ? buildCurve(search, candidates, i, curves, curveCache) : curves.all[i];
        tighter = scoreBound(search, c, curve, fees[i]);
        if (!c.stages) recordBound(single, c, tighter);
        levels[i] = 2;
      }
      bounds[i] = tighter;
      if (tighter === Number.NEGATIVE_INFINITY || (least !== undefined && tighter < least)) continue;
      wait(refined, bounds, i);
      continue;
    }
    priceSingle(search, candidates, i, cache, single);
  }
  if (!single.best && floor === undefined)
    for (let i = 0; i < candidates.length; i++) if (!whole[i]) priceSingle(search, candidates, i, cache, single);
}

/** Puts path i in `refined` (ascending bound; after those of an equal bound). */
function wait(refined: number[], bounds: readonly number[], i: number): void {
  let at = refined.length;
  while (at > 0 && bounds[refined[at - 1]] > bounds[i]) at--;
  refined.splice(at, 0, i);
}

/**
 * Path i's bound tightened without building its curve (pendingScoreBound, deep), set in `single` and returned: for
 * exact input from its pools' depth at the amount (level 1; its curve's bound is never above it); for exact output,
 * which has no such bound, its output bound stands for its curve's (level 2).
 */
export function depthTightened(search: Search, c: Candidate, i: number, pending: OutputBound, single: SinglePath): number {
  const deep = search.request.tradeType === 'exactIn' ? 1 : 2;
  const tighter = pendingScoreBound(search, c, pending, single.fees![i], true);
  single.bounds![i] = tighter;
  single.levels![i] = deep;
  return tighter;
}

/** A path's scoreBound, added to the request's singles where this search records them; returned. */
export function recordBound(single: SinglePath, c: Candidate, bound: number): number {
  if (single.records && c.deployment !== undefined) {
    const known = single.singles!.get(c.key);
    if (known) known.bound = bound;
    else single.singles!.set(c.key, { bound });
  }
  return bound;
}

/**
 * Prices candidate i for the whole amount into `single` (its quote, and the best so far: ties to the earlier path).
 * A module-level function: no closure made per search.
 */
function priceSingle(
  search: Search,
  candidates: readonly Candidate[],
  i: number,
  cache: LadderCache | undefined,
  single: SinglePath,
): void {
  const { request } = search;
  const priced = pricedWhole(search, candidates[i], cache, single);
  const q = priced.quote;
  single.whole[i] = q;
  if (!q.ok || priced.score === undefined) return;
  const s = priced.score;
  if (!single.best || s > single.best.score || (s === single.best.score && i < single.bestAt)) {
    single.best = { members: [candidates[i]], shares: [request.amount], quotes: [q], score: s };
    single.bestAt = i;
  }
}

/**
 * A path priced exactly for the whole amount and, where it goes through, scored; known to the search's singles when an
 * earlier search of the request priced it (added there by a search that records, for a path kept to one deployment).
 */
function pricedWhole(
  search: Search,
  c: Candidate,
  cache: LadderCache | undefined,
  { singles, records }: SinglePath,
): { readonly quote: PathQuote; readonly score?: bigint } {
  const known = singles?.get(c.key);
  if (known?.quote) return known as { quote: PathQuote; score?: bigint };
  const { tradeType, amount } = search.request;
  const quote = pricePath(c.path, tradeType, [amount], cache)[0];
  const scored = quote.ok ? score(search, [c], [quote]) : undefined;
  if (records && c.deployment !== undefined) {
    if (known) {
      known.quote = quote;
      known.score = scored;
    } else singles!.set(c.key, { quote, score: scored });
  }
  return { quote, score: scored };
}

/** The best single path found so far, where it stands in findRoutes' order (ties: the earlier), the steered paths' quotes. */
export interface SinglePath {
  best: PricedSplit<Candidate> | undefined;
  bestAt: number;
  whole: PathQuote[];
  /**
   * Each steered path's bound of its score alone (scoreBound; a path of stages without its curve: pendingScoreBound),
   * where the search bounds them (with curves, more than PRUNE_FROM paths), as far as it took them (boundOf).
   */
  bounds?: number[];
  /** Each path's leastSingleFee where its bound was taken before its curve (pendingScoreBound). */
  fees?: number[];
  /**
   * How far each path's bound was tightened: 0 its output bound, 1 its pools' depth, 2 its curve (or it had one);
   * UNBOUNDED before its first bound.
   */
  levels?: Uint8Array;
  /** The steered paths in rate order (ExecutablePaths.byRate): the order in which bestSinglePath bounds them. */
  readonly byRate: RateOrder;
  /** What the request's earlier searches learnt of single paths (BestTradeOptions.singles), and whether this one adds to it. */
  readonly singles: SingleCache | undefined;
  readonly records: boolean;
}

/**
 * The paths findRoutes found beyond the steered ones (ExecutablePaths.others), against the best single path of the
 * steered ones (updated in place): in descending order of their rate at zero, a path is priced only where its output
 * can beat that best. Bounds, cheapest first: the amount at its rate at zero (pathRateAtZero: no curve is built) less
 * the least network fee of any of them, which ends the walk; the same with a floor of its own swaps' fee
 * (leastRouteGas), then with its nominal legs' fee and its router's call (its candidate built only now); for exact
 * input its pools' depth at the amount (pendingScoreBound); its curve's bound (scoreBound). So no path that could give
 * more than the best is left out, and a path that cannot costs a few floats.
 */
export function bestOtherPath(
  search: Search,
  found: ExecutablePaths,
  single: SinglePath,
  steered: number,
  { curves: curveCache, boundBeforeCurves }: SharedCaches,
  cache: LadderCache | undefined,
  floor: number | undefined,
): void {
  const depthFirst = boundBeforeCurves !== false && search.request.tradeType === 'exactIn';
  const { tradeType, amount } = search.request;
  const fixed = Number(amount);
  /** An upper bound of the score of a path of rate `rate` at zero, net of `gas`. */
  const rateBound = (rate: number, gas: bigint): number => {
    const gross =
      tradeType === 'exactIn'
        ? fixed * rate * (1 + FLOAT_MARGIN) + 1
        : rate > 0
          ? -((fixed / rate) * (1 - FLOAT_MARGIN)) + 1
          : Number.NEGATIVE_INFINITY;
    return gross - Number(gasCost(search, gas));
  };
  const leastFee = Number(gasCost(search, found.othersFloorGas));
  for (const other of found.others) {
    const toBeat = leastToPrice(single, floor);
    if (toBeat !== undefined && rateBound(other.rate, 0n) - leastFee < toBeat) break;
    if (toBeat !== undefined && rateBound(other.rate, other.leastGas) < toBeat) continue;
    const c = otherCandidate(search.index, other, search.request);
    if (!c) continue;
    // Its least fee (leastSingleFee, kept with the candidate: its floorGas and its router's call), and before its curve
    // is built, for exact input, its bound from its pools' depth (pendingScoreBound: never below its curve's).
    const fee = leastSingleFee(search, c);
    if (toBeat !== undefined && rateBound(other.rate, 0n) - fee < toBeat) continue;
    let curve = curveCache?.get(c.key);
    if (!curve) {
      if (toBeat !== undefined && depthFirst && pendingScoreBound(search, c, c.bound, fee, true) < toBeat) continue;
      curve = fixedAmountCurve(c.path, tradeType, amount);
      curveCache?.set(c.key, curve);
    }
    const bound = scoreBound(search, c, curve, fee);
    if (bound === Number.NEGATIVE_INFINITY || (toBeat !== undefined && bound < toBeat)) continue;
    const { quote: q, score: s } = pricedWhole(search, c, cache, single);
    if (!q.ok || s === undefined) continue;
    const at = steered + other.order;
    if (!single.best || s > single.best.score || (s === single.best.score && at < single.bestAt)) {
      single.best = { members: [c], shares: [amount], quotes: [q], score: s };
      single.bestAt = at;
    }
  }
}
