/**
 * LogExpMath's ln outside ln_36's window times the exponent, for src/amm/balancerPowFloat.ts (whose header states the
 * method and the range; ln_36's window and exp are written out in its powUpInto): each of _ln's truncations taken
 * exactly, every step written out on locals, operation for operation as balancerDoubleDouble.ts's div, times100, mul,
 * add, floorOf, floorOfRatio and truncOf compute them (the same bits; test/protocols/balancerPowFloat.test.ts checks it
 * against those primitives composed, test/helpers/balancerLnComposed.ts). As calls, V8 inlined five of its twenty and
 * boxed the doubles passed to the others (about 550 bytes allocated per call, 2026-11-27).
 */

import { dd, R, SPLITTER } from './balancerDoubleDouble.ts';
import { LN_ODD, LN_STEPS, SPLIT_INV_100, SPLIT_INV_E20, SPLIT_LN_ODD } from './balancerPowTables.ts';

const E20 = 1e20;
const E18 = 1e18;
const ONE_36 = dd(10n ** 36n);
const U2_92 = 2 ** -92;
/** Below this denominator the last quotient's floor is taken as floorOfRatio takes it. */
const RATIO_D = 1048576;

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
  // Every local starts as a double (balancerPowFloat.ts's powUpInto says why).
  let ah = xh;
  let al = xl;
  let p = 0;
  let t = 0;
  let c = 0;
  let s = 0;
  let v = 0;
  let qh = 0;
  let ql = 0;
  let bhh = 0;
  let bhl = 0;
  let fh = 0;
  let fl = 0;
  let frac = 0;
  let eps = 0;
  if (inverted) {
    // 1e36 / x (div), floored (floorOf)
    const th = ONE_36[0] / xh;
    p = xh * th;
    t = SPLITTER * xh;
    bhh = t - (t - xh);
    bhl = xh - bhh;
    t = SPLITTER * th;
    const thh = t - (t - th);
    const thl = th - thh;
    c = bhh * thh - p + bhh * thl + bhl * thh + bhl * thl + xl * th;
    s = p + c;
    const tl = (ONE_36[0] - s + (ONE_36[1] - (c - (s - p)))) / xh;
    qh = th + tl;
    ql = tl - (qh - th);
    fh = Math.floor(qh);
    fl = 0;
    if (fh === qh) {
      fl = Math.floor(ql);
      frac = ql - fl;
    } else {
      frac = qh - fh + ql;
      if (frac < 0) {
        fh -= 1;
        frac += 1;
      } else if (frac >= 1) {
        fh += 1;
        frac -= 1;
      }
    }
    eps = 0 + Math.abs(qh) * U2_92;
    if (frac < eps || frac > 1 - eps) return false;
    ah = fh + fl;
    al = fl - (ah - fh);
  }
  // * 100 (times100)
  p = ah * 100;
  t = SPLITTER * ah;
  const hh = t - (t - ah);
  c = hh * 100 - p + (ah - hh) * 100 + al * 100;
  ah = p + c;
  al = c - (ah - p);
  // the reductions by a_k (mul by 1e20 / a_k, floorOf)
  let sum = 0;
  for (let k = 0; k < LN_STEPS.length; k++) {
    const step = LN_STEPS[k];
    if (ah > step.ah || (ah === step.ah && al >= step.al)) {
      const rh = step.rh;
      p = ah * rh;
      t = SPLITTER * ah;
      const ahh = t - (t - ah);
      const ahl = ah - ahh;
      t = SPLITTER * rh;
      bhh = t - (t - rh);
      bhl = rh - bhh;
      c = ahh * bhh - p + ahh * bhl + ahl * bhh + ahl * bhl + (ah * step.rl + al * rh);
      qh = p + c;
      ql = c - (qh - p);
      fh = Math.floor(qh);
      fl = 0;
      if (fh === qh) {
        fl = Math.floor(ql);
        frac = ql - fl;
      } else {
        frac = qh - fh + ql;
        if (frac < 0) {
          fh -= 1;
          frac += 1;
        } else if (frac >= 1) {
          fh += 1;
          frac -= 1;
        }
      }
      eps = 0 + Math.abs(qh) * U2_92;
      if (frac < eps || frac > 1 - eps) return false;
      ah = fh + fl;
      al = fl - (ah - fh);
      sum += step.x;
    }
  }
  // z = (a - 1e20) * 1e20 / (a + 1e20): add, add, div, mul by 1e20 (low part 0), floorOf
  s = ah + -E20;
  v = s - ah;
  c = ah - (s - v) + (-E20 - v) + al + 0;
  const nh = s + c;
  const nl = c - (nh - s);
  s = ah + E20;
  v = s - ah;
  c = ah - (s - v) + (E20 - v) + al + 0;
  const dh = s + c;
  const dl = c - (dh - s);
  const th = nh / dh;
  p = dh * th;
  t = SPLITTER * dh;
  bhh = t - (t - dh);
  bhl = dh - bhh;
  t = SPLITTER * th;
  let thh = t - (t - th);
  let thl = th - thh;
  c = bhh * thh - p + bhh * thl + bhl * thh + bhl * thl + dl * th;
  s = p + c;
  const tl = (nh - s + (nl - (c - (s - p)))) / dh;
  const rh = th + tl;
  const rl = tl - (rh - th);
  p = rh * E20;
  t = SPLITTER * rh;
  thh = t - (t - rh);
  thl = rh - thh;
  t = SPLITTER * E20;
  bhh = t - (t - E20);
  bhl = E20 - bhh;
  c = thh * bhh - p + thh * bhl + thl * bhh + thl * bhl + (rh * 0 + rl * E20);
  qh = p + c;
  ql = c - (qh - p);
  fh = Math.floor(qh);
  fl = 0;
  if (fh === qh) {
    fl = Math.floor(ql);
    frac = ql - fl;
  } else {
    frac = qh - fh + ql;
    if (frac < 0) {
      fh -= 1;
      frac += 1;
    } else if (frac >= 1) {
      fh += 1;
      frac -= 1;
    }
  }
  eps = 0 + Math.abs(qh) * U2_92;
  if (frac < eps || frac > 1 - eps) return false;
  const zh = fh + fl;
  const zl = fl - (zh - fh);
  // w = z * z / 1e20: mul, mul by 1 / 1e20, floorOf
  p = zh * zh;
  t = SPLITTER * zh;
  const zhh = t - (t - zh);
  const zhl = zh - zhh;
  c = zhh * zhh - p + zhh * zhl + zhl * zhh + zhl * zhl + (zh * zl + zl * zh);
  qh = p + c;
  ql = c - (qh - p);
  p = qh * SPLIT_INV_E20[0];
  t = SPLITTER * qh;
  thh = t - (t - qh);
  thl = qh - thh;
  c = thh * SPLIT_INV_E20[2] - p + thh * SPLIT_INV_E20[3] + thl * SPLIT_INV_E20[2] + thl * SPLIT_INV_E20[3];
  c += qh * SPLIT_INV_E20[1] + ql * SPLIT_INV_E20[0];
  qh = p + c;
  ql = c - (qh - p);
  fh = Math.floor(qh);
  fl = 0;
  if (fh === qh) {
    fl = Math.floor(ql);
    frac = ql - fl;
  } else {
    frac = qh - fh + ql;
    if (frac < 0) {
      fh -= 1;
      frac += 1;
    } else if (frac >= 1) {
      fh += 1;
      frac -= 1;
    }
  }
  eps = 0 + Math.abs(qh) * U2_92;
  if (frac < eps || frac > 1 - eps) return false;
  const wh = fh + fl;
  const wl = fl - (wh - fh);
  let numH = zh;
  let numL = zl;
  let sumH = zh;
  let sumL = zl;
  // The series: num = floor(num * w / 1e20) (mul, mul, floorOf), sum += floor(num / (2i + 3)) (mul, floorOfRatio, add);
  // w's split taken once, the constants' at load.
  t = SPLITTER * wh;
  const whh = t - (t - wh);
  const whl = wh - whh;
  for (let i = 0; i < 5 && numH !== 0; i++) {
    // num * w
    p = numH * wh;
    t = SPLITTER * numH;
    let xhh = t - (t - numH);
    let xhl = numH - xhh;
    c = xhh * whh - p + xhh * whl + xhl * whh + xhl * whl + (numH * wl + numL * wh);
    qh = p + c;
    ql = c - (qh - p);
    // * (1 / 1e20), floored
    p = qh * SPLIT_INV_E20[0];
    t = SPLITTER * qh;
    xhh = t - (t - qh);
    xhl = qh - xhh;
    c = xhh * SPLIT_INV_E20[2] - p + xhh * SPLIT_INV_E20[3] + xhl * SPLIT_INV_E20[2] + xhl * SPLIT_INV_E20[3];
    c += qh * SPLIT_INV_E20[1] + ql * SPLIT_INV_E20[0];
    qh = p + c;
    ql = c - (qh - p);
    fh = Math.floor(qh);
    fl = 0;
    if (fh === qh) {
      fl = Math.floor(ql);
      frac = ql - fl;
    } else {
      frac = qh - fh + ql;
      if (frac < 0) {
        fh -= 1;
        frac += 1;
      } else if (frac >= 1) {
        fh += 1;
        frac -= 1;
      }
    }
    eps = 0 + Math.abs(qh) * U2_92;
    if (frac < eps || frac > 1 - eps) return false;
    numH = fh + fl;
    numL = fl - (numH - fh);
    // num / (2i + 3), floored as a ratio
    const k = 4 * i;
    p = numH * SPLIT_LN_ODD[k];
    t = SPLITTER * numH;
    xhh = t - (t - numH);
    xhl = numH - xhh;
    c = xhh * SPLIT_LN_ODD[k + 2] - p + xhh * SPLIT_LN_ODD[k + 3] + xhl * SPLIT_LN_ODD[k + 2] + xhl * SPLIT_LN_ODD[k + 3];
    c += numH * SPLIT_LN_ODD[k + 1] + numL * SPLIT_LN_ODD[k];
    qh = p + c;
    ql = c - (qh - p) + 0.5 / LN_ODD[i];
    fh = Math.floor(qh);
    fl = 0;
    if (fh === qh) {
      fl = Math.floor(ql);
      frac = ql - fl;
    } else {
      frac = qh - fh + ql;
      if (frac < 0) {
        fh -= 1;
        frac += 1;
      } else if (frac >= 1) {
        fh += 1;
        frac -= 1;
      }
    }
    eps = 0 + Math.abs(qh) * U2_92;
    if (frac < eps || frac > 1 - eps) return false;
    const sh = fh + fl;
    const sl = fl - (sh - fh);
    // sum += that
    s = sumH + sh;
    v = s - sumH;
    c = sumH - (s - v) + (sh - v) + sumL + sl;
    sumH = s + c;
    sumL = c - (sumH - s);
  }
  // ln = (sum + seriesSum * 2) / 100 (add, mul by 1 / 100, floorOfRatio), then ln * y / 1e18, both truncated toward zero.
  const sh2 = 2 * sumH;
  s = sum + sh2;
  v = s - sum;
  c = sum - (s - v) + (sh2 - v) + 0 + 2 * sumL;
  ah = s + c;
  al = c - (ah - s);
  p = ah * SPLIT_INV_100[0];
  t = SPLITTER * ah;
  thh = t - (t - ah);
  thl = ah - thh;
  c = thh * SPLIT_INV_100[2] - p + thh * SPLIT_INV_100[3] + thl * SPLIT_INV_100[2] + thl * SPLIT_INV_100[3];
  c += ah * SPLIT_INV_100[1] + al * SPLIT_INV_100[0];
  qh = p + c;
  ql = c - (qh - p) + 0.5 / 100;
  fh = Math.floor(qh);
  fl = 0;
  if (fh === qh) {
    fl = Math.floor(ql);
    frac = ql - fl;
  } else {
    frac = qh - fh + ql;
    if (frac < 0) {
      fh -= 1;
      frac += 1;
    } else if (frac >= 1) {
      fh += 1;
      frac -= 1;
    }
  }
  eps = 0 + Math.abs(qh) * U2_92;
  if (frac < eps || frac > 1 - eps) return false;
  ah = fh + fl;
  al = fl - (ah - fh);
  if (inverted) {
    ah = -ah;
    al = -al;
  }
  // ln * n / d (mul, mul by 1 / d); below d = 2^20 its error (|ln * y / 1e18| < 2^66 here, so under 2^-32) is within
  // floorOfRatio's 1 / (4d), else truncOf.
  const nyh = y.nh;
  p = ah * nyh;
  t = SPLITTER * ah;
  thh = t - (t - ah);
  thl = ah - thh;
  t = SPLITTER * nyh;
  bhh = t - (t - nyh);
  bhl = nyh - bhh;
  c = thh * bhh - p + thh * bhl + thl * bhh + thl * bhl + (ah * y.nl + al * nyh);
  qh = p + c;
  ql = c - (qh - p);
  const ih = y.invDh;
  p = qh * ih;
  t = SPLITTER * qh;
  thh = t - (t - qh);
  thl = qh - thh;
  t = SPLITTER * ih;
  bhh = t - (t - ih);
  bhl = ih - bhh;
  c = thh * bhh - p + thh * bhl + thl * bhh + thl * bhl + (qh * y.invDl + ql * ih);
  qh = p + c;
  ql = c - (qh - p);
  const negative = !(qh >= 0);
  if (negative) {
    qh = -qh;
    ql = -ql;
  }
  if (y.d <= RATIO_D) ql += 0.5 / y.d;
  fh = Math.floor(qh);
  fl = 0;
  if (fh === qh) {
    fl = Math.floor(ql);
    frac = ql - fl;
  } else {
    frac = qh - fh + ql;
    if (frac < 0) {
      fh -= 1;
      frac += 1;
    } else if (frac >= 1) {
      fh += 1;
      frac -= 1;
    }
  }
  eps = 0 + Math.abs(qh) * U2_92;
  if (frac < eps || frac > 1 - eps) return false;
  ah = fh + fl;
  al = fl - (ah - fh);
  R[0] = negative ? -ah : ah;
  R[1] = negative ? -al : al;
  return true;
}
