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
import { ceilOfRatio, dd, div, floorOf, load, mul, R, SPLITTER, stored } from '../../amm/balancerDoubleDouble.ts';
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

/**
 * floorOfRatio's 1 / (2d) for a known denominator d, 0 where d is 0 (none small): floorOf(q + half) is then floorOfRatio
 * or floorOf, and ceilOfRatio(q, half) the ceiling either way, each a call of floorOf one level deep (V8 left the
 * wrappers' calls uninlined in the quoter).
 */
function halfOf(d: number): number {
  return d === 0 ? 0 : 0.5 / d;
}

/** a / b as a double-double within 15u^2 relative (a below 2^106, or its rounding adds u^2). */
function quotient(a: bigint, b: bigint): [number, number] {
  const [ah, al] = dd(a);
  const [bh, bl] = dd(b);
  div(ah, al, bh, bl);
  return [R[0], R[1]];
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
  // Per direction: the balance the amount is added to (exact in) or taken from (exact out) and its product by 1e18 (the
  // base's quotient), and the other balance / 1e18 with the denominator of the last product's exact ratio.
  const [bh, bl] = dd(exactIn ? balanceIn : balanceOut);
  const [numH, numL] = dd((exactIn ? balanceIn : balanceOut) * ONE);
  const [otherH, otherL] = quotient(exactIn ? balanceOut : balanceIn, ONE);
  const [otherHh, otherHl] = halves(otherH);
  const otherHalf = halfOf(ratioDenominator(exactIn ? balanceOut : balanceIn));
  // exact in: amount * kept / 1e18 (floored), whose denominator is kept / 1e18's; exact out: amountIn * 1e18 / kept
  // (ceiled), whose denominator is kept / 1e18's numerator.
  const [feeH, feeL] = exactIn ? [keptH, keptL] : quotient(ONE, kept);
  const feeHalf = halfOf(exactIn ? ratioDenominator(kept) : ratioDenominator(ONE, kept));
  // The base's sum and quotient, the complement and the last product below are balancerDoubleDouble.ts's add, div and
  // mul written out on locals, operation for operation (the same bits): as calls, V8 left some of them uninlined in this
  // closure (the pow takes its inlining budget), and each double passed to such a call is boxed (a heap allocation). The
  // fee's products stay calls (measured alike either way, 2026-11-27 wpow7).
  return (amount) => {
    load(amount);
    let ah = R[0];
    let al = R[1];
    if (!(ah > 0 && ah < AMOUNT_LIMIT)) return declined(amount);
    let p: number;
    let t: number;
    let c: number;
    let xh: number;
    let xl: number;
    if (exactIn && hasFee) {
      // subtractSwapFee: amount - ceil(amount * fee / 1e18) = floor(amount * kept / 1e18).
      mul(ah, al, feeH, feeL);
      if (!floorOf(R[0], R[1] + feeHalf, 0, MARGIN)) return declined(amount);
      ah = R[0];
      al = R[1];
    }
    // amount > maxIn (maxOut) reverts: below the limit's nearest double the amount is below the limit (rounding is
    // monotonic); the limit is below the balance, so balanceOut - amount is positive.
    if (!(ah < limitHi)) return declined(amount);
    if (!exactIn) {
      ah = -ah;
      al = -al;
    }
    // base = divUp(balanceIn, balanceIn + amount) or divUp(balanceOut, balanceOut - amount): ceil(num / (b +- amount)).
    t = bh + ah;
    xh = t - bh;
    c = bh - (t - xh) + (ah - xh) + bl + al;
    const dh = t + c;
    const dl = c - (dh - t);
    const th = numH / dh;
    p = dh * th;
    t = SPLITTER * dh;
    xh = t - (t - dh);
    xl = dh - xh;
    t = SPLITTER * th;
    const thh = t - (t - th);
    const thl = th - thh;
    c = xh * thh - p + xh * thl + xl * thh + xl * thl + dl * th;
    t = p + c;
    const tl = (numH - t + (numL - (c - (t - p)))) / dh;
    // its ceiling as ceilOf takes it, the + 1 on locals (ceilOf's calls of floorOf and add were left uninlined here,
    // boxing their doubles): a quotient farther than MARGIN relative from an integer is not one, so its ceiling is its
    // floor + 1 (the base is positive: the amount is below the limit).
    ah = th + tl;
    if (!floorOf(ah, tl - (ah - th), 0, MARGIN)) return declined(amount);
    ah = R[0];
    al = R[1];
    t = ah + 1;
    xh = t - ah;
    c = ah - (t - xh) + (1 - xh) + al + 0;
    R[0] = t + c;
    R[1] = c - (R[0] - t);
    if (!(general === undefined ? exact() : powUpInto(general))) return declined(amount);
    // exact in: complement(power) = 1e18 - power, 0 where power >= 1e18 (then the quote is 0); exact out: power - 1e18,
    // where power at or below 1e18 (0, or sub's revert) is left to the bigint path.
    const sign = exactIn ? -1 : 1;
    ah = sign * R[0];
    al = sign * R[1];
    const s = ah - sign * E18;
    t = s - ah;
    c = ah - (s - t) + (-sign * E18 - t) + al;
    xh = s + c;
    if (!(xh > 0)) return exactIn ? 0n : declined(amount);
    xl = c - (xh - s);
    // mulDown(balanceOut, complement) or mulUp(balanceIn, power - 1e18).
    p = otherH * xh;
    t = SPLITTER * xh;
    ah = t - (t - xh);
    al = xh - ah;
    c = otherHh * ah - p + otherHh * al + otherHl * ah + otherHl * al + (otherH * xl + otherL * xh);
    ah = p + c;
    al = c - (ah - p);
    if (exactIn) return floorOf(ah, al + otherHalf, 0, MARGIN) ? stored() : declined(amount);
    if (!ceilOfRatio(ah, al, otherHalf, MARGIN)) return declined(amount);
    if (hasFee) {
      // addSwapFee: divUp(amountIn, kept) = ceil(amountIn * 1e18 / kept).
      mul(R[0], R[1], feeH, feeL);
      if (!ceilOfRatio(R[0], R[1], feeHalf, MARGIN)) return declined(amount);
    }
    return stored();
  };
}

/** A double's Veltkamp halves (mul's split), for a constant operand split once. */
function halves(h: number): [number, number] {
  const t = SPLITTER * h;
  const hh = t - (t - h);
  return [hh, h - hh];
}
