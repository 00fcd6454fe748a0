/**
 * A weighted pool's whole quote in exact double-double floats (src/amm/balancerDoubleDouble.ts), for pools of
 * 18-decimal tokens without a rate (scaling factors of exactly 1e18, where scaling is the identity): the swap fee, the
 * 30% limit, the base, FixedPoint.powUp (src/amm/balancerPowFloat.ts), the complement and the final product, each of
 * the contract's truncating divisions decided as the primitives decide them (the floor of a quotient of at most two
 * double-double operations from exact integers, taken only where it is provably away from an integer; an exact
 * ratio k / d with a small d through floorOfRatio). Where any step cannot prove its integer, or the amount is outside
 * 0 < amount < 2^96, or near the 30% limit, the quoter returns undefined and its caller (weightedQuoter) runs the
 * bigint path on that amount, which also raises every revert: this path never throws. Against the bigint path the
 * per-call bigint work is one conversion in (the amount) and one out (the result).
 * test/protocols/balancerWeightedFloat.test.ts compares it with WeightedMath's transliteration.
 */
import { add, ceilOf, ceilOfRatio, dd, div, floorOf, floorOfRatio, load, mul, R, stored } from '../../amm/balancerDoubleDouble.ts';
import { powFloatExponent, powUpFloatBy, powUpInto } from '../../amm/balancerPowFloat.ts';

const ONE = 10n ** 18n;
const E18 = 1e18;
/** Balances this path takes are below 2^96, so every sum stays below 2^100 and every integer is an exact pair. */
const BALANCE_LIMIT = 2n ** 96n;
/** Amounts in this path takes (before the fee and the 30% limit, which bring them below the balance). */
const AMOUNT_LIMIT = 2 ** 100;
/** Denominators up to which an exact ratio's floor is taken with floorOfRatio (1 / 2d well above a double's rounding). */
const RATIO_LIMIT = 2n ** 40n;

function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

/**
 * The denominator of a / 1e18 in lowest terms where it is at most RATIO_LIMIT, else 0: a product a * b / 1e18 with an
 * integer b is then an exact ratio with it (round balances and fees make such quotients exact integers often).
 */
function ratioDenominator(a: bigint, unit = ONE): number {
  const d = unit / gcd(a, unit);
  return d <= RATIO_LIMIT ? Number(d) : 0;
}

/**
 * Every quotient below is one double-double operation (8u^2 or 15u^2) from exact integers and at most one constant
 * taken as a double-double (a rounded integer below 2^160 within u^2, or a quotient within 15u^2): within 2^-101 of
 * the real quotient, so floors are decided with a relative margin of 2^-100 (results up to 2^90 decided unless
 * within 2^-10 of an integer) rather than the pow's 2^-92.
 */
const MARGIN = 2 ** -100;

/** floor as floorOfRatio takes it for a known denominator d, as floorOf where d is 0 (none small). */
function floorBy(qh: number, ql: number, d: number): boolean {
  return d === 0 ? floorOf(qh, ql, 0, MARGIN) : floorOfRatio(qh, ql, d, MARGIN);
}

/** a / b as a double-double within 15u^2 relative (a below 2^106, or its rounding adds u^2). */
function quotient(a: bigint, b: bigint): [number, number] {
  const [ah, al] = dd(a);
  const [bh, bl] = dd(b);
  div(ah, al, bh, bl);
  return [R[0], R[1]];
}

/** ceil likewise. */
function ceilBy(qh: number, ql: number, d: number): boolean {
  return d === 0 ? ceilOf(qh, ql, MARGIN) : ceilOfRatio(qh, ql, d, MARGIN);
}

/**
 * The float quote of one direction of a weighted pool with scaling factors of 1e18: balances (upscaled, that is raw),
 * the 30% limit of the side the amount is checked against, the exponent as WeightedMath computes it for the direction,
 * the swap fee, and what to answer for an amount this path declines (weightedQuoter's bigint path, which the quoter
 * calls itself: one call less per quote than a wrapper); undefined where this path does not apply (a balance of 0 or
 * from 2^96, a fee outside 0 .. 1e18, an exponent powUpFloatBy does not take).
 */
