import type { RefusalCode } from '../errors/RefusalCode.ts';
import type { ChainPoolIndex } from '../graph/PricingGraph.ts';
import { type Candidate, type ExecutablePaths, executablePaths, otherCandidate } from './candidates.ts';
import { exactTrade } from './exactTrade.ts';
import { fixedAmountCurve, optimalSplit } from './optimalSplit.ts';
import { type LadderCache, type PathQuote, pricePath } from './priceRoutes.ts';
import {
  buildCurve,
  type CurveCache,
  type Curves,
  candidateCurves,
  FLOAT_MARGIN,
  kept,
  pendingScoreBound,
  type StagedFloors,
  scoreBound,
  stagedFloor,
} from './searchCurves.ts';
import { assignExecutors, callsGas, gasCost, routeCallGas, type Search, score, type TradeRequest } from './searchGas.ts';
import type { OkQuote, SolveCache } from './splitContext.ts';
import { mayAdd } from './stagedRoutes.ts';
import type { Executor, Leg, Trade } from './Trade.ts';
import { tradeEnds } from './tradeEnds.ts';
import { gasRate } from './tradeMetrics.ts';
import { wrapTrade } from './wrapTrade.ts';

export interface BestTradeOptions {
  /**
   * Most paths the split search steers over (findRoutes' first, DEFAULT_MAX_ROUTES by default). The best single path
   * is still sought over every path findRoutes finds: the others are priced only where a bound on their output says
   * they can beat the best priced so far (bestSinglePath).
   */
  readonly maxRoutes?: number;
  /**
   * Ladders priced by earlier searches on the same index and side (bestTradesByDeployment shares one between the
   * search over all deployments and those kept to one): a path priced there at the same amounts is not priced again.
   */
  readonly ladders?: LadderCache;
  /**
   * Path curves built by earlier searches for the same request (same side and fixed amount), by the path's pools and
   * directions (Candidate.key): bestTradesByDeployment shares one between its searches.
   */
  readonly curves?: CurveCache;
  /** Split sets solved in floating point by earlier searches for the same request (optimalSplit's SplitContext.solves). */
  readonly solves?: SolveCache;
  /** Single paths bounded and priced for the whole amount by earlier searches for the same request, by Candidate.key. */
  readonly singles?: SingleCache;
  /**
   * Whether this search adds to `solves` and `singles` (the first of the request's searches, over all deployments:
   * what it learns of the paths and sets kept to one deployment, the only ones the later searches can meet), or only
   * reads them.
   */
  readonly records?: boolean;
  /**
   * Whether the split search's first round (each path alone) skips a path whose single-path bound cannot beat the best
   * set of one so far (default true; false: every path is solved alone, the search the bound must not change).
   */
  readonly firstRoundBound?: boolean;
}

/**
 * What one request's searches (same index, side, amount, gas price and fee rate: the same bound, quote and score of a
 * path) learnt of a single path for the whole amount, by Candidate.key: its float bound (scoreBound), its exact quote
 * and, where it went through, its score.
 */
export type SingleCache = Map<string, { bound?: number; quote?: PathQuote; score?: bigint }>;

/**
 * The best trade, or why none was found (NO_EXACT_OUTPUT_ROUTE: see src/routing/executors.ts, one protocol per path,
 * v2 through the DEX's Router02).
 */
export type TradeOutcome = { readonly ok: true; readonly trade: Trade } | { readonly ok: false; readonly code: RefusalCode };

/**
 * The best executable trade for a request over a chain's pools. The native asset is an end of the trade: routes are
 * searched between the tokens the pools hold (its wrapped token, tradeEnds), and native ↔ wrapped alone is the bare
 * wrap or unwrap (wrapTrade). Where an executor of the chain meets native ETH pools (executors.ts
 * meetsNativePools), those pools join the wrapped token's node (findRoutes' nativeNode): a native end may start or
 * end at them without wrapping, and a path may cross between ETH and WETH pools; each such path is a candidate beside
 * the wrapped ones, priced and ranked exactly the same way, and splits may mix them. Otherwise: candidate paths up to maxHops (findRoutes), each priced exactly at the whole
 * amount (the best single path), and with splits the optimum over up to maxSplits pool-disjoint paths by marginal-rate
 * equalisation (optimalSplit.ts: floats steer, every returned amount is priced exactly); the better of the two.
 * Ranked by output minus the network fee in tokenOut (exactIn), or input plus the network fee in tokenIn
 * (exactOut). Pure: same state and request, same trade.
 */
