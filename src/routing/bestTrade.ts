import type { RefusalCode } from '../errors/RefusalCode.ts';
import type { ChainPoolIndex, PoolEntry } from '../graph/PricingGraph.ts';
import type { Fraction, TradeType } from '../protocols/PoolProtocol.ts';
import { type Candidate, type ExecutablePaths, executablePaths, pricedCandidate } from './candidates.ts';
import type { StagePlan } from './executors.ts';
import { callGas, routeGas } from './gasModel.ts';
import { addNativeWork, type NativeWork, noNativeWork } from './nativePools.ts';
import {
  fixedAmountCurve,
  type OkQuote,
  optimalSplit,
  quoteValue,
  type SetAtRate,
  type SolveCache,
  type SplitContext,
} from './optimalSplit.ts';
import { inputFor, outputAt, type PathCurve } from './pathCurve.ts';
import { type LadderCache, type PathQuote, pricePath } from './priceRoutes.ts';
import type { RoutingLimits } from './RoutingLimits.ts';
import { aloneBound, mayAdd, type OutputBound, outputBound, stageCalls, stagesGas } from './stagedRoutes.ts';
import type { Executor, Leg, Route, RouteStage, Split, Trade } from './Trade.ts';
import { type TradeEnds, tradeEnds } from './tradeEnds.ts';
import { gasRate, lpFees, priceImpactBps } from './tradeMetrics.ts';
import { wrapTrade } from './wrapTrade.ts';

/** What to trade, on one chain, within which limits (the deployments as a pool filter). */
export interface TradeRequest
  extends Pick<RoutingLimits, 'maxHops' | 'maxSplits' | 'gasPriceWei' | 'handoverSlippageBps' | 'approvalMode'> {
  /** Lower-case token addresses (the native asset as its pseudo-address). */
  readonly tokenIn: string;
  readonly tokenOut: string;
  readonly tradeType: TradeType;
  /** The fixed amount: tokenIn's for exactIn, tokenOut's for exactOut (smallest units). */
  readonly amount: bigint;
  /** Which pools may be used (DEX filters). */
  readonly allow: (entry: PoolEntry) => boolean;
  /**
   * A name for `allow` (e.g. its deployments) under which the pair's candidate paths are kept with the index and
   * reused by later searches of the same pair, hop limit, side and filter; without it they are found anew.
   */
  readonly allowKey?: string;
}

/** How hard bestTrade searches. */
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
}

/** Path curves of one request's searches (same side and amount), by Candidate.key. */
export type CurveCache = Map<string, PathCurve>;

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

/** Everything one search shares. */
interface Search {
  readonly index: ChainPoolIndex;
  readonly request: TradeRequest;
  /** Wei -> the priced token (tokenOut for exactIn, tokenIn for exactOut) at the mid price; undefined when unpriced. */
  readonly rate: Fraction | undefined;
  /** The gas price times the rate's numerator when fees are ranked (a rate and a gas price above 0), for gasCost. */
  readonly feeNum: bigint | undefined;
  readonly ends: TradeEnds;
  /** Whether the input or output is the native asset (its routes start or end at WETH pools, wrapped by the executor, or at native ETH pools). */
  readonly nativeIn: boolean;
  readonly nativeOut: boolean;
  /** tokenIn is flagged approvalReset in the catalogue: each router's approval is two steps. */
  readonly approvalReset: boolean;
}

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
  const single = bestSinglePath(search, candidates, curves, cache, options);
  const built = curves?.all;
  if (found.others.length > 0) bestOtherPath(search, found, single, candidates.length, options, cache);
  let best: { members: readonly Candidate[]; shares: readonly bigint[]; quotes: readonly OkQuote[]; score: bigint } | undefined =
    single.best;
  if (request.maxSplits > 1 && candidates.length > 0) {
    const floors: StagedFloors = { own: [], set: undefined, fee: 0 };
    const split = optimalSplit(
      {
        tradeType: request.tradeType,
        amount: request.amount,
        maxSplits: request.maxSplits,
        ranksFees: search.rate !== undefined && request.gasPriceWei > 0n,
        singlesKnown: true,
        ...(options.solves ? { solves: { tree: options.solves, record: options.records === true } } : {}),
        // Methods, not arrow properties: tsx names every named closure it creates (a defineProperty per search).
        score(members, quotes) {
          return score(search, members, quotes);
        },
        admit(j, set, toBeat) {
          // A path of stages gets its curve only where its output bound says it may be chosen (stagedRoutes.ts mayAdd).
          const pending = curves?.pending[j];
          if (!pending) return true;
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
          const calls: { executor: Executor; legs: readonly Leg[] }[] = [];
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
          if (!Number.isSafeInteger(gas)) throw new Error(`feeEstimate: ${gas} gas is not an exact integer`);
          return Number(gasCost(search, BigInt(gas)));
        },
      },
      candidates,
      built,
    );
    if (split && (!best || split.score > best.score)) best = split;
  }
  if (!best) return { ok: false, code: refusalCode(single.whole) };
  return { ok: true, trade: exactTrade(search, best.members, best.shares, best.quotes) };
}

