/**
 * A Balancer v2 weighted pool's swap, exactly as WeightedPool (February 2023, v3) computes it inside Vault.swap: the
 * swap fee comes off the raw input (rounding the fee up), amounts and balances are scaled to 18 decimals, WeightedMath
 * prices the trade with FixedPoint.powUp, and the result is scaled back rounding in the pool's favour.
 */
import { AmmError } from '../../amm/ammError.ts';
import {
  add,
  addSwapFee,
  complement,
  divDown,
  divUp,
  downscaleDown,
  downscaleUp,
  MAX_UNSCALED,
  mul,
  mulDown,
  mulUp,
  ONE,
  sub,
  subtractSwapFee,
  swapFeeAdder,
  swapFeeSubtractor,
  upscale,
} from '../../amm/balancerFixedPoint.ts';
import { powUpBy } from '../../amm/balancerPow.ts';
import { weightedFloatQuoter } from './weightedFloat.ts';

/** WeightedMath._MAX_IN_RATIO / _MAX_OUT_RATIO: a swap takes at most 30% of a balance. */
const MAX_IN_RATIO = 3n * 10n ** 17n;
const MAX_OUT_RATIO = 3n * 10n ** 17n;

/** One direction of a weighted pool: raw balances, normalized weights and scaling factors of both tokens, and the fee. */
export interface WeightedSide {
  readonly balanceIn: bigint;
  readonly balanceOut: bigint;
  readonly weightIn: bigint;
  readonly weightOut: bigint;
  readonly scalingFactorIn: bigint;
  readonly scalingFactorOut: bigint;
  /** Swap fee percentage, 18 decimals. */
  readonly swapFee: bigint;
}

/** WeightedMath._calcOutGivenIn on upscaled amounts. */
export function calcOutGivenIn(balanceIn: bigint, weightIn: bigint, balanceOut: bigint, weightOut: bigint, amountIn: bigint): bigint {
  if (amountIn > mulDown(balanceIn, MAX_IN_RATIO))
    throw new AmmError('INSUFFICIENT_RESERVES', 'amount in exceeds 30% of the balance (MAX_IN_RATIO)');
  const base = divUp(balanceIn, add(balanceIn, amountIn));
  const exponent = divDown(weightIn, weightOut);
  const power = powUpBy(exponent)(base);
  return mulDown(balanceOut, complement(power));
}

/** WeightedMath._calcInGivenOut on upscaled amounts. */
export function calcInGivenOut(balanceIn: bigint, weightIn: bigint, balanceOut: bigint, weightOut: bigint, amountOut: bigint): bigint {
  if (amountOut > mulDown(balanceOut, MAX_OUT_RATIO)) {
    throw new AmmError('INSUFFICIENT_RESERVES', 'amount out exceeds 30% of the balance (MAX_OUT_RATIO)');
  }
  const base = divUp(balanceOut, sub(balanceOut, amountOut));
  const exponent = divUp(weightOut, weightIn);
  const power = powUpBy(exponent)(base);
  return mulUp(balanceIn, sub(power, ONE));
}

/** Raw output for a raw input (Vault.swap GIVEN_IN on a weighted pool). */
export function weightedSwapGivenIn(side: WeightedSide, amountIn: bigint): bigint {
  const balanceIn = upscale(side.balanceIn, side.scalingFactorIn);
  const balanceOut = upscale(side.balanceOut, side.scalingFactorOut);
  const amount = upscale(subtractSwapFee(amountIn, side.swapFee), side.scalingFactorIn);
  return downscaleDown(calcOutGivenIn(balanceIn, side.weightIn, balanceOut, side.weightOut, amount), side.scalingFactorOut);
}

/** Raw input for a raw output (Vault.swap GIVEN_OUT on a weighted pool). */
export function weightedSwapGivenOut(side: WeightedSide, amountOut: bigint): bigint {
  const balanceIn = upscale(side.balanceIn, side.scalingFactorIn);
  const balanceOut = upscale(side.balanceOut, side.scalingFactorOut);
  const amount = upscale(amountOut, side.scalingFactorOut);
  const amountIn = downscaleUp(calcInGivenOut(balanceIn, side.weightIn, balanceOut, side.weightOut, amount), side.scalingFactorIn);
  return addSwapFee(amountIn, side.swapFee);
}