export function bestTrade(index: ChainPoolIndex, request: TradeRequest, options: BestTradeOptions = {}): TradeOutcome {
  const ends = tradeEnds(index.wrappedNative, request.tokenIn, request.tokenOut);
  if (ends.bareWrap) return { ok: true, trade: wrapTrade({ ...request, nativeIn: ends.nativeIn }) };
  const found =
    request.allowKey === undefined
      ? executablePaths(index, ends, request, options.maxRoutes)
      : index.pairMemo(
          `paths:${ends.poolTokenIn}:${ends.poolTokenOut}:${ends.nativeIn}:${ends.nativeOut}:${request.maxHops}:${request.tradeType}:${options.maxRoutes ?? ''}:${request.handoverSlippageBps ?? ''}:${request.allowKey}`,
          () => executablePaths(index, ends, request, options.maxRoutes),
        );
  if (found.paths.length === 0 && found.others.length === 0)
    return { ok: false, code: found.pathsFound && request.tradeType === 'exactOut' ? 'NO_EXACT_OUTPUT_ROUTE' : 'NO_ROUTE' };
  const rate = gasRate(index, request.tradeType === 'exactIn' ? request.tokenOut : request.tokenIn);
  const search: Search = {
    index,
    request,
    rate: rate ?? undefined,
    feeNum: rate && request.gasPriceWei > 0n ? request.gasPriceWei * rate.num : undefined,
    ends,
    nativeIn: ends.nativeIn === 'wrapped',
    nativeOut: ends.nativeOut === 'wrapped',
    approvalReset: index.token(request.tokenIn)?.approvalReset === true,
  };
  const candidates = found.paths;
  // One-hop paths share no pool prefix: nothing for the ladder cache to share.
  const cache: LadderCache | undefined = options.ladders ?? (request.maxHops > 1 ? new Map() : undefined);
  // Curves steer the split search; without splits they are built only where pruning saves more exact walks than they cost.
  const curves =
    request.maxSplits > 1 || candidates.length > PRUNE_SINGLE_FROM ? candidateCurves(search, candidates, options.curves) : undefined;
  // The single paths' bounds first; they are priced after the split search, only where they may beat its split.
  const single = singleBounds(candidates, search, curves, options);
  const built = curves?.all;
  let split: PricedSingle | undefined;
  if (request.maxSplits > 1 && candidates.length > 0) {
    const floors: StagedFloors = { own: [], set: undefined, fee: 0 };
    const feeOfGas = new Map<number, number>();
    split = optimalSplit(
      {
        tradeType: request.tradeType,
        amount: request.amount,
        maxSplits: request.maxSplits,
        ranksFees: search.rate !== undefined && request.gasPriceWei > 0n,
        singlesKnown: true,
        ...(options.solves ? { solves: { tree: options.solves, record: options.records === true } } : {}),
        score(members, quotes) {
          return score(search, members, quotes);
        },
        admit(j, set, toBeat) {
          // A path of stages gets its curve only where its output bound says it may be chosen (stagedRoutes.ts mayAdd).
          const pending = curves?.pending[j];
          if (!pending) {
            // The first round (each path alone): a path whose single-path bound (scoreBound: its float value for the
            // whole amount with FLOAT_MARGIN to spare, less the least fee its route can cost, which its set of one's
            // fee estimate never is below) cannot exceed the best set of one so far would not be chosen: not solved.
            const bound =
              set === undefined && toBeat !== undefined && !candidates[j].stages && options.firstRoundBound !== false
                ? single.bounds?.[j]
                : undefined;
            return !(bound !== undefined && bound <= toBeat!);
          }
          if (toBeat !== undefined) {
            const fees = search.rate !== undefined && request.gasPriceWei > 0n;
            const fixed = Number(request.amount);
            if (
              !mayAdd(
                pending,
                set,
                toBeat,
                request.tradeType,
                fixed,
                fees ? () => stagedFloor(search, this, candidates, floors, set, j) : undefined,
              )
            )
              return false;
          }
          buildCurve(search, candidates, j, curves!, options.curves);
          return true;
        },
        feeEstimate(members, ticks) {
          if (!search.rate || request.gasPriceWei <= 0n) return 0;
          // The nominal legs' gas with `ticks` crossed (routeGas is linear in a leg's ticks), and the calls' (a path
          // of stages: its stages' steps, stagesGas, its nominal legs' gas included).
          // Gas units summed as numbers (integers far below 2^53, so exact), one BigInt for the fee: this runs for
          // every set the split search weighs, and each BigInt addition is a heap allocation.
          const executors = assignExecutors(members);
          let gas = 0;
          const calls = feeCalls;
          calls.length = 0;
          for (let i = 0; i < members.length; i++) {
            const m = members[i];
            if (m.stages) gas += Number(kept(search, m, 'stages'));
            else {
              gas += Number(m.nominalGas);
              calls.push({ executor: executors[i], legs: m.nominal });
            }
            if (ticks[i] > 0) gas += ticks[i] * Number(m.tickGas);
          }
          gas += Number(callsGas(search, calls));
          calls.length = 0;
          if (!Number.isSafeInteger(gas)) throw new Error(`feeEstimate: ${gas} gas is not an exact integer`);
          // The sets weighed share few gas totals: each is converted (two BigInt products) once per search.
          let fee = feeOfGas.get(gas);
          if (fee === undefined) {
            fee = Number(gasCost(search, BigInt(gas)));
            feeOfGas.set(gas, fee);
          }
          return fee;
        },
      },
      candidates,
      built,
    );
  }
  // A single path is chosen over the split when its score is at least the split's (below), so one whose bound is
  // below the split's score cannot be chosen: it is not priced (the single paths' search after the split's).
  const floor = split === undefined ? undefined : Number(split.score);
  bestSinglePath(search, candidates, curves, cache, single, floor, options);
  if (found.others.length > 0) bestOtherPath(search, found, single, candidates.length, options, cache, floor);
  let best: PricedSingle | undefined = single.best;
  if (split && (!best || split.score > best.score)) best = split;
  if (!best) return { ok: false, code: refusalCode(single.whole) };
  return { ok: true, trade: exactTrade(search, best.members, best.shares, best.quotes) };
}

