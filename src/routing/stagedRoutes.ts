import type { TradeType } from '../protocols/PoolProtocol.ts';
import { protocolOf } from '../protocols/registry.ts';
import { callGas, callNativeWork, routeGas } from './gasModel.ts';
import { heldAt } from './nativePools.ts';
import { PerCurve } from './pathCurve.ts';
import { pathOutputBound, pathSurplusBound } from './poolDepth.ts';
import type { PricedPath } from './priceRoutes.ts';
import { BOUND_SLACK, type SetAtRate } from './splitContext.ts';
import type { Executor, Leg, Route, RouteStage } from './Trade.ts';

/** One stage of a route (Route.stages) with its own legs: what one executor call swaps. */
export interface StageCall {
  readonly executor: Executor;
  readonly legs: readonly Leg[];
  /** The least output the call accepts (RouteStage.amountOutMinimum). */
  readonly amountOutMinimum: bigint;
  readonly first: boolean;
  readonly last: boolean;
}

/** The executor calls of a route: each stage with its legs, or the route itself as one call. */
export function stageCalls(
  route: Pick<Route, 'legs' | 'executor' | 'amountOut'> & { readonly stages?: readonly RouteStage[] },
): StageCall[] {
  const stages = route.stages ?? [{ executor: route.executor, legs: route.legs.length, amountOutMinimum: route.amountOut }];
  let start = 0;
  return stages.map((s, i) => {
    const legs = route.legs.slice(start, start + s.legs);
    start += s.legs;
    return { executor: s.executor, legs, amountOutMinimum: s.amountOutMinimum, first: i === 0, last: i === stages.length - 1 };
  });
}

/**
 * Gas of the steps of a route of stages, its swaps included: per stage its approval (the trade's input for the first
 * stage unless native, with `approvalReset` as flagged; the token handed over for the others, `handoverReset` telling
 * which of those is flagged), its call, its native work (a wrap of native input in the first stage, an unwrap of
 * native output in the last) and its swaps (routeGas). Each stage is its own transaction: nothing is shared.
 */
export function stagesGas(
  calls: readonly StageCall[],
  nativeIn: boolean,
  nativeOut: boolean,
  tradeType: TradeType,
  approvalReset: boolean,
  handoverReset: (token: string) => boolean,
): bigint {
  let gas = 0n;
  for (const c of calls) {
    const work = callNativeWork([c.legs], nativeIn && c.first, nativeOut && c.last);
    const erc20In = !c.first || !nativeIn;
    const reset = c.first ? approvalReset : handoverReset(c.legs[0].tokenIn);
    gas += callGas(c.executor.kind, 1, work.wrapIn, work.unwrapOut, erc20In, tradeType, reset, work) + routeGas(c.legs, tradeType);
  }
  return gas;
}

/**
 * What a path can deliver, known before its curve is built (pathCurve.ts): its marginal rate at zero (the product of its pools' first segments' rates, as pathCurve's first piece:
 * its output for an input t is at most t times it) and a cap of its output at any input (`cap`, tokenOut units). The
 * cap is the least, over its hops, of a hop's pool's whole output in that direction (the outputs of all its curve
 * segments: what the pool pays when exhausted) carried through the hops after it at their rates at zero and hand-over
 * shares: each hop's output is concave through the origin, so it passes on at most its rate at zero times its input.
 * Both bound the path's float curve (and so every set the split search solves with it) up to float rounding.
 */
export interface OutputBound {
  readonly rate: number;
  readonly cap: number;
}

/**
 * A pool's rate at zero (its first curve segment's a / b; 0 without one) and whole output in one direction, on the
 * curve a search of `tradeType` reads: the sum of its curve segments' outputs, a segment paying a d / (b + d) for d of
 * its input (a where it has no end). Kept per pool and curve (PerCurve).
 */
const poolBounds = new PerCurve<OutputBound>((pool, zeroForOne, tradeType) => {
  const next = protocolOf(pool.kind).curveSegments(pool, zeroForOne, tradeType);
  let rate = Number.NaN;
  let cap = 0;
  for (let s = next(); s; s = next()) {
    if (Number.isNaN(rate)) rate = s.a / s.b;
    cap += s.len === Number.POSITIVE_INFINITY ? s.a : (s.a * s.len) / (s.b + s.len);
  }
  return { rate: Number.isNaN(rate) ? 0 : rate, cap };
});

/** The output bound of a path (OutputBound) for a search of `tradeType`, from its pools' (cached per pool and curve). */
export function outputBound(path: PricedPath, tradeType: TradeType): OutputBound {
  const share = path.handovers ? 1 - path.handovers.slippageBps / 10_000 : 1;
  let rate = 1;
  let cap = Number.POSITIVE_INFINITY;
  for (let h = 0; h < path.pools.length; h++) {
    const pool = path.pools[h];
    const kept = path.handovers?.at.includes(h) ? share : 1;
    const own = poolBounds.get(pool, heldAt(pool, path.path.tokens[h]) === pool.token0, tradeType);
    rate *= kept * own.rate;
    // What the hops before can pass on, kept and carried through this hop at its rate at zero, or this pool's whole output.
    cap = h === 0 ? own.cap : Math.min(cap * kept * own.rate, own.cap);
  }
  return { rate, cap };
}