/** With more candidates than this, the single-path search prices exactly only those whose float bound can still win. */
const PRUNE_FROM = 2;
/** Without splits, curves are built for that pruning only with more candidates than this (a few direct pools price faster than their curves build). */
const PRUNE_SINGLE_FROM = 8;
/**
 * Relative margin of a float curve's value over the exact price of the same amount (the exact walk rounds in the
 * pool's favour, so its output is at most the real-valued one and its input at least; floats add relative errors
 * around 1e-12): a path is left unpriced only when even this much better than its float value would lose.
 */
const FLOAT_MARGIN = 1e-6;

/**
 * A search's candidate curves: `all[i]` is candidate i's curve, except where `pending[i]` is set: a path of stages
 * whose curve is built only when a bound on what it can deliver (its OutputBound) says it may matter (buildCurve), its
 * place in `all` held by an empty curve until then.
 */
interface Curves {
  readonly all: PathCurve[];
  readonly pending: (OutputBound | undefined)[];
}

/** What stagedFloor keeps during one split search: each path of stages' own fee, and the last set's. */
interface StagedFloors {
  readonly own: number[];
  set: readonly number[] | undefined;
  fee: number;
}

/**
 * The split search's fee estimate with no tick crossed (SplitContext.feeEstimate) of `set` with path of stages j
 * added, from below: the set's estimate (kept while the round's set is the same) plus j's alone (kept per path). A
 * path of stages' steps add to the others' gas without changing their calls (assignExecutors), and gasCost rounds
 * down, so the sum is never above the estimate of the whole.
 */
function stagedFloor(
  search: Search,
  context: Pick<SplitContext<Candidate>, 'feeEstimate'>,
  candidates: readonly Candidate[],
  floors: StagedFloors,
  set: SetAtRate | undefined,
  j: number,
): number {
  // feeEstimate([j], [0]): its stages' steps with its nominal legs (no call shared with others).
  floors.own[j] ??= Number(gasCost(search, kept(search, candidates[j], 'stages')));
  if (!set) return floors.own[j];
  if (floors.set !== set.members) {
    floors.set = set.members;
    floors.fee = context.feeEstimate(
      set.members.map((i) => candidates[i]),
      set.members.map(() => 0),
    );
  }
  return floors.fee + floors.own[j];
}

/** A curve without pieces: the place of a curve not built yet. */
const UNBUILT: PathCurve = { x: [], y: [], alpha: [], beta: [], len: [], rate: [], ticks: [], endX: 0, endY: 0, capped: true };

/** The curves of a search's candidates, shared through `cache` with the request's other searches (paths of stages: pending). */
function candidateCurves(search: Search, candidates: readonly Candidate[], cache: CurveCache | undefined): Curves {
  const { tradeType, amount } = search.request;
  const pending: (OutputBound | undefined)[] = new Array(candidates.length);
  const all = candidates.map((c, i) => {
    const cached = cache?.get(c.key);
    if (cached) return cached;
    if (c.stages) {
      pending[i] = outputBound(c.path);
      return UNBUILT;
    }
    const curve = fixedAmountCurve(c.path, tradeType, amount);
    cache?.set(c.key, curve);
    return curve;
  });
  return { all, pending };
}

