/**
 * LogExpMath.exp on an exact double-double integer, for src/amm/balancerPowFloat.ts (whose header states the method
 * and the range). The double-double steps of the Taylor loop are written out on local variables, operation for
 * operation as balancerDoubleDouble.ts's mul, floorOf and add compute them (so the results are the same bits): a step
 * through that file's registers R costs a store and a load of each part more.
 */

import { add, dd, div, floorOf, floorOfRatio, mul, R, reciprocal, SPLITTER, times100 } from './balancerDoubleDouble.ts';
import { EXP_PRODUCTS, EXP_X, TAYLOR_DIVISORS, TAYLOR_INVERSES } from './balancerPowTables.ts';

const E20 = 1e20;
const U2_48 = 2 ** -48;
const U2_92 = 2 ** -92;
/** exp's Taylor terms below this are computed in plain doubles. */
const SMALL_TERM = 2 ** 40;
const ONE_36 = dd(10n ** 36n);
/** The divisions by constants, as products by their reciprocals (balancerDoubleDouble.ts's reciprocal). */
const INV_E20 = reciprocal(E20);
const INV_100 = reciprocal(100);
const INV_E22 = reciprocal(10n ** 22n);
/** 1 / n for exp's Taylor divisors, 4 doubles each: hi, lo and hi's Veltkamp halves (mul's split, taken once). */
const TAYLOR_F = new Float64Array(
  TAYLOR_INVERSES.flatMap(([h, l]) => {
    const t = SPLITTER * h;
    const hh = t - (t - h);
    return [h, l, hh, h - hh];
  }),
);
/** The same divisors' reciprocals as the nearest doubles, for the terms in plain doubles. */
const TAYLOR_RECIPROCALS = TAYLOR_DIVISORS.map((n) => 1 / n);

/** LogExpMath.exp(v) into (R[0], R[1]) for an exact integer |v| < 16e18. */
export function expOf(): boolean {
  let vh = R[0];
  let vl = R[1];
  const negative = vh < 0;
  if (negative) {
    vh = -vh;
    vl = -vl;
  }
  times100(vh, vl);
  let xh = R[0];
  let xl = R[1];
  let mask = 0;
  for (let i = 0; i < 6; i++) {
    const c = EXP_X[i];
    mask <<= 1;
    if (xh > c || (xh === c && xl >= 0)) {
      // add(xh, xl, -c, 0) on locals
      const s = xh - c;
      const v = s - xh;
      const e = xh - (s - v) + (-c - v) + xl + 0;
      xh = s + e;
      xl = e - (xh - s);
      mask |= 1;
    }
  }
  R[0] = xh;
  R[1] = xl;
  if (!taylorSum()) return false;
  const sumH = R[0];
  const sumL = R[1];
  if (mask === 0) {
    mul(sumH, sumL, INV_100[0], INV_100[1]);
    if (!floorOfRatio(R[0], R[1], 100)) return false;
  } else {
    const [ph, pl] = EXP_PRODUCTS[mask];
    mul(ph, pl, sumH, sumL);
    mul(R[0], R[1], INV_E22[0], INV_E22[1]);
    if (!floorOf(R[0], R[1])) return false;
  }
  if (!negative) return true;
  div(ONE_36[0], ONE_36[1], R[0], R[1]);
  return floorOf(R[0], R[1]);
}

/**
 * exp's seriesSum, 1e20 + x + the Taylor terms each truncated as the contract truncates it, into (R[0], R[1]) for the
 * reduced 0 <= x < 2.5e19; false where a term's floor is not decided. (A function of its own: V8 inlines a bounded
 * amount of code into each optimized function.)
 */
function taylorSum(): boolean {
  const xh = R[0];
  const xl = R[1];
  mul(xh, xl, INV_E20[0], INV_E20[1]);
  const fh = R[0];
  const fl = R[1];
  let t = SPLITTER * fh;
  const fhh = t - (t - fh);
  const fhl = fh - fhh;
  add(E20, 0, xh, xl);
  let sumH = R[0];
  let sumL = R[1];
  let termH = xh;
  let termL = xl;
  let i = 0;
  for (; i < 11 && termH >= SMALL_TERM; i++) {
    // term * (x / (1e20 n)): the factor depends on x alone, so only one product stands on the chain of terms.
    // g = mul(f, 1 / n), its split taken once
    const k = 4 * i;
    const ih = TAYLOR_F[k];
    const ihh = TAYLOR_F[k + 2];
    const ihl = TAYLOR_F[k + 3];
    let p = fh * ih;
    let e = fhh * ihh - p + fhh * ihl + fhl * ihh + fhl * ihl;
    let c = e + (fh * TAYLOR_F[k + 1] + fl * ih);
    const gh = p + c;
    const gl = c - (gh - p);
    // q = mul(term, g)
    p = termH * gh;
    t = SPLITTER * termH;
    const ahh = t - (t - termH);
    const ahl = termH - ahh;
    t = SPLITTER * gh;
    const bhh = t - (t - gh);
    const bhl = gh - bhh;
    e = ahh * bhh - p + ahh * bhl + ahl * bhh + ahl * bhl;
    c = e + (termH * gl + termL * gh);
    const qh = p + c;
    const ql = c - (qh - p);
    // term = floorOf(q)
    let floorH = Math.floor(qh);
    let floorL = 0;
    let frac: number;
    if (floorH === qh) {
      floorL = Math.floor(ql);
      frac = ql - floorL;
    } else {
      frac = qh - floorH + ql;
      if (frac < 0) {
        floorH -= 1;
        frac += 1;
      } else if (frac >= 1) {
        floorH += 1;
        frac -= 1;
      }
    }
    const eps = Math.abs(qh) * U2_92;
    if (frac < eps || frac > 1 - eps) return false;
    termH = floorH + floorL;
    termL = floorL - (termH - floorH);
    // sum = add(sum, term)
    const s = sumH + termH;
    const v = s - sumH;
    c = sumH - (s - v) + (termH - v) + sumL + termL;
    sumH = s + c;
    sumL = c - (sumH - s);
  }
  // Terms below 2^40 in plain doubles: term * (x / 1e20) * (1 / n) with four roundings (x / 1e20's high part, the
  // product, 1 / n, the second product) is within 2^-50 relative of the real quotient, so its floor is proven 2^-48
  // relative away from an integer; the terms and their sum (below 2^41) are exact doubles. A quotient within that
  // margin of an integer (about 2^-8 of them for terms near 2^40) is taken in double-double as above.
  let small = 0;
  for (let term = termH; i < 11 && term !== 0; i++) {
    const q = term * fh * TAYLOR_RECIPROCALS[i];
    const next = Math.floor(q);
    const eps = q * U2_48;
    if (q - next > eps && q - next < 1 - eps) term = next;
    else {
      mul(term, 0, fh, fl);
      mul(R[0], R[1], TAYLOR_INVERSES[i][0], TAYLOR_INVERSES[i][1]);
      if (!floorOf(R[0], R[1])) return false;
      term = R[0]; // an integer below 2^41: R[1] is 0
    }
    small += term;
  }
  add(sumH, sumL, small, 0);
  return true;
}