/**
 * One direction of a weighted pool prepared for many amounts: everything that does not depend on the amount (upscaled
 * balances, the 30% limit, the weight ratio exponent and its powUp) is computed once. The quoter returns exactly what
 * weightedSwapGivenIn / weightedSwapGivenOut return and throws the same errors (test/protocols/balancerQuoter.test.ts);
 * a state the preparation itself would revert on (an overflowing balance, a zero weight) is quoted by the general path.
 */
export function weightedQuoter(side: WeightedSide, exactIn: boolean): (amount: bigint) => bigint {
  try {
    return prepareWeighted(side, exactIn);
  } catch {
    return exactIn ? (amount) => weightedSwapGivenIn(side, amount) : (amount) => weightedSwapGivenOut(side, amount);
  }
}

function prepareWeighted(side: WeightedSide, exactIn: boolean): (amount: bigint) => bigint {
  const quote = prepareWeightedBigint(side, exactIn);
  if (side.scalingFactorIn !== ONE || side.scalingFactorOut !== ONE || side.weightIn === 0n || side.weightOut === 0n) return quote;
  // Scaling factors of 1e18: the balances are the upscaled ones; the float path first, this amount's bigint path where
  // it declines (src/protocols/balancerWeighted/weightedFloat.ts).
  const { limit, exponent } = directionRule(side, side.balanceIn, side.balanceOut, exactIn);
  return weightedFloatQuoter(side.balanceIn, side.balanceOut, limit, exponent, side.swapFee, exactIn, quote) ?? quote;
}

/**
 * WeightedMath's rule for one direction, on upscaled balances: the 30% limit (of the balance in for exact in, out for
 * exact out) and the exponent (weightIn / weightOut rounded down, or weightOut / weightIn rounded up).
 */
function directionRule(side: WeightedSide, balanceIn: bigint, balanceOut: bigint, exactIn: boolean): { limit: bigint; exponent: bigint } {
  return exactIn
    ? { limit: mulDown(balanceIn, MAX_IN_RATIO), exponent: divDown(side.weightIn, side.weightOut) }
    : { limit: mulDown(balanceOut, MAX_OUT_RATIO), exponent: divUp(side.weightOut, side.weightIn) };
}

function prepareWeightedBigint(side: WeightedSide, exactIn: boolean): (amount: bigint) => bigint {
  const balanceIn = upscale(side.balanceIn, side.scalingFactorIn);
  const balanceOut = upscale(side.balanceOut, side.scalingFactorOut);
  // Empty balances (their reverts) stay with the general path; otherwise base = divUp(balance, x) for 0 < x < 2^256 is
  // (balance * ONE - 1) / x + 1 with the product (which must not overflow) taken here.
  if (balanceIn === 0n || balanceOut === 0n) throw new RangeError('empty balance');
  const { scalingFactorIn, scalingFactorOut, swapFee } = side;
  const inIsOne = scalingFactorIn === ONE;
  const outIsOne = scalingFactorOut === ONE;
  const { limit, exponent } = directionRule(side, balanceIn, balanceOut, exactIn);
  const powUpExp = powUpBy(exponent);
  if (exactIn) {
    const maxIn = limit;
    const inflatedMinus1 = mul(balanceIn, ONE) - 1n;
    const takeFee = swapFeeSubtractor(swapFee);
    return (amountIn) => {
      const net = takeFee(amountIn);
      const amount = inIsOne && net <= MAX_UNSCALED ? net : upscale(net, scalingFactorIn);
      if (amount > maxIn) throw new AmmError('INSUFFICIENT_RESERVES', 'amount in exceeds 30% of the balance (MAX_IN_RATIO)');
      const power = powUpExp(inflatedMinus1 / (balanceIn + amount) + 1n);
      const out = mulDown(balanceOut, complement(power));
      return outIsOne && out <= MAX_UNSCALED ? out : downscaleDown(out, scalingFactorOut);
    };
  }
  const maxOut = limit;
  const inflatedMinus1 = mul(balanceOut, ONE) - 1n;
  const addFee = swapFeeAdder(swapFee);
  return (amountOut) => {
    const amount = outIsOne && amountOut <= MAX_UNSCALED ? amountOut : upscale(amountOut, scalingFactorOut);
    if (amount > maxOut) throw new AmmError('INSUFFICIENT_RESERVES', 'amount out exceeds 30% of the balance (MAX_OUT_RATIO)');
    const power = powUpExp(inflatedMinus1 / (balanceOut - amount) + 1n);
    const amountIn = mulUp(balanceIn, sub(power, ONE));
    return addFee(inIsOne && amountIn <= MAX_UNSCALED ? amountIn : downscaleUp(amountIn, scalingFactorIn));
  };
}
