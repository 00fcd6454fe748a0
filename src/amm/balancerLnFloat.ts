/**
 * LogExpMath's ln outside ln_36's window times the exponent, for src/amm/balancerPowFloat.ts (whose header states the
 * method and the range; ln_36's window and exp are written out in its powUpInto): each of _ln's truncations taken
 * exactly, the series' steps written out on locals, operation for operation as balancerDoubleDouble.ts's mul, floorOf
 * and add compute them (the same bits).
 */

import { add, dd, div, floorOf, floorOfRatio, mul, R, reciprocal, SPLITTER, times100, truncOf } from './balancerDoubleDouble.ts';
import { LN_ODD, LN_STEPS, SPLIT_INV_E20, SPLIT_LN_ODD } from './balancerPowTables.ts';

const E20 = 1e20;
const E18 = 1e18;
const ONE_36 = dd(10n ** 36n);
const INV_100 = reciprocal(100);

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

/** trunc(ln(x) * y / 1e18) into (R[0], R[1]) outside ln_36's window, LogExpMath._ln's truncations each taken exactly. */
export function lnTimesY(y: PowFloatExponent): boolean {
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
  mul(R[0], R[1], SPLIT_INV_E20[0], SPLIT_INV_E20[1]);
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
