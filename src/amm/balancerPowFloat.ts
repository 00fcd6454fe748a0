/**
 * FixedPoint.powUp(x, y) (LogExpMath.pow with the pow error added) computed in double-double floats, returning exactly
 * what the Solidity returns or `undefined` when this path cannot prove its answer (the caller then runs the bigint
 * path, src/amm/balancerPow.ts). Every integer the contract keeps (exp's Taylor terms and sum, ln's reduced argument
 * and series, logx_times_y, the result) is held exactly as a pair of doubles (hi + lo, integers below 2^90 here); each
 * of the contract's truncating divisions floor(a * b / c) is computed as a double-double quotient q with a relative
 * error below 2^-98 (each double-double product or quotient errs by at most 15u^2 = 15 * 2^-106: Joldes, Muller and
 * Popescu, "Tight and rigorous error bounds for basic building blocks of double-word arithmetic", 2017; at most 4 of
 * them stand between exact integers here) and its floor taken only where q is farther than 2^-30 + |q| * 2^-92 from an
 * integer, so the floor of the real quotient is the floor of q. Within ln_36's window the contract's ln_36 series is
 * evaluated without its truncations: they move its 36-decimal sum by under 100 units, which moves ln_36 * y / 1e36 by
 * under 2^-30 for y < 2^70, inside the same margin. Range proven: 1e17 <= x < 2^64, 0 < y < 2^70, |ln(x) * y| < 16e18
 * (results below e^16); outside it, or within a margin (about once per 10^8 quotients, and where a quotient is an exact
 * integer), `undefined`. test/protocols/balancerPowFloat.test.ts compares it with LogExpMath's transliteration. exp is
 * in balancerExpFloat.ts. The hot loops here and there write balancerDoubleDouble.ts's steps out on local variables,
 * operation for operation (the same bits): through its registers R, or as calls V8 leaves uninlined in a long function
 * (each double argument boxed), a step costs several times more.
 */

import { add, ceilOf, dd, div, floorOf, floorOfRatio, mul, R, reciprocal, SPLITTER, times100, truncOf } from './balancerDoubleDouble.ts';
import { expOf } from './balancerExpFloat.ts';
import { LN_ODD, LN_ODD_INVERSES, LN_STEPS } from './balancerPowTables.ts';

const U2_30 = 2 ** -30;
const U2_50 = 2 ** -50;
const U2_24 = 2 ** -24;
const U2_72 = 2 ** -72;
const U2_67 = 2 ** 67;
const U2_92 = 2 ** -92;
const E18 = 1e18;
const E20 = 1e20;
const E14 = 1e14;
/** 2^64, the end of the range this path proves. */
const X_END = 2 ** 64;
const ONE_36 = dd(10n ** 36n);
/** lnTimesY36's z and w = z^2 (hi, lo each) for lnSeriesTimesY: doubles passed as arguments to a call V8 does not
 * inline are boxed (a heap allocation each), in typed arrays they are not (R likewise carries this file's steps' inputs). */
const ZW = new Float64Array(4);
/** The divisions by constants, as products by their reciprocals (balancerDoubleDouble.ts's reciprocal). */
const INV_E18 = reciprocal(E18);
const INV_E14 = reciprocal(E14);
const INV_E14_HI = 1 / E14;
const INV_E20 = reciprocal(E20);
const INV_100 = reciprocal(100);
/** A double-double constant (hi, lo) with hi's Veltkamp halves, as mul splits it: the products written out on locals. */
const split = ([h, l]: readonly [number, number]): number[] => {
  const t = SPLITTER * h;
  const hh = t - (t - h);
  return [h, l, hh, h - hh];
};
const SPLIT_INV_E20 = new Float64Array(split(INV_E20));
/** ln's series divisors' reciprocals, split likewise, 4 doubles each. */
const SPLIT_LN_ODD = new Float64Array(LN_ODD_INVERSES.flatMap(split));
const Y_MAX = 2 ** 70;
const LOG_MAX = 16e18;

/**
 * An exponent y as powUpFloat takes it: y and y / 1e18 in lowest terms (n / d), so that ln(x) * y / 1e18 is an exact
 * ratio of integers whose floor floorOfRatio decides where d is small (weight ratios such as 3, 1/4 or 3/2).
 */
export interface PowFloatExponent {
  /** ln_36's series coefficients times 2y: 2y / (2k + 1) for k = 0 .. 7 as double-doubles (hi at 2k, lo at 2k + 1). */
  readonly series: Float64Array;
  readonly nh: number;
  readonly nl: number;
  readonly d: number;
  /** 1 / d (a product by it stands for the division). */
  readonly invDh: number;
  readonly invDl: number;
}