/**
 * The executor calls a fee estimate hands to callsGas, one list reused by every estimate (the search is synchronous and
 * callsGas keeps nothing): the split search estimates the fee of every set it weighs.
 */
const feeCalls: { executor: Executor; legs: readonly Leg[] }[] = [];

/** With more candidates than this, the single-path search prices exactly only those whose float bound can still win. */
const PRUNE_FROM = 2;
/** Without splits, curves are built for that pruning only with more candidates than this (a few direct pools price faster than their curves build). */
const PRUNE_SINGLE_FROM = 8;

/**
 * The single-path search before any path is priced: with curves and more than PRUNE_FROM paths, each path's float
 * bound of its score alone (scoreBound; a path of stages without its curve: pendingScoreBound), which the split
 * search's first round reads too.
 */
function singleBounds(
  candidates: readonly Candidate[],
  search: Search,
  curves: Curves | undefined,
  { singles, records }: BestTradeOptions,
): SinglePath {
  const whole: PathQuote[] = new Array(candidates.length);
  const single: SinglePath = { best: undefined, bestAt: -1, whole, singles, records: records === true && singles !== undefined };
  if (curves && candidates.length > PRUNE_FROM) single.bounds = boundsOf(search, candidates, curves, single);
  return single;
}

/** Each path's bound of its score alone (SinglePath.bounds), from the request's singles where known. */
function boundsOf(search: Search, candidates: readonly Candidate[], curves: Curves, { singles, records }: SinglePath): number[] {
  // A path of stages without its curve yet: bounded from its OutputBound first, its curve built only if that may win.
  return candidates.map((c, i) => {
    const pending = curves.pending[i];
    if (pending) return pendingScoreBound(search, c, pending);
    const known = singles?.get(c.key);
    if (known?.bound !== undefined) return known.bound;
    const bound = scoreBound(search, c, curves.all[i]);
    if (records && c.deployment !== undefined) singles!.set(c.key, { bound });
    return bound;
  });
}

/**
 * What a path's score must reach to be priced: the best single path's so far and `floor` (the split's score, which
 * a single path must exceed to be chosen, as a float), whichever is higher; undefined when neither is known.
 */
function leastToPrice(single: SinglePath, floor: number | undefined): number | undefined {
  if (single.best === undefined) return floor;
  const best = Number(single.best.score);
  return floor === undefined || best > floor ? best : floor;
}

/**
 * The best single path for the whole amount, net of its network fee (ties: the earlier path, as findRoutes orders
 * them), and each path's quote of the whole amount where it was priced. With bounds (singleBounds), paths are priced
 * exactly in the order of their bound, and a path whose bound is below the best exact score so far, or below
 * `floor` (the split's), is not priced: it cannot win. When no path carries the amount and there is no split, every
 * path is priced (the refusal code reads them all).
 */
