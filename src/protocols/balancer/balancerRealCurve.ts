/**
 * A Balancer v2 pool's real-valued exact-input curve in floats, which its exact integer math stays below (a few units
 * aside): what balancerCurve.ts samples and bounds. Weighted from its weights, stable from StableMath's invariant.
 */
import { type BalancerPoolState, type BalancerStableState, stableSwapState } from './balancerState.ts';

/**
 * A weighted pool's real-valued output for a raw input, fee included: Bo (1 - (Bi / (Bi + x (1 - fee)))^(wi / wo)),
 * which the exact math never exceeds (the exponent rounded down, powUp, the base rounded up, the fee rounded up, the
 * amounts scaled down: all in the pool's favour; the scaling factors cancel in raw units).
 */
export function weightedReal(state: BalancerPoolState, iIn: number, iOut: number): RealCurve | undefined {
  if (state.kind !== 'balancerWeighted') return undefined;
  const keep = 1 - Number(state.swapFee) / 1e18;
  const r = Number(state.weights[iIn]) / Number(state.weights[iOut]);
  const bi = Number(state.balances[iIn]);
  const bo = Number(state.balances[iOut]);
  // The 30% limit of an exact input (of the balance in, net of the fee), a billionth short: the split search must not
  // give the pool more.
  const limit = ((bi * 0.3) / keep) * (1 - 1e-9);
  // An exact output's limit (30% of the balance out) as the input the real curve asks for it,
  // Bi ((1 / 0.7)^(wo / wi) - 1) / (1 - fee), a millionth further (float rounding aside, the curve there is past 30% of
  // the balance out): beyond the exact-input limit where wi / wo is below 1.36.
  const outLimit = ((bi * Math.expm1(-Math.log1p(-0.3) / r)) / keep) * (1 + 1e-6);
  return { real: (x) => -bo * Math.expm1(-r * Math.log1p((x * keep) / bi)), limit, outLimit, error: 0 };
}

/** A pool direction's real-valued curve in floats, with an absolute error bound (raw output units). */
export interface RealCurve {
  readonly real: (x: number) => number;
  /** Weighted: the input past which every exact-input swap reverts. */
  readonly limit?: number;
  /** Weighted: the most input an exact output asks (for 30% of the balance out, the most it may take). */
  readonly outLimit?: number;
  readonly error: number;
}

/**
 * A stable pool's real-valued output for a raw input, fee included: the balance out less the one StableMath's
 * invariant keeps with the input added, y^2 + (S' + D / Ann - D) y = D^(n+1) / (n^n P' Ann) (S', P': the other upscaled
 * balances' sum and product), solved in floats without cancellation; its error, a few ulps of the balances.
 */
export function stableReal(state: BalancerPoolState, iIn: number, iOut: number): RealCurve | undefined {
  if (state.kind !== 'balancerStable') return undefined;
  const { keep, i, o, factors, x, n, ann, d } = stableFloats(state, iIn, iOut);
  let others = 0;
  let dp = 1 / ann;
  for (let t = 0; t < n; t++) {
    dp = (dp * d) / n;
    if (t !== o) {
      others += x[t];
      dp /= x[t];
    }
  }
  dp *= d;
  const toRaw = 1e18 / factors[o];
  const total = x.reduce((a, b) => a + b, 0);
  return {
    real: (raw) => {
      const added = (raw * keep * factors[i]) / 1e18;
      // c over the input token's new balance, b as the quadratic's linear coefficient.
      const c = (dp * x[i]) / (x[i] + added);
      const b = others + added + d / ann - d;
      const root = Math.sqrt(b * b + 4 * c);
      const y = b >= 0 ? (2 * c) / (b + root) : (root - b) / 2;
      return (x[o] - y) * toRaw;
    },
    error: total * 1e-14 * toRaw,
  };
}

/**
 * An upper bound of the pool's marginal rate at zero (raw output per raw input, fee included), before balancerCurve.ts adds its RATE_MARGIN.
 * Weighted: (1 - fee) Bo wi / (Bi wo). Stable (StableMath: Ann S + D = Ann D + D^(n+1) / (n^n P), Ann = amp n): the
 * invariant's gradient, (Ann + K / x_in) / (Ann + K / x_out) with K = D^(n+1) / (n^n P), on upscaled balances, times
 * the scaling factors' ratio.
 */
export function rateAtZero(state: BalancerPoolState, iIn: number, iOut: number): number {
  if (state.kind === 'balancerWeighted') {
    const keep = 1 - Number(state.swapFee) / 1e18;
    return (keep * Number(state.balances[iOut]) * Number(state.weights[iIn])) / (Number(state.balances[iIn]) * Number(state.weights[iOut]));
  }
  const { keep, i, o, factors, x, n, ann, d } = stableFloats(state, iIn, iOut);
  let k = d;
  for (const b of x) k = (k * d) / (b * n);
  return ((keep * (ann + k / x[i])) / (ann + k / x[o])) * (factors[i] / factors[o]);
}

/**
 * A stable pool's state in floats for one direction: the share of an input the fee keeps, the tokens' indices without
 * the BPT, their scaling factors and upscaled balances, Ann (amp n without AMP_PRECISION) and the invariant.
 */
function stableFloats(state: BalancerStableState, iIn: number, iOut: number) {
  const swap = stableSwapState(state, 0n);
  const factors = swap.scalingFactors.map(Number);
  const x = swap.balances.map((b, t) => (Number(b) * factors[t]) / 1e18);
  const n = x.length;
  const ann = (Number(swap.amp) * n) / 1000;
  return {
    keep: 1 - Number(state.swapFee) / 1e18,
    i: iIn > state.bptIndex ? iIn - 1 : iIn,
    o: iOut > state.bptIndex ? iOut - 1 : iOut,
    factors,
    x,
    n,
    ann,
    d: invariant(ann, x),
  };
}

/** StableMath's invariant in floats (Newton as the contract), Ann = amp n without AMP_PRECISION. */
function invariant(ann: number, x: readonly number[]): number {
  const n = x.length;
  const sum = x.reduce((a, b) => a + b, 0);
  let d = sum;
  for (let it = 0; it < 255; it++) {
    let dp = d;
    for (const b of x) dp = (dp * d) / (b * n);
    const prev = d;
    d = ((ann * sum + dp * n) * d) / ((ann - 1) * d + (n + 1) * dp);
    if (Math.abs(d - prev) <= prev * 1e-15) break;
  }
  return d;
}