export function weightedFloatQuoter<T>(
  balanceIn: bigint,
  balanceOut: bigint,
  limit: bigint,
  exponent: bigint,
  swapFee: bigint,
  exactIn: boolean,
  declined: (amount: bigint) => T,
): ((amount: bigint) => bigint | T) | undefined {
  if (balanceIn <= 0n || balanceOut <= 0n || balanceIn >= BALANCE_LIMIT || balanceOut >= BALANCE_LIMIT) return undefined;
  if (swapFee < 0n || swapFee >= ONE) return undefined;
  const exact = powUpFloatBy(exponent);
  if (exact === undefined) return undefined;
  // A general exponent's powUpInto called directly (the call site then sees one function, which V8 can inline), the
  // exact cases 1, 2 and 4 through powUpFloatBy's closure.
  const general = exponent === ONE || exponent === 2n * ONE || exponent === 4n * ONE ? undefined : powFloatExponent(exponent);
  const limitHi = Number(limit);
  const kept = ONE - swapFee;
  // Each quotient by a constant as a product by a constant double-double within 15u^2 (balancerDoubleDouble.ts): the
  // quotients below are then within 2^-100 of the real ones, inside floorOf's margin.
  const [keptH, keptL] = quotient(kept, ONE);
  const hasFee = swapFee !== 0n;
  if (exactIn) {
    const feeRatio = ratioDenominator(kept);
    const outRatio = ratioDenominator(balanceOut);
    const [bih, bil] = dd(balanceIn);
    const [bInH, bInL] = dd(balanceIn * ONE);
    const [bOutH, bOutL] = quotient(balanceOut, ONE);
    return (amountIn) => {
      load(amountIn);
      if (!(R[0] > 0 && R[0] < AMOUNT_LIMIT)) return declined(amountIn);
      if (hasFee) {
        // subtractSwapFee: amount - ceil(amount * fee / 1e18) = floor(amount * kept / 1e18).
        mul(R[0], R[1], keptH, keptL);
        if (!floorBy(R[0], R[1], feeRatio)) return declined(amountIn);
      }
      // amount > maxIn reverts: below the limit's nearest double the amount is below the limit (rounding is monotonic).
      if (!(R[0] < limitHi)) return declined(amountIn);
      // base = divUp(balanceIn, balanceIn + amount) = ceil(balanceIn * 1e18 / (balanceIn + amount)).
      add(bih, bil, R[0], R[1]);
      div(bInH, bInL, R[0], R[1]);
      if (!ceilOf(R[0], R[1], MARGIN) || !(general === undefined ? exact() : powUpInto(general))) return declined(amountIn);
      // mulDown(balanceOut, complement(power)): 0 where power >= 1e18.
      add(E18, 0, -R[0], -R[1]);
      if (!(R[0] > 0)) return 0n;
      mul(bOutH, bOutL, R[0], R[1]);
      return floorBy(R[0], R[1], outRatio) ? stored() : declined(amountIn);
    };
  }
  // amountIn * 1e18 / kept has the denominator of kept / 1e18's numerator.
  const feeRatio = ratioDenominator(ONE, kept);
  const inRatio = ratioDenominator(balanceIn);
  const [boh, bol] = dd(balanceOut);
  const [bOutH, bOutL] = dd(balanceOut * ONE);
  const [bInH, bInL] = quotient(balanceIn, ONE);
  const [feeH, feeL] = quotient(ONE, kept);
  return (amountOut) => {
    load(amountOut);
    // amount > maxOut reverts (as above); the limit is below balanceOut, so the difference below is positive.
    if (!(R[0] > 0 && R[0] < limitHi)) return declined(amountOut);
    // base = divUp(balanceOut, balanceOut - amount).
    add(boh, bol, -R[0], -R[1]);
    div(bOutH, bOutL, R[0], R[1]);
    if (!ceilOf(R[0], R[1], MARGIN) || !(general === undefined ? exact() : powUpInto(general))) return declined(amountOut);
    // mulUp(balanceIn, power - 1e18); power at or below 1e18 (0, or sub's revert) is left to the bigint path.
    add(R[0], R[1], -E18, 0);
    if (!(R[0] > 0)) return declined(amountOut);
    mul(bInH, bInL, R[0], R[1]);
    if (!ceilBy(R[0], R[1], inRatio)) return declined(amountOut);
    if (hasFee) {
      // addSwapFee: divUp(amountIn, kept) = ceil(amountIn * 1e18 / kept), a ratio with denominator num.
      mul(R[0], R[1], feeH, feeL);
      if (!ceilBy(R[0], R[1], feeRatio)) return declined(amountOut);
    }
    return stored();
  };
}
