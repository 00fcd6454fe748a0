import type { TradeType } from '../protocols/PoolProtocol.ts';
import { handoverShares, type PoolCurve, pathPoolCurves } from './pathCurve.ts';
import type { PricedPath } from './priceRoutes.ts';

/*
 * Bounds of a path's float curve (pathCurve.ts) from its pools' own curves, known before the path's curve is built:
 * what the search reads to leave a path's curve unbuilt (bestTrade.ts, singlePath.ts, stagedRoutes.ts mayAdd).
 */

/**
 * A path's pools' own curves (in its directions), with the hop data its bounds read: where hop h's input is at most t
 * times `before[h]` (the rates at zero of the hops before it and the hand-over shares up to it) and what leaves it
 * passes on at most at `after[h]` (the later hops' rates and shares). Kept per path and side (its pools do not
 * change; an exact-output search may read other pool curves, PoolProtocol.curveBySide).
 */
interface PathPools {
  readonly curves: readonly PoolCurve[];
  readonly before: readonly number[];
  readonly after: readonly number[];
}

const pathPools = new WeakMap<PricedPath, [exactIn?: PathPools | null, exactOut?: PathPools | null]>();

/** A path's PathPools for a search of `tradeType`; null when a pool has no segment (its known state carries nothing). */
function poolsOf(path: PricedPath, tradeType: TradeType): PathPools | null {
  let sides = pathPools.get(path);
  if (!sides) {
    sides = [];
    pathPools.set(path, sides);
  }
  const side = tradeType === 'exactIn' ? 0 : 1;
  let known = sides[side];
  if (known !== undefined) return known;
  const n = path.pools.length;
  const kept = handoverShares(path);
  const curves: PoolCurve[] = [];
  const rates: number[] = [];
  const hops = pathPoolCurves(path, tradeType);
  for (let h = 0; h < n && known === undefined; h++) {
    const curve = hops[h];
    const s = curve.segment(0);
    if (!s) known = null;
    else {
      curves.push(curve);
      rates.push((kept ? kept[h] : 1) * (s.a / s.b));
    }
  }
  if (known === undefined) {
    const before: number[] = new Array(n);
    const after: number[] = new Array(n);
    let r = 1;
    for (let h = 0; h < n; h++) {
      before[h] = r * (kept ? kept[h] : 1);
      r *= rates[h];
    }
    r = 1;
    for (let h = n - 1; h >= 0; h--) {
      after[h] = r;
      r *= rates[h];
    }
    known = { curves, before, after };
  }
  sides[side] = known;
  return known;
}

/**
 * A bound of a path's float output for an input t, from its pools' own curves, without building the path's: each hop's
 * output is concave through the origin, so the input reaching hop h is at most t times the rates at zero of the hops
 * before it (and their hand-over shares), and what leaves it passes on at most at the later hops' rates at zero: the
 * least over the hops of (rates after h) × (h's output for that input). Up to float rounding, never below the path
 * curve's output at t (outputAt).
 */
export function pathOutputBound(path: PricedPath, tradeType: TradeType, t: number): number {
  const p = poolsOf(path, tradeType);
  if (!p) return 0;
  let bound = Number.POSITIVE_INFINITY;
  for (let h = 0; h < p.curves.length; h++) {
    const out = p.after[h] * p.curves[h].outputAt(p.before[h] * t);
    if (out < bound) bound = out;
  }
  return bound;
}

/**
 * A bound of what a path adds at a common marginal rate λ (surplusAt on its curve: max over t of output(t) − λ t)
 * from its pools' own curves: output(t) is at most A·out_h(B t) for each hop h (pathOutputBound: B the rates at zero
 * before h, A those after), so the surplus is at most, for each h, A times hop h's own surplus at the rate λ / (A B).
 * Up to float rounding, never below the path curve's.
 */
export function pathSurplusBound(path: PricedPath, tradeType: TradeType, lambda: number): number {
  const p = poolsOf(path, tradeType);
  if (!p) return 0;
  let bound = Number.POSITIVE_INFINITY;
  for (let h = 0; h < p.curves.length; h++) {
    const after = p.after[h];
    const own = after * p.curves[h].surplusAt(lambda / (after * p.before[h]));
    if (own < bound) bound = own;
  }
  return bound;
}