/** Builds candidate j's pending curve (Curves). */
function buildCurve(search: Search, candidates: readonly Candidate[], j: number, curves: Curves, cache: CurveCache | undefined): PathCurve {
  const c = candidates[j];
  const curve = fixedAmountCurve(c.path, search.request.tradeType, search.request.amount);
  cache?.set(c.key, curve);
  curves.all[j] = curve;
  curves.pending[j] = undefined;
  return curve;
}

/**
 * An upper bound of a single path's exact score for the whole amount from its float curve: its value with
 * FLOAT_MARGIN to spare, less the least network fee its route can cost (its nominal legs crossing no tick, writing
 * no cold slot and moving no tick: pricing only adds to that). Infinity where the curve cannot say (no pieces);
 * -Infinity where the curve cannot carry the amount (priced only when no path carries it, for the refusal code).
 */
function scoreBound(search: Search, c: Candidate, curve: PathCurve): number {
  if (curve.x.length === 0) return Number.POSITIVE_INFINITY;
  const { tradeType, amount } = search.request;
  const fixed = Number(amount);
  let gross: number;
  if (tradeType === 'exactIn') {
    if (curve.endX < fixed * (1 - FLOAT_MARGIN)) return Number.NEGATIVE_INFINITY;
    gross = outputAt(curve, fixed) * (1 + FLOAT_MARGIN) + 1;
  } else {
    if (curve.endY < fixed * (1 - FLOAT_MARGIN)) return Number.NEGATIVE_INFINITY;
    gross = -(inputFor(curve, fixed) * (1 - FLOAT_MARGIN)) + 1;
  }
  return gross - leastSingleFee(search, c);
}

/** The least network fee scoreBound takes off a single path's bound. */
function leastSingleFee(search: Search, c: Candidate): number {
  return Number(gasCost(search, c.floorGas + kept(search, c, 'call')));
}

/**
 * Gas of a path's own call(s) that depends only on the search's flags, kept per path of stages (their bounds ask it
 * in every search): 'call', its first executor's call alone (callsGas); 'stages', the steps of its stages with its
 * nominal legs (tradeGas). Computed each time for other paths.
 */
function kept(search: Search, c: Candidate, what: 'call' | 'stages'): bigint {
  if (!c.stages) return ownGas(search, c, what);
  const key = `${what}:${search.nativeIn}:${search.nativeOut}:${search.approvalReset}:${search.request.approvalMode}`;
  let gas = keptGas.get(c);
  if (!gas) {
    gas = new Map();
    keptGas.set(c, gas);
  }
  let g = gas.get(key);
  if (g === undefined) {
    g = ownGas(search, c, what);
    gas.set(key, g);
  }
  return g;
}

/** The gas kept keeps (a module-level function, not a closure per call: tsx names every named closure it creates). */
function ownGas(search: Search, c: Candidate, what: 'call' | 'stages'): bigint {
  return what === 'call'
    ? routeCallGas(search, c.executors[0], c.nominal)
    : tradeGas(search, [{ executor: c.executors[0], legs: c.nominal, stages: nominalStages(c) }]);
}

/** kept's gas per path of stages and key. */
const keptGas = new WeakMap<Candidate, Map<string, bigint>>();

/**
 * scoreBound before a path's curve is built, from its OutputBound (aloneBound): never below scoreBound's (its
 * FLOAT_MARGIN taken on top of the output bound's own slack).
 */
function pendingScoreBound(search: Search, c: Candidate, b: OutputBound): number {
  // As scoreBound where the curve would have no pieces (a pool without a segment): it cannot say.
  if (!(b.rate > 0)) return Number.POSITIVE_INFINITY;
  const { tradeType, amount } = search.request;
  const gross = aloneBound(b, tradeType, Number(amount));
  if (gross === Number.NEGATIVE_INFINITY) return gross;
  return (tradeType === 'exactIn' ? gross * (1 + FLOAT_MARGIN) : (gross - 1) * (1 - FLOAT_MARGIN) + 1) - leastSingleFee(search, c);
}

/**
 * The best single path for the whole amount, net of its network fee (ties: the earlier path, as findRoutes orders
 * them), and each path's quote of the whole amount where it was priced. With curves, paths are priced exactly in the
 * order of their float bound (scoreBound), and a path whose bound is below the best exact score so far is not priced:
 * it cannot win. When no path carries the amount, every path is priced (the refusal code reads them all).
 */