/** y prepared for powUpFloat, or undefined outside 0 < y < 2^70. */
export function powFloatExponent(y: bigint): PowFloatExponent | undefined {
  if (y <= 0n || y >= BigInt(Y_MAX)) return undefined;
  let a = y;
  let b = 10n ** 18n;
  while (b !== 0n) [a, b] = [b, a % b];
  const [yh, yl] = dd(y);
  const series = new Float64Array(16);
  for (let k = 0; k < 8; k++) {
    div(2 * yh, 2 * yl, 2 * k + 1, 0);
    series[2 * k] = R[0];
    series[2 * k + 1] = R[1];
  }
  const [nh, nl] = dd(y / a);
  const d = 10n ** 18n / a;
  const [invDh, invDl] = reciprocal(d);
  return { series, nh, nl, d: Number(d), invDh, invDl };
}

/** FixedPoint.powUp(x, y) for y prepared by powFloatExponent, or undefined where the bigint path must decide. */
export function powUpFloat(x: bigint, y: PowFloatExponent): bigint | undefined {
  if (x < 100000000000000000n || x >= 18446744073709551616n) return undefined;
  // x < 2^64 as an exact double-double: its top 53 bits and the 11 below.
  const xh = Number(x >> 11n) * 2048;
  const xl = Number(x & 2047n);
  const sh = xh + xl;
  R[0] = sh;
  R[1] = xl - (sh - xh);
  return powUpInto(y) ? BigInt(R[0]) + BigInt(R[1]) : undefined;
}

/**
 * powUpFloat on the exact normalized double-double integer x in (R[0], R[1]), the result into them; false where the
 * bigint path must decide (x at or past the range's bounds 1e17 and 2^64 included). Inputs travel in R rather than as
 * arguments here and below: a double passed to a call V8 does not inline is boxed (a heap allocation).
 */
export function powUpInto(y: PowFloatExponent): boolean {
  const sh = R[0];
  const sl = R[1];
  if (!(sh > 1e17 && sh < X_END)) return false;
  const inWindow = (sh > 0.9e18 || (sh === 0.9e18 && sl > 0)) && (sh < 1.1e18 || (sh === 1.1e18 && sl < 0));
  if (!(inWindow ? lnTimesY36(y.series) : lnTimesY(y))) return false;
  if (!(Math.abs(R[0]) < LOG_MAX)) return false;
  if (!expOf()) return false;
  return addPowError();
}

/**
 * powUp's error term on LogExpMath.pow's exact result raw in (R[0], R[1]), the sum into them: raw + ceil(raw * 1e-14) +
 * 1 = raw + floor((raw + 2e14 - 1) / 1e14); false where a large raw's quotient is not decided. Below 2^67 without a
 * division (a long-latency instruction on the chain) or fmod (a C call in V8): q = floor(raw0 times the double nearest
 * 1e-14) is floor(raw0 / 1e14) or one off either way (raw0 * 1e-14 < 2^21 is within 2^-31 of the real quotient), so
 * rem = raw0 - q * 1e14 lies in (-46566, 1e14 + 46566); q * 1e14 = (q * 5^14) * 2^14 < 2^67 has at most 53 significant
 * bits and rem is an integer below 2^47 (raw0 and q * 1e14 both multiples of ulp(raw0) <= 2^14), both exact. Then t =
 * rem + raw1 + 2e14 - 1 is an exact integer in (2e14 - 2^16, 3e14 + 2^16) (|raw1| <= 2^13) and q + floor(t / 1e14),
 * which is q + 1, 2 or 3 by comparisons, is the sum wanted whichever q was taken (q one less makes t 1e14 more; q is
 * exact on every multiple of 1e14 below 2^67, so 3 is only taken after a q one less, which no raw was seen to give).
 * Larger raw as a double-double product, an exact ratio of denominator 1e14.
 * Exported for test/protocols/balancerPowFloat.test.ts.
 */
export function addPowError(): boolean {
  const raw0 = R[0];
  const raw1 = R[1];
  if (raw0 < U2_67) {
    const q = Math.floor(raw0 * INV_E14_HI);
    const t = raw0 - q * E14 + raw1 + (2e14 - 1);
    add(raw0, raw1, q + (t >= 3e14 ? 3 : t >= 2e14 ? 2 : 1), 0);
    return true;
  }
  add(raw0, raw1, 2e14 - 1, 0);
  mul(R[0], R[1], INV_E14[0], INV_E14[1]);
  if (!floorOfRatio(R[0], R[1], E14)) return false;
  add(raw0, raw1, R[0], R[1]);
  return true;
}

