import type { RefusalCode } from '../errors/RefusalCode.ts';
import type { ChainPoolIndex } from '../graph/ChainPoolIndex.ts';
import { type Candidate, executablePaths } from './candidates.ts';
import { exactTrade } from './exactTrade.ts';
import { optimalSplit } from './optimalSplit.ts';
import { type LadderCache, type PathQuote, pricePath } from './priceRoutes.ts';
import { buildCurve, type CurveCache, candidateCurves, kept, type StagedFloors, scoreBound, stagedFloor } from './searchCurves.ts';
import { assignExecutors, callsGasUnits, gasCostUnits, type Search, score, type TradeRequest } from './searchGas.ts';
import { bestOtherPath, bestSinglePath, boundOf, depthTightened, recordBound, type SingleCache, singleBounds } from './singlePath.ts';
import { feeFloorOf } from './solveSet.ts';
import type { FeeFloor, PricedSplit, RateOrder, SolveCache } from './splitContext.ts';
import { belowRate, mayAdd } from './stagedRoutes.ts';
import type { Executor, Leg, Trade } from './Trade.ts';
import { type TradeEnds, tradeEnds } from './tradeEnds.ts';
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
  /**
   * Whether a path's curve is built only where a bound from its pools' rates at zero and whole outputs (OutputBound,
   * known before any curve) says the search may need it (default true; false: every steered path's curve is built
   * first, and a path beyond them gets its curve without its depth bound: the search the bounds must not change).
   */
  readonly boundBeforeCurves?: boolean;
  /**
   * Whether the search leaves out the paths through a pool that refuses every swap their way (ExecutablePaths.unpaid:
   * never part of a trade, priced only for a refusal code; default true; false: searched as any other path, the search
   * leaving them out must not change).
   */
  readonly leaveOutUnpaid?: boolean;
  /**
   * Whether the search passes over paths by the ceilings of their rates at zero (ExecutablePaths.byRate: the split
   * search's rounds, the single-path search in rate order) and over sets by a floor of their fee (SplitContext.feeFloor)
   * (default true; false: every ceiling Infinity and no fee floor, the search they must not change).
   */
  readonly rateCeilings?: boolean;
}

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
  const keepUnpaid = options.leaveOutUnpaid === false;
  const found =
    request.allowKey === undefined
      ? executablePaths(index, ends, request, options.maxRoutes, keepUnpaid)
      : index.pairMemo(pairKey(ends, request, options.maxRoutes, keepUnpaid), () =>
          executablePaths(index, ends, request, options.maxRoutes, keepUnpaid),
        );
  if (found.paths.length === 0 && found.others.length === 0 && found.unpaid.length === 0)
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
    request.maxSplits > 1 || candidates.length > PRUNE_SINGLE_FROM
      ? candidateCurves(search, candidates, options.curves, options.boundBeforeCurves !== false)
      : undefined;
  // The single paths' bounds first (the split search's first round reads them); they are priced after the split
  // search, only where they may beat its trade.
  const ceilings = options.rateCeilings !== false;
  const single = singleBounds(candidates, curves, ceilings ? found.byRate : unranked(candidates.length), options);
  const built = curves?.all;
  let split: PricedSplit<Candidate> | undefined;
  if (request.maxSplits > 1 && candidates.length > 0) {
    const floors: StagedFloors = { own: [], set: undefined, fee: 0 };
    // The fixed amount as a number, converted once (admit's bounds read it for every path weighed).
    const fixed = Number(request.amount);
    split = optimalSplit(
      {
        tradeType: request.tradeType,
        amount: request.amount,
        maxSplits: request.maxSplits,
        ranksFees: search.rate !== undefined && request.gasPriceWei > 0n,
        singlesKnown: true,
        ...(ceilings ? { ceilings: found.byRate.ceilings } : {}),
        ...(ceilings && search.rate !== undefined && request.gasPriceWei > 0n ? { feeFloor: feeFloor(search) } : {}),
        ...(options.solves ? { solves: { tree: options.solves, record: options.records === true } } : {}),
        score(members, quotes) {
          return score(search, members, quotes);
        },
        admit(j, set, toBeat) {
          // The first round (each path alone): a path whose single-path bound (scoreBound: its float value for the
          // whole amount with FLOAT_MARGIN to spare, less the least fee its route can cost, which its set of one's
          // fee estimate never is below; before its curve, pendingScoreBound, never below it) cannot exceed the best
          // set of one so far would not be chosen: not solved.
          const bounded = set === undefined && toBeat !== undefined && !candidates[j].stages && options.firstRoundBound !== false;
          const alone = bounded && single.bounds ? boundOf(search, candidates, curves!, single, j) : undefined;
          if (alone !== undefined && alone <= toBeat!) return false;
          // A path whose curve is not built yet gets it only where its output bound says it may be chosen.
          const pending = curves?.pending[j];
          if (!pending) return true;
          if (!candidates[j].stages) {
            // One call (BestTradeOptions.boundBeforeCurves). A later round skips a path whose rate at zero is not above
            // the set's marginal rate (optimalSplit's own test, on the curve's first piece), and one that, added to the
            // set, cannot exceed `toBeat` even before its fee (mayAdd with no fee floor: the search's mayReach, whose
            // surplus on the curve the output bound is never below); the first round, without a single-path bound, one
            // whose value alone from its output bound cannot.
            if (set && belowRate(pending, set.lambda)) return false;
            if (
              (set || (bounded && alone === undefined)) &&
              !mayAdd(
                pending,
                set,
                toBeat!,
                request.tradeType,
                fixed,
                // Where fees are ranked, the set with it pays at least its FeeFloor (as the search's mayReach takes off).
                this.feeFloor ? feeFloorOf(this.feeFloor, candidates, set?.members ?? NO_MEMBERS, j) : undefined,
                candidates[j].path,
              )
            )
              return false;
            if (alone !== undefined) {
              // For exact input its bound from its pools' depth first (bestSinglePath's level 1: dearer than its
              // output bound, far cheaper than its curve), then its curve's bound, tighter: checked as the first round
              // checks a path with a curve.
              if (
                request.tradeType === 'exactIn' &&
                single.levels![j] < 1 &&
                depthTightened(search, candidates[j], j, pending, single) <= toBeat!
              )
                return false;
              const bound = scoreBound(search, candidates[j], buildCurve(search, candidates, j, curves!, options.curves), single.fees?.[j]);
              single.bounds![j] = recordBound(single, candidates[j], bound);
              single.levels![j] = 2;
              return !(bound <= toBeat!);
            }
          } else if (toBeat !== undefined) {
            const fees = search.rate !== undefined && request.gasPriceWei > 0n;
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
              gas += m.nominalGas;
              calls.push({ executor: executors[i], legs: m.nominal });
            }
            if (ticks[i] > 0) gas += ticks[i] * m.tickGas;
          }
          gas += callsGasUnits(search, calls);
          if (!Number.isSafeInteger(gas)) throw new Error(`feeEstimate: ${gas} gas is not an exact integer`);
          return gasCostUnits(search, gas);
        },
      },
      candidates,
      built,
    );
  }
  // A single path is chosen over the split when its score is at least the split's, so one whose bound is below the
  // split's score is not priced.
  const floor = split === undefined ? undefined : Number(split.score);
  bestSinglePath(search, candidates, curves, cache, single, floor, options);
  if (found.others.length > 0) bestOtherPath(search, found, single, candidates.length, options, cache, floor);
  let best: PricedSplit<Candidate> | undefined = single.best;
  if (split && (!best || split.score > best.score)) best = split;
  if (!best) {
    // No trade: every steered path was priced for the whole amount (bestSinglePath), and so are those left out as
    // refused whatever the amount, whose refusals are codes too.
    const { tradeType, amount } = request;
    const unpaid = found.unpaid.map((c) => pricePath(c.path, tradeType, [amount], cache)[0]);
    return { ok: false, code: refusalCode(single.whole.concat(unpaid)) };
  }
  return { ok: true, trade: exactTrade(search, best.members, best.shares, best.quotes) };
}