function bestSinglePath(
  search: Search,
  candidates: readonly Candidate[],
  curves: Curves | undefined,
  cache: LadderCache | undefined,
  { singles, records, curves: curveCache }: BestTradeOptions,
): SinglePath {
  const whole: PathQuote[] = new Array(candidates.length);
  const single: SinglePath = { best: undefined, bestAt: -1, whole, singles, records: records === true && singles !== undefined };
  if (!curves || candidates.length <= PRUNE_FROM) {
    for (let i = 0; i < candidates.length; i++) priceSingle(search, candidates, i, cache, single);
    return single;
  }
  // A path of stages without its curve yet: bounded from its OutputBound first, its curve built only if that may win.
  const bounds = candidates.map((c, i) => {
    const pending = curves.pending[i];
    if (pending) return pendingScoreBound(search, c, pending);
    const known = singles?.get(c.key);
    if (known?.bound !== undefined) return known.bound;
    const bound = scoreBound(search, c, curves.all[i]);
    if (single.records && c.deployment !== undefined) singles!.set(c.key, { bound });
    return bound;
  });
  const order = candidates.map((_c, i) => i).sort((a, b) => bounds[b] - bounds[a] || a - b);

  for (const i of order) {
    if (single.best && bounds[i] < Number(single.best.score)) break;

    if (bounds[i] === Number.NEGATIVE_INFINITY) break;
    if (curves.pending[i]) {
      const bound = scoreBound(search, candidates[i], buildCurve(search, candidates, i, curves, curveCache));
      if (bound === Number.NEGATIVE_INFINITY || (single.best && bound < Number(single.best.score))) continue;
    }
    priceSingle(search, candidates, i, cache, single);
  }
  if (!single.best) for (let i = 0; i < candidates.length; i++) if (!whole[i]) priceSingle(search, candidates, i, cache, single);
  return single;
}

/**
 * Prices candidate i for the whole amount into `single` (its quote, and the best so far: ties to the earlier path).
 * A module-level function, not a closure per search: tsx names every named closure it creates (a defineProperty).
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
    const toBeat = single.best === undefined ? undefined : Number(single.best.score);
    if (toBeat !== undefined && rateBound(other.rate, 0n) - leastFee < toBeat) break;
    if (toBeat !== undefined && rateBound(other.rate, other.leastGas) < toBeat) continue;
    if (other.candidate === undefined) other.candidate = pricedCandidate(search.index, other.path, search.request) ?? null;
    const c = other.candidate;
    if (!c) continue;
    if (toBeat !== undefined && rateBound(other.rate, c.floorGas + routeCallGas(search, c.executors[0], c.nominal)) < toBeat) continue;
    let curve = curveCache?.get(c.key);
    if (!curve) {
      curve = fixedAmountCurve(c.path, tradeType, amount);
      curveCache?.set(c.key, curve);
    }
    const bound = scoreBound(search, c, curve);
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

/**
 * Groups active routes by the executor they will use: a common one when every route run in one call can use it. A
 * path of stages keeps its first stage's executor: its stages are steps of their own, never in another route's call.
 */
function assignExecutors(members: readonly { executors: readonly Executor[]; stages?: readonly StagePlan[] }[]): Executor[] {
  // Loops rather than find/every/some closures: the split search calls this for every set it weighs.
  let first = 0;
  while (first < members.length && members[first].stages) first++;
  let common: Executor | undefined;
  for (const e of members[first]?.executors ?? []) {
    let everyOne = true;
    for (let m = first + 1; m < members.length && everyOne; m++) {
      if (members[m].stages) continue;
      let has = false;
      for (const x of members[m].executors) if (x.address === e.address) has = true;
      everyOne = has;
    }
    if (everyOne) {
      common = e;
      break;
    }
  }
  const executors: Executor[] = new Array(members.length);
  for (let i = 0; i < members.length; i++) executors[i] = members[i].stages ? members[i].executors[0] : (common ?? members[i].executors[0]);
  return executors;
}