/**
 * () ↦ FixedPoint.powUp(x, y) for this y on the exact double-double integer x in (R[0], R[1]), the result into them, or false where
 * the bigint path must decide; undefined outside powFloatExponent's range. powUp's exact cases: y = 1 is x; y = 2 is
 * mulUp(x, x) and y = 4 mulUp(square, square), each ceil(a * a / 1e18) from a double-double square (8u^2) and a product
 * by 1 / 1e18 (15u^2), decided as ceilOf decides (an exact quotient, x a multiple of 1e9, declines). Bases here are
 * below 2^64 (x^2 below 2^128, the square below 2^70: in a double-double's range).
 */
export function powUpFloatBy(y: bigint): (() => boolean) | undefined {
  if (y === 10n ** 18n) return () => true;
  if (y === 2n * 10n ** 18n) return () => R[0] < X_END && squareUp();
  if (y === 4n * 10n ** 18n) return () => R[0] < X_END && squareUp() && squareUp();
  const prepared = powFloatExponent(y);
  return prepared && (() => powUpInto(prepared));
}

/** mulUp(a, a) = ceil(a * a / 1e18) into (R[0], R[1]) for an exact double-double integer 0 <= a < 2^64. */
function squareUp(): boolean {
  const ah = R[0];
  const al = R[1];
  mul(ah, al, ah, al);
  mul(R[0], R[1], INV_E18[0], INV_E18[1]);
  return ceilOf(R[0], R[1]);
}

/**
 * trunc(ln_36(x) * y / 1e18) into (R[0], R[1]) for 0.9e18 < x < 1.1e18: ((seriesSum * 2) * y) / 1e36 with the series
 * z + z^3/3 + .. + z^15/15 of z = (x - 1) / (x + 1) evaluated without the contract's truncations (see the header).
 * First with the series' tail in plain doubles down to w^k <= 2^-24 (w = z^2) and a margin of 2^-72 relative, then,
 * where that cannot decide, as precisely as the rest of this file (tail to 2^-50, margin 2^-92).
 */
function lnTimesY36(series: Float64Array): boolean {
  const xh = R[0];
  const xl = R[1];
  add(xh, xl, -E18, 0);
  const nh = R[0];
  const nl = R[1];
  add(xh, xl, E18, 0);
  div(nh, nl, R[0], R[1]);
  const zh = R[0];
  const zl = R[1];
  mul(zh, zl, zh, zl);
  ZW[0] = zh;
  ZW[1] = zl;
  ZW[2] = R[0];
  ZW[3] = R[1];
  return lnSeriesTimesY(series, false) || lnSeriesTimesY(series, true);
}

/**
 * lnTimesY36's truncation from z and w = z^2: Horner in w over the coefficients 2y / (2k + 1), k = 7 .. 0 (y's
 * multiplication folded into them: one product less per call; each within 15u^2 as 1 / (2k + 1) was), then z. The levels
 * k >= kd, whose sum is multiplied by w^kd <= `tail`, run in plain doubles: their relative error, under 2^-50, moves
 * the series by under 2^-50 * tail relative; the double-double levels and products add under 2^-100, so the quotient
 * is within 2^-50 * tail + 2^-98 relative (plus the 2^-30 of the omitted truncations): `relative` must exceed it.
 * First pass tail 2^-24 and relative 2^-72, the `precise` one 2^-50 and 2^-92.
 */
function lnSeriesTimesY(series: Float64Array, precise: boolean): boolean {
  const tail = precise ? U2_50 : U2_24;
  const relative = precise ? U2_92 : U2_72;
  const zh = ZW[0];
  const zl = ZW[1];
  const wh = ZW[2];
  const wl = ZW[3];
  let kd = 1;
  for (let p = wh; p > tail && kd < 8; kd++) p *= wh;
  let ah: number;
  let al = 0;
  let k: number;
  if (kd < 8) {
    ah = series[14];
    for (k = 6; k >= kd; k--) ah = ah * wh + series[2 * k];
  } else {
    ah = series[14];
    al = series[15];
    k = 6;
  }
  // Each level a * w + c as balancerDoubleDouble.ts's mul (w's split taken once) and add, on locals.
  let t = SPLITTER * wh;
  const whh = t - (t - wh);
  const whl = wh - whh;
  for (; k >= 0; k--) {
    const p = ah * wh;
    t = SPLITTER * ah;
    const ahh = t - (t - ah);
    const ahl = ah - ahh;
    const m = ahh * whh - p + ahh * whl + ahl * whh + ahl * whl + (ah * wl + al * wh);
    const mh = p + m;
    const ml = m - (mh - p);
    const ch = series[2 * k];
    const s = mh + ch;
    const v = s - mh;
    const e = mh - (s - v) + (ch - v) + ml + series[2 * k + 1];
    ah = s + e;
    al = e - (ah - s);
  }
  mul(ah, al, zh, zl);
  return truncOf(R[0], R[1], U2_30, relative);
}

