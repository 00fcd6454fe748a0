import type { Candidate } from './candidates.ts';
import { fixedAmountCurve } from './optimalSplit.ts';
import { inputFor, outputAt, type PathCurve } from './pathCurve.ts';
import { gasCost, nominalStages, routeCallGas, type Search, tradeGas } from './searchGas.ts';
import type { SetAtRate, SplitContext } from './splitContext.ts';
import { aloneBound, depthBound, type OutputBound } from './stagedRoutes.ts';

/*
 * The search's candidate curves (a path of stages' curve built only when its output bound says it may matter) and
 * the float bounds by which bestTrade.ts decides which paths it prices exactly.
 */

/** Path curves of one request's searches (same side and amount), by Candidate.key. */
export type CurveCache = Map<string, PathCurve>;

/**
 * Relative margin of a float curve's value over the exact price of the same amount (the exact walk rounds in the
 * pool's favour, so its output is at most the real-valued one and its input at least; floats add relative errors
 * around 1e-12): a path is left unpriced only when even this much better than its float value would lose.
 */
export const FLOAT_MARGIN = 1e-6;

/**
 * A search's candidate curves: `all[i]` is candidate i's curve, except where `pending[i]` is set: a path of stages
 * whose curve is built only when a bound on what it can deliver (its OutputBound) says it may matter (buildCurve), its
 * place in `all` held by an empty curve until then.
 */
export interface Curves {
  readonly all: PathCurve[];
  readonly pending: (OutputBound | undefined)[];
}

/** What stagedFloor keeps during one split search: each path of stages' own fee, and the last set's. */
export interface StagedFloors {
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
export function stagedFloor(
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

/**
 * The curves of a search's candidates, shared through `cache` with the request's other searches. Pending (built only
 * where its OutputBound says the path may matter): every path not in the cache with `lazy`, else the paths of stages.
 */
export function candidateCurves(search: Search, candidates: readonly Candidate[], cache: CurveCache | undefined, lazy: boolean): Curves {
  const { tradeType, amount } = search.request;
  const pending: (OutputBound | undefined)[] = new Array(candidates.length);
  const all = candidates.map((c, i) => {
    const cached = cache?.get(c.key);
    if (cached) return cached;
    if (c.stages || lazy) {
      pending[i] = c.bound;
      return UNBUILT;
    }
    const curve = fixedAmountCurve(c.path, tradeType, amount);
    cache?.set(c.key, curve);
    return curve;
  });
  return { all, pending };
}

/** Builds candidate j's pending curve (Curves). */
export function buildCurve(
  search: Search,
  candidates: readonly Candidate[],
  j: number,
  curves: Curves,
  cache: CurveCache | undefined,
): PathCurve {
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
export function scoreBound(search: Search, c: Candidate, curve: PathCurve, fee: number = leastSingleFee(search, c)): number {
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
  return gross - fee;
}

/**
 * The least network fee scoreBound takes off a single path's bound (a search bounding a path twice passes it on). Every
 * search bounds every candidate with it, and a candidate is kept per state: its last figure is kept with it, for the
 * fee terms (gas price times rate, the search's flags) it was taken at, which the next requests mostly share.
 */
export function leastSingleFee(search: Search, c: Candidate): number {
  const flags = searchFlags(search, 'call');
  const known = leastFees.get(c);
  if (known && known.flags === flags && known.feeNum === search.feeNum && known.den === search.rate?.den) return known.fee;
  const fee = Number(gasCost(search, c.floorGas + kept(search, c, 'call')));
  leastFees.set(c, { flags, feeNum: search.feeNum, den: search.rate?.den, fee });
  return fee;
}

/** leastSingleFee's last figure per candidate and the terms it was taken at. */
const leastFees = new WeakMap<Candidate, { flags: number; feeNum: bigint | undefined; den: bigint | undefined; fee: number }>();

/**
 * The flags a path's own gas depends on beyond the path, as an index (no key string per call on this per-set path).
 * The trade side is not among them: a candidate belongs to one side (candidate paths are kept per side).
 */
function searchFlags(search: Search, what: 'call' | 'stages'): number {
  return (
    (what === 'stages' ? 1 : 0) |
    (search.nativeIn ? 2 : 0) |
    (search.nativeOut ? 4 : 0) |
    (search.approvalReset ? 8 : 0) |
    (search.request.approvalMode === 'permit2' ? 16 : 0)
  );
}

/**
 * Gas of a path's own call(s) that depends only on the search's flags, kept per path of stages (their bounds ask it
 * in every search): 'call', its first executor's call alone (callsGas); 'stages', the steps of its stages with its
 * nominal legs (tradeGas). Computed each time for other paths.
 */
export function kept(search: Search, c: Candidate, what: 'call' | 'stages'): bigint {
  if (!c.stages) return ownGas(search, c, what);
  const at = searchFlags(search, what);
  let gas = keptGas.get(c);
  if (!gas) {
    gas = new Array<bigint | undefined>(32);
    keptGas.set(c, gas);
  }
  let g = gas[at];
  if (g === undefined) {
    g = ownGas(search, c, what);
    gas[at] = g;
  }
  return g;
}

/** The gas kept keeps (a module-level function, not a closure made per call). */
function ownGas(search: Search, c: Candidate, what: 'call' | 'stages'): bigint {
  return what === 'call'
    ? routeCallGas(search, c.executors[0], c.nominal)
    : tradeGas(search, [{ executor: c.executors[0], legs: c.nominal, stages: nominalStages(c) }]);
}

/** kept's gas per path of stages and key. */
const keptGas = new WeakMap<Candidate, (bigint | undefined)[]>();

/**
 * scoreBound before a path's curve is built, from its OutputBound (aloneBound) and, `deep`, for exact input from its
 * pools' depth at the amount (depthBound: dearer, tighter): never below scoreBound's (its FLOAT_MARGIN taken on top of
 * the output bound's own slack).
 */
export function pendingScoreBound(
  search: Search,
  c: Candidate,
  b: OutputBound,
  fee: number = leastSingleFee(search, c),
  deep = true,
): number {
  // As scoreBound where the curve would have no pieces (a pool without a segment): it cannot say.
  if (!(b.rate > 0)) return Number.POSITIVE_INFINITY;
  const { tradeType, amount } = search.request;
  const fixed = Number(amount);
  let gross = aloneBound(b, tradeType, fixed);
  if (gross === Number.NEGATIVE_INFINITY) return gross;
  if (deep && tradeType === 'exactIn') gross = Math.min(gross, depthBound(c.path, fixed));
  return (tradeType === 'exactIn' ? gross * (1 + FLOAT_MARGIN) : (gross - 1) * (1 - FLOAT_MARGIN) + 1) - fee;
}
