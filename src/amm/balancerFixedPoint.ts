/**
 * Balancer v2's 18-decimal fixed-point arithmetic (v2-solidity-utils FixedPoint, as the February 2023 pools are built
 * with), in bigint, with every rounding direction and every revert of the Solidity: a revert throws an AmmError. Shared
 * by the weighted and the stable pool math and by the pools' scaling (decimals, token rates). FixedPoint.powUp and
 * LogExpMath are src/amm/balancerPow.ts.
 */
import { AmmError } from './ammError.ts';

export const ONE = 10n ** 18n;
/** 2^256 - 1: what a Solidity uint256 holds. */
export const MAX_UINT256 = (1n << 256n) - 1n;
/** FixedPoint.MAX_POW_RELATIVE_ERROR: 1e-14 (src/amm/balancerPow.ts applies it). */
export const MAX_POW_RELATIVE_ERROR = 10_000n;
/**
 * The largest a with a * ONE in uint256: up to it, scaling by a factor of exactly ONE (18-decimal tokens without a rate)
 * is the identity, upscale, downscaleDown and downscaleUp alike, so fast paths skip the product and the quotient.
 */
export const MAX_UNSCALED = MAX_UINT256 / ONE;

function checked(value: bigint, what: string): bigint {
  if (value > MAX_UINT256) throw new AmmError('OVERFLOW', `${what} overflows uint256`);
  return value;
}

export function add(a: bigint, b: bigint): bigint {
  return checked(a + b, 'add');
}

export function sub(a: bigint, b: bigint): bigint {
  if (b > a) throw new AmmError('OVERFLOW', 'sub underflows');
  return a - b;
}

/** Plain integer product (Math.mul: reverts on overflow). */
export function mul(a: bigint, b: bigint): bigint {
  return checked(a * b, 'mul');
}

/** Plain integer division rounding down (Math.divDown). */
export function divDownInt(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new AmmError('DIVISION_BY_ZERO', 'division by zero');
  return a / b;
}

/** Plain integer division rounding up (Math.divUp: 0 stays 0). */
export function divUpInt(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new AmmError('DIVISION_BY_ZERO', 'division by zero');
  return a === 0n ? 0n : (a - 1n) / b + 1n;
}

export function mulDown(a: bigint, b: bigint): bigint {
  return checked(a * b, 'mulDown') / ONE;
}

export function mulUp(a: bigint, b: bigint): bigint {
  const product = checked(a * b, 'mulUp');
  return product === 0n ? 0n : (product - 1n) / ONE + 1n;
}

export function divDown(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new AmmError('DIVISION_BY_ZERO', 'divDown by zero');
  return checked(a * ONE, 'divDown') / b;
}

export function divUp(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new AmmError('DIVISION_BY_ZERO', 'divUp by zero');
  const inflated = checked(a * ONE, 'divUp');
  return inflated === 0n ? 0n : (inflated - 1n) / b + 1n;
}

/** 1 - x, or 0 when x >= 1. */
export function complement(x: bigint): bigint {
  return x < ONE ? ONE - x : 0n;
}

/** A token's scaling factor for its decimals: 1e18 * 10^(18 - decimals) (BasePool._computeScalingFactor). */
export function decimalsScalingFactor(decimals: number): bigint {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 18)
    throw new AmmError('INVALID_POOL_STATE', `decimals ${decimals} out of range`);
  return ONE * 10n ** BigInt(18 - decimals);
}

/** Raw amount to the pool's 18-decimal (and rate-adjusted) units, rounding down (ScalingHelpers._upscale). */
export function upscale(amount: bigint, scalingFactor: bigint): bigint {
  return mulDown(amount, scalingFactor);
}

/** Back to raw units rounding down (ScalingHelpers._downscaleDown). */
export function downscaleDown(amount: bigint, scalingFactor: bigint): bigint {
  return divDown(amount, scalingFactor);
}

/** Back to raw units rounding up (ScalingHelpers._downscaleUp). */
export function downscaleUp(amount: bigint, scalingFactor: bigint): bigint {
  return divUp(amount, scalingFactor);
}

/** The input left after the swap fee (BasePool._subtractSwapFeeAmount: the fee rounds up). */
export function subtractSwapFee(amount: bigint, swapFee: bigint): bigint {
  return sub(amount, mulUp(amount, swapFee));
}

/**
 * x ↦ subtractSwapFee(x, swapFee) for many amounts, same values and reverts: for 0 <= fee <= ONE and 0 <= x <=
 * MAX_UNSCALED nothing overflows or underflows, and x - ceil(x * fee / ONE) = floor(x * (ONE - fee) / ONE) (x is an
 * integer), one product and one quotient (netOfFee).
 */
export function swapFeeSubtractor(swapFee: bigint): (amount: bigint) => bigint {
  const kept = feeKept(swapFee);
  if (kept === undefined) return (amount) => subtractSwapFee(amount, swapFee);
  return (amount) => (amount >= 0n && amount <= MAX_UNSCALED ? netOfFee(amount, kept) : subtractSwapFee(amount, swapFee));
}

/** ONE - swapFee where netOfFee applies (0 <= swapFee <= ONE), else undefined. */
export function feeKept(swapFee: bigint): bigint | undefined {
  return swapFee >= 0n && swapFee <= ONE ? ONE - swapFee : undefined;
}

/** subtractSwapFee(amount, swapFee) for 0 <= amount <= MAX_UNSCALED, kept = feeKept(swapFee) (see swapFeeSubtractor). */
export function netOfFee(amount: bigint, kept: bigint): bigint {
  return (amount * kept) / ONE;
}

/**
 * x ↦ addSwapFee(x, swapFee) for many amounts, same values and reverts: 1 - fee taken once, and for 0 < x <=
 * MAX_UNSCALED divUp's product cannot overflow and its dividend is not zero, so it is (x * ONE - 1) / (1 - fee) + 1.
 */
export function swapFeeAdder(swapFee: bigint): (amount: bigint) => bigint {
  const kept = complement(swapFee);
  if (kept === 0n) return (amount) => addSwapFee(amount, swapFee);
  return (amount) => (amount > 0n && amount <= MAX_UNSCALED ? (amount * ONE - 1n) / kept + 1n : addSwapFee(amount, swapFee));
}

/** The input including the swap fee (BasePool._addSwapFeeAmount: divided by 1 - fee, rounding up). */
export function addSwapFee(amount: bigint, swapFee: bigint): bigint {
  return divUp(amount, complement(swapFee));
}
