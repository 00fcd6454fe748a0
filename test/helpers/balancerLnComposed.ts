/**
 * src/amm/balancerLnFloat.ts's lnTimesY composed from balancerDoubleDouble.ts's primitives through the registers R, in
 * the order that file states: what lnTimesY (written out on locals) must compute, bit for bit. For
 * test/protocols/balancerPowFloat.test.ts.
 */
import { add, dd, div, floorOf, floorOfRatio, mul, R, reciprocal, times100, truncOf } from '../../src/amm/balancerDoubleDouble.ts';
import type { PowFloatExponent } from '../../src/amm/balancerLnFloat.ts';
import { LN_ODD, LN_STEPS } from '../../src/amm/balancerPowTables.ts';

const ONE_36 = dd(10n ** 36n);
const INV_E20 = reciprocal(1e20);
const INV_100 = reciprocal(100);
const LN_INVERSES = LN_ODD.map((n) => reciprocal(n));

/** trunc(ln(x) * y / 1e18) into (R[0], R[1]) for x in (R[0], R[1]) outside ln_36's window; false where undecided. */
export function composedLnTimesY(y: PowFloatExponent): boolean {
  const inverted = R[0] < 1e18;
  if (inverted) {
    div(ONE_36[0], ONE_36[1], R[0], R[1]);
    if (!floorOf(R[0], R[1])) return false;
  }
  times100(R[0], R[1]);
  let ah = R[0];
  let al = R[1];
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
  add(ah, al, -1e20, 0);
  const nh = R[0];
  const nl = R[1];
  add(ah, al, 1e20, 0);
  div(nh, nl, R[0], R[1]);
  mul(R[0], R[1], 1e20, 0);
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
  for (let i = 0; i < 5 && numH !== 0; i++) {
    mul(numH, numL, wh, wl);
    mul(R[0], R[1], INV_E20[0], INV_E20[1]);
    if (!floorOf(R[0], R[1])) return false;
    numH = R[0];
    numL = R[1];
    mul(numH, numL, LN_INVERSES[i][0], LN_INVERSES[i][1]);
    if (!floorOfRatio(R[0], R[1], LN_ODD[i])) return false;
    add(sumH, sumL, R[0], R[1]);
    sumH = R[0];
    sumL = R[1];
  }
  add(sum, 0, 2 * sumH, 2 * sumL);
  mul(R[0], R[1], INV_100[0], INV_100[1]);
  if (!floorOfRatio(R[0], R[1], 100)) return false;
  const p = inverted ? -R[0] : R[0];
  const t = inverted ? -R[1] : R[1];
  mul(p, t, y.nh, y.nl);
  mul(R[0], R[1], y.invDh, y.invDl);
  if (y.d > 1048576) return truncOf(R[0], R[1]);
  if (R[0] >= 0) return floorOfRatio(R[0], R[1], y.d);
  if (!floorOfRatio(-R[0], -R[1], y.d)) return false;
  R[0] = -R[0];
  R[1] = -R[1];
  return true;
}