/** Relative slack of a bound from OutputBound over the float curves it stands for (their rounding). */
const OUTPUT_BOUND_SLACK = 1e-6;

/**
 * An upper bound of what a path adds to a set of paths whose optimum has common marginal rate λ (pathCurve's
 * surplusAt: max over inputs t of output(t) - λ t) from its OutputBound alone: output(t) <= min(rate t, cap), so the
 * surplus is at most cap (1 - λ / rate) where rate > λ, else 0.
 */
export function surplusBound(b: OutputBound, lambda: number): number {
  if (!(b.rate > lambda)) return 0;
  return b.cap * (1 - lambda / b.rate) * (1 + OUTPUT_BOUND_SLACK);
}

/**
 * Whether a path's marginal rate at zero is certainly not above λ: its curve's first piece's rate (the same product of
 * its pools' first segments' rates, in another order of float operations) is not either, so the split search would
 * not weigh it at a set of that rate (optimalSplit).
 */
export function belowRate(b: OutputBound, lambda: number): boolean {
  return b.rate * (1 + OUTPUT_BOUND_SLACK) <= lambda;
}

/**
 * A number never below the marginal rate at zero of a path's curve (its OutputBound's rate with belowRate's slack),
 * and Infinity where the bound cannot say (no rate above 0: a pool without a segment, whose path's bounds are
 * Infinity and which is priced exactly). Paths in descending order of it: once one is at or below a rate, every later
 * one is.
 */
export function rateCeiling(b: OutputBound): number {
  return b.rate > 0 ? b.rate * (1 + OUTPUT_BOUND_SLACK) : Number.POSITIVE_INFINITY;
}

/**
 * An upper bound of the value of a path alone for a trade's fixed amount (output for exactIn, minus the input for
 * exactOut, as the split search values it) from its OutputBound; -Infinity where it cannot carry an exact output.
 */
export function aloneBound(b: OutputBound, tradeType: TradeType, fixed: number): number {
  if (tradeType === 'exactIn') return Math.min(b.rate * fixed, b.cap) * (1 + OUTPUT_BOUND_SLACK) + 1;
  if (b.cap * (1 + OUTPUT_BOUND_SLACK) < fixed * (1 - OUTPUT_BOUND_SLACK) || !(b.rate > 0)) return Number.NEGATIVE_INFINITY;
  return -(fixed / b.rate) * (1 - OUTPUT_BOUND_SLACK) + 1;
}

/**
 * An upper bound of a path's output for an exact input `fixed` from its pools' depth (pathOutputBound), with the
 * slack of aloneBound: never below its float curve's output there, and mostly well below aloneBound for amounts that
 * move its pools' prices.
 */
export function depthBound(path: PricedPath, fixed: number): number {
  return pathOutputBound(path, 'exactIn', fixed) * (1 + OUTPUT_BOUND_SLACK) + 1;
}

/** The bound of a set's value with a path of surplus (at the set's rate) `surplus` added (mayReach's). */
function setBound(set: SetAtRate, surplus: number, tradeType: TradeType): number {
  return set.value + (tradeType === 'exactIn' ? surplus : surplus / set.lambda) + BOUND_SLACK * (Math.abs(set.value) + 1);
}

/**
 * Whether a path of OutputBound `b` may be chosen by a round of the split search (optimalSplit's admit): added to
 * `set` (or alone in the first round), can its net value exceed `toBeat`? As the search's own test (mayReach) with
 * the path's surplus bounded from `b` instead of its curve (surplusBound, aloneBound: never below what the curve
 * gives), and, when fees are ranked, less a floor of the fee of the set with the path (`floorFee`: a number, or a
 * function asked only when the gross bound does not settle it). The fee floor is tried before the tighter bound from
 * the path's pools' depth (a few floats against a walk of its pools). So a path it rules out is one the search would
 * not have chosen.
 */
export function mayAdd(
  b: OutputBound,
  set: SetAtRate | undefined,
  toBeat: number,
  tradeType: TradeType,
  fixed: number,
  floorFee: number | (() => number) | undefined,
  path?: PricedPath,
): boolean {
  const surplus = set ? surplusBound(b, set.lambda) : 0;
  const gross = set ? setBound(set, surplus, tradeType) : aloneBound(b, tradeType, fixed);
  if (gross <= toBeat) return false;
  const fee = typeof floorFee === 'function' ? floorFee() : floorFee;
  if (fee !== undefined && gross - fee <= toBeat) return false;
  // Tighter from its pools' depth (pathSurplusBound, dearer), where the caller gives the path.
  if (!set || !path || !(surplus > 0)) return true;
  const bound = setBound(set, Math.min(surplus, pathSurplusBound(path, tradeType, set.lambda) * (1 + OUTPUT_BOUND_SLACK)), tradeType);
  return !(bound <= toBeat) && !(fee !== undefined && bound - fee <= toBeat);
}