function bestSinglePath(
  search: Search,
  candidates: readonly Candidate[],
  curves: Curves | undefined,
  cache: LadderCache | undefined,
  single: SinglePath,
  floor: number | undefined,
  { curves: curveCache }: BestTradeOptions,
): void {
  const { whole } = single;
  // A few paths are bounded only against a split (the split search never read these bounds).
  const bounds = single.bounds ?? (curves && floor !== undefined ? boundsOf(search, candidates, curves, single) : undefined);
  if (!curves || !bounds) {
    for (let i = 0; i < candidates.length; i++) priceSingle(search, candidates, i, cache, single);
    return;
  }
  const order = candidates.map((_c, i) => i).sort((a, b) => bounds[b] - bounds[a] || a - b);
  for (const i of order) {
    const least = leastToPrice(single, floor);
    if (least !== undefined && bounds[i] < least) break;

    if (bounds[i] === Number.NEGATIVE_INFINITY) break;
    if (curves.pending[i]) {
      const bound = scoreBound(search, candidates[i], buildCurve(search, candidates, i, curves, curveCache));
      if (bound === Number.NEGATIVE_INFINITY || (least !== undefined && bound < least)) continue;
    }
    priceSingle(search, candidates, i, cache, single);
  }
  if (!single.best && floor === undefined)
    for (let i = 0; i < candidates.length; i++) if (!whole[i]) priceSingle(search, candidates, i, cache, single);
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

/** A single path priced for the whole amount, scored. */
type PricedSingle = { members: readonly Candidate[]; shares: readonly bigint[]; quotes: readonly OkQuote[]; score: bigint };

/** The best single path found so far, where it stands in findRoutes' order (ties: the earlier), the steered paths' quotes. */
interface SinglePath {
  best: PricedSingle | undefined;
  bestAt: number;
  whole: PathQuote[];
  /**
   * Each steered path's bound of its score alone (scoreBound; a path of stages without its curve: pendingScoreBound),
   * where the search bounded them (with curves, more than PRUNE_FROM paths).
   */
  bounds?: readonly number[];
  /** What the request's earlier searches learnt of single paths (BestTradeOptions.singles), and whether this one adds to it. */
  readonly singles: SingleCache | undefined;
  readonly records: boolean;
}

/**
 * The paths findRoutes found beyond the steered ones (ExecutablePaths.others), against the best single path of the
 * steered ones (updated in place): in descending order of their rate at zero, a path is priced only where its output
 * can beat that best. Bounds, cheapest first: the amount at its rate at zero (pathRateAtZero: no curve is built) less
 * the least network fee of any of them, which ends the walk; the same with a floor of its own swaps' fee
 * (leastRouteGas), then with its nominal legs' fee and its router's call (built only now); its curve's bound
 * (scoreBound). So no path that could give more than the best is left out, and a path that cannot costs a few floats.
 */
function bestOtherPath(
  search: Search,
  found: ExecutablePaths,
  single: SinglePath,
  steered: number,
  { curves: curveCache }: BestTradeOptions,
  cache: LadderCache | undefined,
  floor: number | undefined,
): void {
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
    const least = leastToPrice(single, floor);
    if (least !== undefined && rateBound(other.rate, 0n) - leastFee < least) break;
    if (least !== undefined && rateBound(other.rate, other.leastGas) < least) continue;
    const c = otherCandidate(search.index, other, search.request);
    if (!c) continue;
    if (least !== undefined && rateBound(other.rate, c.floorGas + routeCallGas(search, c.executors[0], c.nominal)) < least) continue;
    let curve = curveCache?.get(c.key);
    if (!curve) {
      curve = fixedAmountCurve(c.path, tradeType, amount);
      curveCache?.set(c.key, curve);
    }
    const bound = scoreBound(search, c, curve);
    if (bound === Number.NEGATIVE_INFINITY || (least !== undefined && bound < least)) continue;
    const { quote: q, score: s } = pricedWhole(search, c, cache, single);
    if (!q.ok || s === undefined) continue;
    const at = steered + other.order;
    if (!single.best || s > single.best.score || (s === single.best.score && at < single.bestAt)) {
      single.best = { members: [c], shares: [amount], quotes: [q], score: s };
      single.bestAt = at;
    }
  }
}

/**
 * Refusal code of a search that found paths but no trade, from the paths' refusals of the whole amount:
 * AMOUNT_TOO_SMALL when some path rounds it to nothing (a larger amount may be served), else AMOUNT_TOO_LARGE when
 * some path overflows on it (a smaller amount may be served), INSUFFICIENT_LIQUIDITY otherwise.
 */
function refusalCode(whole: readonly PathQuote[]): RefusalCode {
  const refused = (code: RefusalCode) => whole.some((q) => !q.ok && q.code === code);
  if (refused('AMOUNT_TOO_SMALL')) return 'AMOUNT_TOO_SMALL';
  return refused('AMOUNT_TOO_LARGE') ? 'AMOUNT_TOO_LARGE' : 'INSUFFICIENT_LIQUIDITY';
}