/** trunc(ln(x) * y / 1e18) into (R[0], R[1]) outside ln_36's window, LogExpMath._ln's truncations each taken exactly. */
function lnTimesY(y: PowFloatExponent): boolean {
  const xh = R[0];
  const xl = R[1];
  const inverted = xh < E18;
  let ah = xh;
  let al = xl;
  if (inverted) {
    div(ONE_36[0], ONE_36[1], xh, xl);
    if (!floorOf(R[0], R[1])) return false;
    ah = R[0];
    al = R[1];
  }
  times100(ah, al);
  ah = R[0];
  al = R[1];
  let sum = 0;
  for (const step of LN_STEPS) {
    if (ah > step.ah || (ah === step.ah && al >= step.al)) {
      mul(ah, al, step.rh, step.rl);
      if (!floorOf(R[0], R[1])) return false;
      ah = R[0];
      al = R[1];
      sum += step.x;
    }
  }
  add(ah, al, -E20, 0);
  const nh = R[0];
  const nl = R[1];
  add(ah, al, E20, 0);
  div(nh, nl, R[0], R[1]);
  mul(R[0], R[1], E20, 0);
  if (!floorOf(R[0], R[1])) return false;
  const zh = R[0];
  const zl = R[1];
  mul(zh, zl, zh, zl);
  mul(R[0], R[1], INV_E20[0], INV_E20[1]);
  if (!floorOf(R[0], R[1])) return false;
  const wh = R[0];
  const wl = R[1];
  let numH = zh;
  let numL = zl;
  let sumH = zh;
  let sumL = zl;
  // The series' steps (mul, mul, floorOf, mul, floorOfRatio, add) on locals; w's split taken once, the constants' at load.
  let sp = SPLITTER * wh;
  const whh = sp - (sp - wh);
  const whl = wh - whh;
  for (let i = 0; i < 5 && numH !== 0; i++) {
    // num * w
    let p = numH * wh;
    sp = SPLITTER * numH;
    let ahh = sp - (sp - numH);
    let ahl = numH - ahh;
    let c = ahh * whh - p + ahh * whl + ahl * whh + ahl * whl + (numH * wl + numL * wh);
    let qh = p + c;
    let ql = c - (qh - p);
    // * (1 / 1e20), floored
    p = qh * SPLIT_INV_E20[0];
    sp = SPLITTER * qh;
    ahh = sp - (sp - qh);
    ahl = qh - ahh;
    c = ahh * SPLIT_INV_E20[2] - p + ahh * SPLIT_INV_E20[3] + ahl * SPLIT_INV_E20[2] + ahl * SPLIT_INV_E20[3];
    c += qh * SPLIT_INV_E20[1] + ql * SPLIT_INV_E20[0];
    qh = p + c;
    ql = c - (qh - p);
    if (!floorOf(qh, ql)) return false;
    numH = R[0];
    numL = R[1];
    // num / (2i + 3), floored as a ratio
    const k = 4 * i;
    p = numH * SPLIT_LN_ODD[k];
    sp = SPLITTER * numH;
    ahh = sp - (sp - numH);
    ahl = numH - ahh;
    c = ahh * SPLIT_LN_ODD[k + 2] - p + ahh * SPLIT_LN_ODD[k + 3] + ahl * SPLIT_LN_ODD[k + 2] + ahl * SPLIT_LN_ODD[k + 3];
    c += numH * SPLIT_LN_ODD[k + 1] + numL * SPLIT_LN_ODD[k];
    qh = p + c;
    if (!floorOfRatio(qh, c - (qh - p), LN_ODD[i])) return false;
    // sum += that
    const th = R[0];
    const s = sumH + th;
    const v = s - sumH;
    c = sumH - (s - v) + (th - v) + sumL + R[1];
    sumH = s + c;
    sumL = c - (sumH - s);
  }
  // ln = (sum + seriesSum * 2) / 100, then ln * y / 1e18, both truncated toward zero.
  add(sum, 0, 2 * sumH, 2 * sumL);
  mul(R[0], R[1], INV_100[0], INV_100[1]);
  if (!floorOfRatio(R[0], R[1], 100)) return false;
  const p = inverted ? -R[0] : R[0];
  const t = inverted ? -R[1] : R[1];
  // ln * n / d; below d = 2^20 its error (|ln * y / 1e18| < 2^66 here, so under 2^-32) is within floorOfRatio's 1 / (4d).
  mul(p, t, y.nh, y.nl);
  mul(R[0], R[1], y.invDh, y.invDl);
  if (y.d > 1048576) return truncOf(R[0], R[1]);
  if (R[0] >= 0) return floorOfRatio(R[0], R[1], y.d);
  if (!floorOfRatio(-R[0], -R[1], y.d)) return false;
  R[0] = -R[0];
  R[1] = -R[1];
  return true;
}