/** A candidate's stages for the gas model before pricing (no minimums: stagesGas reads executors and legs only). */
function nominalStages(c: Candidate): RouteStage[] | undefined {
  return c.stages?.map((s) => ({ executor: s.executors[0], legs: s.legs, amountOutMinimum: 0n }));
}

/** A route's executor call(s) as the gas model reads them: a route of stages is one call per stage. */
type GasRoute = { readonly legs: readonly Leg[]; readonly executor: Executor; readonly stages?: readonly RouteStage[] };

/** Gas of the steps of a set of routes with their executors (a route of stages: each stage's steps, stagesGas). */
function tradeGas(search: Search, routes: readonly GasRoute[]): bigint {
  let gas = 0n;
  const calls: GasRoute[] = [];
  for (const r of routes) {
    if (r.stages) {
      // One predicate per index (memo), not a named closure per call: tsx names every named closure it creates.
      const { index } = search;
      const token = index.memo(
        'approvalResetToken',
        () =>
          (t: string): boolean =>
            index.token(t)?.approvalReset === true,
      );
      const staged = stageCalls({ ...r, stages: r.stages, amountOut: 0n });
      gas += stagesGas(staged, search.nativeIn, search.nativeOut, search.request.tradeType, search.approvalReset, token);
      continue;
    }
    gas += routeGas(r.legs, search.request.tradeType);
    calls.push(r);
  }
  return gas + callsGas(search, calls);
}

/**
 * The stages of a priced candidate's route (Route.stages), undefined for a route of one call: each with its
 * executor (the first that runs it) and, but for the last, the amount the next stage's first leg spends as its least
 * output (pricePath priced that leg at the hand-over minimum).
 */
function routeStagesOf(c: Candidate, legs: readonly Leg[]): RouteStage[] | undefined {
  if (!c.stages) return undefined;
  let end = 0;
  return c.stages.map((s, i) => {
    end += s.legs;
    const last = i === c.stages!.length - 1;
    return {
      executor: plainExecutor(s.executors[0]),
      legs: s.legs,
      amountOutMinimum: last ? legs[legs.length - 1].amountOut : legs[end].amountIn,
    };
  });
}

/**
 * Gas of the executor calls of routes (with their legs, priced or nominal) and executors: one call per distinct
 * executor, with its route count and the native work of its routes (callNativeWork: wraps only where a route's end
 * pool holds the wrapped token, and its crossings between ETH and WETH pools).
 */
function callsGas(search: Search, routes: readonly { executor: Executor; legs: readonly Leg[] }[]): bigint {
  let gas = 0n;
  for (let i = 0; i < routes.length; i++) {
    const executor = routes[i].executor;
    let first = true;
    for (let k = 0; k < i && first; k++) first = routes[k].executor.address !== executor.address;
    if (!first) continue;
    // This executor's routes and their native work together (callNativeWork's, without an array and an object per
    // route: loops, not filter/findIndex closures, as this runs for every set the search weighs).
    const work = noNativeWork();
    let own = 0;
    for (let k = i; k < routes.length; k++) {
      if (routes[k].executor.address !== executor.address) continue;
      addNativeWork(work, routes[k].legs, search.nativeIn, search.nativeOut);
      own++;
    }
    gas += executorCallGas(search, executor, own, work);
  }
  return gas;
}

/** callsGas of one route (its executor and legs), without the list and record callsGas reads: per candidate bound. */
function routeCallGas(search: Search, executor: Executor, legs: readonly Leg[]): bigint {
  return executorCallGas(search, executor, 1, addNativeWork(noNativeWork(), legs, search.nativeIn, search.nativeOut));
}

/** The gas of one executor's call carrying `routes` routes whose native work together is `work`. */
function executorCallGas(search: Search, executor: Executor, routes: number, work: NativeWork): bigint {
  return callGas(
    executor.kind,
    routes,
    work.wrapIn,
    work.unwrapOut,
    !search.nativeIn,
    search.request.tradeType,
    search.approvalReset,
    work,
    search.request.approvalMode === 'permit2',
  );
}

