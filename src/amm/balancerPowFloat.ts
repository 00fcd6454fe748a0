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
 * integer), `undefined`. test/protocols/balancerPowFloat.test.ts compares it with LogExpMath's transliteration. ln
 * outside ln_36's window is in balancerLnFloat.ts. The hot code (powUpInto here, that ln's lnTimesY) writes
 * balancerDoubleDouble.ts's steps out on local variables, operation for operation (the same bits): through its registers
 * R, or as calls V8 leaves uninlined in a long function (each double argument boxed), a step costs several times more.
 */

import { add, ceilOf, dd, div, floorOf, floorOfRatio, mul, R, reciprocal, SPLITTER } from './balancerDoubleDouble.ts';
import { lnTimesY, type PowFloatExponent } from './balancerLnFloat.ts';
import { EXP_PRODUCTS, EXP_X, SPLIT_INV_100, SPLIT_INV_E20, SPLIT_INV_E22, TAYLOR_DIVISORS, TAYLOR_F } from './balancerPowTables.ts';

export type { PowFloatExponent } from './balancerLnFloat.ts';

const U2_24 = 2 ** -24;
const U2_30 = 2 ** -30;
const U2_48 = 2 ** -48;
const U2_50 = 2 ** -50;
const U2_67 = 2 ** 67;
const U2_72 = 2 ** -72;
const U2_92 = 2 ** -92;
const E14 = 1e14;
const E18 = 1e18;
const E20 = 1e20;
/** 2^64, the end of the range this path proves. */
const X_END = 2 ** 64;
const Y_MAX = 2 ** 70;
const LOG_MAX = 16e18;
const ONE_36 = dd(10n ** 36n);
/** exp's Taylor terms whose quotient (the next term) is below this are computed in plain doubles... */
const SMALL_TERM = 2 ** 40;
/** ... from a term below this on (an exact double, its low part 0). */
const U2_53 = 2 ** 53;
/** The divisions by constants, as products by their reciprocals (balancerDoubleDouble.ts's reciprocal). */
const INV_E18 = reciprocal(E18);
const INV_E14 = reciprocal(E14);
const INV_E14_HI = 1 / E14;
/** exp's Taylor divisors' reciprocals as the nearest doubles, for the terms in plain doubles. */
const TAYLOR_RECIPROCALS = TAYLOR_DIVISORS.map((n) => 1 / n);
/** floorOfRatio's 1 / (2d) for exp's quotient by 100. */
const HALF_100 = 0.5 / 100;

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
 * bigint path must decide (x at or past the range's bounds 1e17 and 2^64 included). The hot path of every weighted
 * quote with a general exponent, written as ONE function on local variables, deliberately: ln_36's window (z, w = z^2,
 * the series in Horner form in two passes, the second more precise where the first cannot decide, and its truncation),
 * LogExpMath.exp (x100, the reductions, the Taylor sum, the product of the a_k taken and, for a negative argument, the
 * inversion) and their floors are balancerDoubleDouble.ts's add, div, mul, times100, floorOf, floorOfRatio and truncOf
 * written out operation for operation, so the bits are those of the composed steps. As calls, V8 left many of them
 * uninlined (its inlining budget per optimized function), each through the registers R or with its double arguments
 * boxed (a heap allocation each): ~30 steps per quote. The same steps (floorOf's above all) are therefore written out
 * more than once in this one function, deliberately. Calls remain only off the hot path (ln outside ln_36's window in
 * balancerLnFloat.ts, a Taylor term within the plain doubles' margin of an integer) and for powUp's error term
 * (addPowError below, reading R, small enough that V8 inlines it here: `--trace-turbo-inlining`).
 * test/protocols/balancerPowFloat.test.ts checks it against those steps composed (every output and every decline, a
 * seeded sweep) and against LogExpMath's transliteration.
 */
export function powUpInto(y: PowFloatExponent): boolean {
  const xh = R[0];
  const xl = R[1];
  if (!(xh > 1e17 && xh < X_END)) return false;
  // Every local starts as a double: one declared without a value holds undefined until assigned, and where paths merge
  // V8 would then keep it tagged (each double assigned to it a heap allocation).
  let s = 0;
  let v = 0;
  let c = 0;
  let p = 0;
  let t = 0;
  let fh = 0;
  let fl = 0;
  let frac = 0;
  let eps = 0;
  // logx_times_y = trunc(ln(x) * y / 1e18)
  let lh = 0;
  let ll = 0;
  if ((xh > 0.9e18 || (xh === 0.9e18 && xl > 0)) && (xh < 1.1e18 || (xh === 1.1e18 && xl < 0))) {
    // ln_36's window: z = (x - 1e18) / (x + 1e18) (add, add, div), w = z^2 (mul). The contract's series truncations
    // are left out (header of this file).
    s = xh - E18;
    v = s - xh;
    c = xh - (s - v) + (-E18 - v) + xl + 0;
    const nh = s + c;
    const nl = c - (nh - s);
    s = xh + E18;
    v = s - xh;
    c = xh - (s - v) + (E18 - v) + xl + 0;
    const dh = s + c;
    const dl = c - (dh - s);
    const th = nh / dh;
    p = dh * th;
    t = SPLITTER * dh;
    const dhh = t - (t - dh);
    const dhl = dh - dhh;
    t = SPLITTER * th;
    const thh = t - (t - th);
    const thl = th - thh;
    c = dhh * thh - p + dhh * thl + dhl * thh + dhl * thl + dl * th;
    s = p + c;
    const tl = (nh - s + (nl - (c - (s - p)))) / dh;
    const zh = th + tl;
    const zl = tl - (zh - th);
    p = zh * zh;
    t = SPLITTER * zh;
    const zhh = t - (t - zh);
    const zhl = zh - zhh;
    c = zhh * zhh - p + zhh * zhl + zhl * zhh + zhl * zhl + (zh * zl + zl * zh);
    const wh = p + c;
    const wl = c - (wh - p);
    t = SPLITTER * wh;
    const whh = t - (t - wh);
    const whl = wh - whh;
    // Horner in w over the coefficients 2y / (2k + 1), k = 7 .. 0 (y's product folded into them, each within 15u^2 as
    // 1 / (2k + 1) was), then z. The levels k >= kd, whose sum is multiplied by w^kd <= tail, in plain doubles: their
    // relative error, under 2^-50, moves the series by under 2^-50 * tail relative; the double-double levels and
    // products add under 2^-100, so the quotient is within 2^-50 * tail + 2^-98 relative (plus the 2^-30 of the
    // omitted truncations): `relative` must exceed it. First pass tail 2^-24 and relative 2^-72, then, where that
    // cannot decide, 2^-50 and 2^-92.
    const series = y.series;
    for (let pass = 0; ; pass++) {
      const tail = pass === 0 ? U2_24 : U2_50;
      const relative = pass === 0 ? U2_72 : U2_92;
      let kd = 1;
      for (let q = wh; q > tail && kd < 8; kd++) q *= wh;
      let ah = series[14];
      let al = 0;
      let k = 6;
      if (kd < 8) for (; k >= kd; k--) ah = ah * wh + series[2 * k];
      else al = series[15];
      for (; k >= 0; k--) {
        // a * w + c (mul, w's split taken once, and add)
        p = ah * wh;
        t = SPLITTER * ah;
        const ahh = t - (t - ah);
        const ahl = ah - ahh;
        c = ahh * whh - p + ahh * whl + ahl * whh + ahl * whl + (ah * wl + al * wh);
        const mh = p + c;
        const ml = c - (mh - p);
        const ch = series[2 * k];
        s = mh + ch;
        v = s - mh;
        c = mh - (s - v) + (ch - v) + ml + series[2 * k + 1];
        ah = s + c;
        al = c - (ah - s);
      }
      // * z (mul), truncated toward zero (truncOf with a slack of 2^-30)
      p = ah * zh;
      t = SPLITTER * ah;
      const ahh = t - (t - ah);
      const ahl = ah - ahh;
      c = ahh * zhh - p + ahh * zhl + ahl * zhh + ahl * zhl + (ah * zl + al * zh);
      let qh = p + c;
      let ql = c - (qh - p);
      const negative = qh < 0;
      if (negative) {
        qh = -qh;
        ql = -ql;
      }
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
      eps = U2_30 + Math.abs(qh) * relative;
      if (!(frac < eps || frac > 1 - eps)) {
        lh = fh + fl;
        ll = fl - (lh - fh);
        if (negative) {
          lh = -lh;
          ll = -ll;
        }
        break;
      }
      if (pass === 1) return false;
    }
  } else {
    if (!lnTimesY(y)) return false;
    lh = R[0];
    ll = R[1];
  }
  if (!(Math.abs(lh) < LOG_MAX)) return false;
  // exp(logx_times_y): x = |v| * 100 (times100), the reductions by x_4 .. x_9 (add)
  const negative = lh < 0;
  if (negative) {
    lh = -lh;
    ll = -ll;
  }
  p = lh * 100;
  t = SPLITTER * lh;
  const lhh = t - (t - lh);
  c = lhh * 100 - p + (lh - lhh) * 100 + ll * 100;
  let rh = p + c;
  let rl = c - (rh - p);
  let mask = 0;
  for (let i = 0; i < 6; i++) {
    const x = EXP_X[i];
    mask <<= 1;
    if (rh > x || (rh === x && rl >= 0)) {
      s = rh - x;
      v = s - rh;
      c = rh - (s - v) + (-x - v) + rl + 0;
      rh = s + c;
      rl = c - (rh - s);
      mask |= 1;
    }
  }
  // seriesSum = 1e20 + x + the Taylor terms each truncated as the contract truncates it. f = x / 1e20 (mul by 1 / 1e20),
  // the sum's start (add); each term * (f / n): the factor depends on x alone, so only one product stands on the chain.
  p = rh * SPLIT_INV_E20[0];
  t = SPLITTER * rh;
  let ahh = t - (t - rh);
  let ahl = rh - ahh;
  c = ahh * SPLIT_INV_E20[2] - p + ahh * SPLIT_INV_E20[3] + ahl * SPLIT_INV_E20[2] + ahl * SPLIT_INV_E20[3];
  c += rh * SPLIT_INV_E20[1] + rl * SPLIT_INV_E20[0];
  const gfh = p + c;
  const gfl = c - (gfh - p);
  t = SPLITTER * gfh;
  const gfhh = t - (t - gfh);
  const gfhl = gfh - gfhh;
  s = E20 + rh;
  v = s - E20;
  c = E20 - (s - v) + (rh - v) + 0 + rl;
  let sumH = s + c;
  let sumL = c - (sumH - s);
  let termH = rh;
  let termL = rl;
  let i = 0;
  for (; i < 11 && (termH >= U2_53 || termH * gfh * TAYLOR_RECIPROCALS[i] >= SMALL_TERM); i++) {
    // g = f * (1 / n) (mul, its split taken once), q = term * g (mul), term = floor(q) (floorOf), sum += term (add)
    const k = 4 * i;
    const ih = TAYLOR_F[k];
    const ihh = TAYLOR_F[k + 2];
    const ihl = TAYLOR_F[k + 3];
    p = gfh * ih;
    c = gfhh * ihh - p + gfhh * ihl + gfhl * ihh + gfhl * ihl + (gfh * TAYLOR_F[k + 1] + gfl * ih);
    const gh = p + c;
    const gl = c - (gh - p);
    p = termH * gh;
    t = SPLITTER * termH;
    ahh = t - (t - termH);
    ahl = termH - ahh;
    t = SPLITTER * gh;
    const bhh = t - (t - gh);
    const bhl = gh - bhh;
    c = ahh * bhh - p + ahh * bhl + ahl * bhh + ahl * bhl + (termH * gl + termL * gh);
    const qh = p + c;
    const ql = c - (qh - p);
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
    eps = Math.abs(qh) * U2_92;
    if (frac < eps || frac > 1 - eps) return false;
    termH = fh + fl;
    termL = fl - (termH - fh);
    s = sumH + termH;
    v = s - sumH;
    c = sumH - (s - v) + (termH - v) + sumL + termL;
    sumH = s + c;
    sumL = c - (sumH - s);
  }
  // From a term below 2^53 (an exact double, its low part 0) whose quotient is below 2^40 on, the terms in plain
  // doubles: term * (x / 1e20) * (1 / n) with four roundings (x / 1e20's high part, the product, 1 / n, the second
  // product) is within 2^-50 relative of the real quotient whatever the term's size, so its floor is proven 2^-48
  // relative away from an integer; the terms (each below 2^40) and their sum are exact doubles. A quotient within that
  // margin of an integer (about 2^-8 of them for quotients near 2^40) is taken in double-double (mul, mul, floorOf).
  // (Until 2026-11-27 the loop above also took the term whose quotient is the first below 2^40: one product chain more.)
  let small = 0;
  for (let term = termH; i < 11 && term !== 0; i++) {
    const q = term * gfh * TAYLOR_RECIPROCALS[i];
    const next = Math.floor(q);
    eps = q * U2_48;
    if (q - next > eps && q - next < 1 - eps) term = next;
    else {
      mul(term, 0, gfh, gfl);
      mul(R[0], R[1], TAYLOR_F[4 * i], TAYLOR_F[4 * i + 1]);
      if (!floorOf(R[0], R[1])) return false;
      term = R[0]; // an integer below 2^40: R[1] is 0
    }
    small += term;
  }
  s = sumH + small;
  v = s - sumH;
  c = sumH - (s - v) + (small - v) + sumL + 0;
  sumH = s + c;
  sumL = c - (sumH - s);
  // No reduction: seriesSum / 100 (mul by 1 / 100, floorOfRatio); else the a_k's product times seriesSum / 1e22 (mul,
  // mul, floorOf).
  let qh = 0;
  let ql = 0;
  if (mask === 0) {
    p = sumH * SPLIT_INV_100[0];
    t = SPLITTER * sumH;
    ahh = t - (t - sumH);
    ahl = sumH - ahh;
    c = ahh * SPLIT_INV_100[2] - p + ahh * SPLIT_INV_100[3] + ahl * SPLIT_INV_100[2] + ahl * SPLIT_INV_100[3];
    c += sumH * SPLIT_INV_100[1] + sumL * SPLIT_INV_100[0];
    qh = p + c;
    ql = c - (qh - p) + HALF_100;
  } else {
    const k = 4 * mask;
    const ph = EXP_PRODUCTS[k];
    p = ph * sumH;
    t = SPLITTER * sumH;
    ahh = t - (t - sumH);
    ahl = sumH - ahh;
    const bhh = EXP_PRODUCTS[k + 2];
    const bhl = EXP_PRODUCTS[k + 3];
    c = bhh * ahh - p + bhh * ahl + bhl * ahh + bhl * ahl + (ph * sumL + EXP_PRODUCTS[k + 1] * sumH);
    qh = p + c;
    ql = c - (qh - p);
    p = qh * SPLIT_INV_E22[0];
    t = SPLITTER * qh;
    ahh = t - (t - qh);
    ahl = qh - ahh;
    c = ahh * SPLIT_INV_E22[2] - p + ahh * SPLIT_INV_E22[3] + ahl * SPLIT_INV_E22[2] + ahl * SPLIT_INV_E22[3];
    c += qh * SPLIT_INV_E22[1] + ql * SPLIT_INV_E22[0];
    qh = p + c;
    ql = c - (qh - p);
  }
  // the floor of either (floorOf)
  for (let inversion = negative; ; inversion = false) {
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
    eps = Math.abs(qh) * U2_92;
    if (frac < eps || frac > 1 - eps) return false;
    rh = fh + fl;
    rl = fl - (rh - fh);
    if (!inversion) break;
    // A negative argument: exp = 1e36 / exp(-v) (div), floored by the same steps.
    qh = ONE_36[0] / rh;
    p = rh * qh;
    t = SPLITTER * rh;
    ahh = t - (t - rh);
    ahl = rh - ahh;
    t = SPLITTER * qh;
    const qhh = t - (t - qh);
    const qhl = qh - qhh;
    c = ahh * qhh - p + ahh * qhl + ahl * qhh + ahl * qhl + rl * qh;
    s = p + c;
    ql = (ONE_36[0] - s + (ONE_36[1] - (c - (s - p)))) / rh;
    s = qh + ql;
    ql = ql - (s - qh);
    qh = s;
  }
  R[0] = rh;
  R[1] = rl;
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