/** The members of no set (a path alone: its own fee floor). */
const NO_MEMBERS: readonly number[] = [];

/** Paths in position order, each with an Infinity ceiling (BestTradeOptions.rateCeilings false). */
function unranked(paths: number): RateOrder {
  return { order: Array.from({ length: paths }, (_p, i) => i), ceilings: new Array<number>(paths).fill(Number.POSITIVE_INFINITY) };
}

/**
 * The split search's FeeFloor: feeEstimate's gas is at least the sum of its paths' nominalGas (a path of stages: at
 * least 0; ticks and calls only add), and its fee that gas's exact fee rounded down, whose rate per unit is at least
 * the fee of a million units over a million (rounded down, then a relative margin for the float product).
 */
function feeFloor(search: Search): FeeFloor<Candidate> {
  return { perGas: (gasCostUnits(search, 1_000_000) / 1_000_000) * (1 - 1e-9), gas: (c) => (c.stages ? 0 : c.nominalGas) };
}

/** Levels of pairKey's kept keys: by the filter's name, each option, then each end. */
type KeyPart = string | number | boolean | undefined;
type KeyLevel = Map<KeyPart, KeyLevel | string>;
const pairKeys: KeyLevel = new Map();
let pairKeyCount = 0;
/** Most keys pairKey keeps (then it starts again). */
const PAIR_KEYS = 16_384;

/** The level below `level` for `part`, made on first use. */
function keyLevel(level: KeyLevel, part: KeyPart): KeyLevel {
  let next = level.get(part) as KeyLevel | undefined;
  if (next === undefined) {
    next = new Map();
    level.set(part, next);
  }
  return next;
}

/**
 * The name of a search's candidate paths in the index's pair memo (ChainPoolIndex.pairMemo): its ends, options and
 * filter (allowKey). Kept once built, looked up by the filter's name (bestTradesByDeployment makes one string per
 * filter), each option's own value and the ends' addresses, whose hashes the strings keep: neither the ~250-character
 * key nor a string of the options is built and hashed again for every search.
 */
export function pairKey(ends: TradeEnds, request: TradeRequest, maxRoutes: number | undefined, keepUnpaid: boolean): string {
  let level = keyLevel(pairKeys, request.allowKey!);
  level = keyLevel(keyLevel(level, ends.nativeIn), ends.nativeOut);
  level = keyLevel(keyLevel(level, request.maxHops), request.tradeType);
  level = keyLevel(keyLevel(level, maxRoutes), request.handoverSlippageBps);
  level = keyLevel(keyLevel(level, keepUnpaid), ends.poolTokenIn);
  let key = level.get(ends.poolTokenOut) as string | undefined;
  if (key === undefined) {
    if (++pairKeyCount > PAIR_KEYS) {
      pairKeys.clear();
      pairKeyCount = 1;
    }
    const options = `${ends.nativeIn}:${ends.nativeOut}:${request.maxHops}:${request.tradeType}:${maxRoutes ?? ''}:${request.handoverSlippageBps ?? ''}:${keepUnpaid}`;
    key = `paths:${ends.poolTokenIn}:${ends.poolTokenOut}:${options}:${request.allowKey}`;
    level.set(ends.poolTokenOut, key);
  }
  return key;
}

/** Without splits, curves are built for that pruning only with more candidates than this (a few direct pools price faster than their curves build). */
const PRUNE_SINGLE_FROM = 8;
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