/** Value of priced routes net of their network fee (in the priced token, signed as quoteValue). */
function score(search: Search, members: readonly Candidate[], quotes: readonly OkQuote[]): bigint {
  const executors = assignExecutors(members);
  let gross = 0n;
  const routes = quotes.map((q, i): GasRoute => {
    gross += quoteValue(q, search.request.tradeType);
    const stages = routeStagesOf(members[i], q.legs);
    return stages ? { legs: q.legs, executor: executors[i], stages } : { legs: q.legs, executor: executors[i] };
  });
  return gross - gasCost(search, tradeGas(search, routes));
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

/** The trade of exactly priced shares (largest first; the quotes are final). */
function exactTrade(search: Search, members: readonly Candidate[], shares: readonly bigint[], quotes: readonly OkQuote[]): Trade {
  const { request } = search;
  const order = shares.map((_s, i) => i).sort((a, b) => (shares[b] > shares[a] ? 1 : shares[b] < shares[a] ? -1 : a - b));
  const executors = assignExecutors(order.map((i) => members[i]));
  const percents = sharePercents(order.map((i) => shares[i]));
  const splits: Split[] = order.map((i, j) => {
    const legs = quotes[i].legs;
    const stages = routeStagesOf(members[i], legs);
    const route: Route = {
      legs,
      amountIn: legs[0].amountIn,
      amountOut: legs[legs.length - 1].amountOut,
      executor: plainExecutor(executors[j]),
      ...(stages ? { stages } : {}),
      gas: routeGas(legs, request.tradeType),
    };
    return { percent: percents[j], route };
  });
  const gasEstimate = tradeGas(
    search,
    splits.map((s) => s.route),
  );
  return {
    tradeType: request.tradeType,
    tokenIn: request.tokenIn,
    tokenOut: request.tokenOut,
    nativeIn: search.ends.nativeIn,
    nativeOut: search.ends.nativeOut,
    amountIn: splits.reduce((s, x) => s + x.route.amountIn, 0n),
    amountOut: splits.reduce((s, x) => s + x.route.amountOut, 0n),
    splits,
    gasEstimate,
    gasPriceWei: request.gasPriceWei,
    gasCost: {
      tokenIn: networkFeeIn(search.index, request.tokenIn, gasEstimate * request.gasPriceWei),
      tokenOut: networkFeeIn(search.index, request.tokenOut, gasEstimate * request.gasPriceWei),
    },
    priceImpactBps: priceImpactBps(
      splits,
      order.map((i) => members[i].path),
    ),
    fees: splits.reduce((s, x) => s + lpFees(x.route), 0n),
  };
}

/**
 * A route's executor as a trade holds it: its kind, address and name only. The chain's executors also carry the
 * sets of deployments they swap (ChainExecutor), which nothing reads from a trade and which a worker's result would
 * otherwise copy across the thread boundary with every route.
 */
function plainExecutor(e: Executor): Executor {
  return { kind: e.kind, address: e.address, name: e.name };
}

/**
 * Each share of the fixed amount in percent to four decimals (millionths of the amount), largest remainders rounded
 * up so the parts add up to exactly 100.
 */
function sharePercents(shares: readonly bigint[]): number[] {
  const total = shares.reduce((a, b) => a + b, 0n);
  const ppm = shares.map((s) => (s * 1_000_000n) / total);
  const rest = shares.map((s, i) => s * 1_000_000n - ppm[i] * total);
  let missing = 1_000_000n - ppm.reduce((a, b) => a + b, 0n);
  const byRest = shares.map((_s, i) => i).sort((a, b) => (rest[b] > rest[a] ? 1 : rest[b] < rest[a] ? -1 : a - b));
  for (const i of byRest) {
    if (missing <= 0n) break;
    ppm[i]++;
    missing--;
  }
  return ppm.map((p) => Number(p) / 10_000);
}

/** Network fee of `gas` units in the search's priced token; 0 when unpriced. */
function gasCost(search: Search, gas: bigint): bigint {
  // gas × gasPriceWei × num / den, with the first product made once per search (Search.feeNum).
  return search.feeNum === undefined ? 0n : (gas * search.feeNum) / search.rate!.den;
}

/** A network fee of `wei` in `token` at the mid price; null where no pool path prices it. */
function networkFeeIn(index: ChainPoolIndex, token: string, wei: bigint): bigint | null {
  const rate = gasRate(index, token);
  return rate ? (wei * rate.num) / rate.den : null;
}
