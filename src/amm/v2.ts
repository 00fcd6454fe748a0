import { AmmError } from './ammError.ts';
import { MAX_UINT256 } from './fullMath.ts';

const BPS = 10_000n;

function checkFee(feeBps: number): bigint {
  if (!Number.isInteger(feeBps) || feeBps < 0 || feeBps >= 10_000) {
    throw new AmmError('INVALID_FEE', `v2: fee ${feeBps} bps outside [0, 10000)`);
  }
  return BigInt(feeBps);
}

function checkReserves(reserveIn: bigint, reserveOut: bigint): void {
  if (reserveIn <= 0n || reserveOut <= 0n) throw new AmmError('ZERO_RESERVES', 'v2: a pool reserve is zero');
}

function checkUint256(x: bigint): bigint {
  if (x > MAX_UINT256) throw new AmmError('OVERFLOW', 'v2: intermediate exceeds uint256');
  return x;
}

/**
 * Output of a constant-product swap for an exact input, like UniswapV2Library.getAmountOut (v2-periphery) with the
 * fee in basis points (30 for Uniswap v2 and SushiSwap, 25 for PancakeSwap v2):
 * amountIn * (10000 - feeBps) * reserveOut / (reserveIn * 10000 + amountIn * (10000 - feeBps)), rounded down.
 */
export function getAmountOut(amountIn: bigint, reserveIn: bigint, reserveOut: bigint, feeBps: number): bigint {
  const fee = checkFee(feeBps);
  if (amountIn <= 0n) throw new AmmError('INSUFFICIENT_INPUT_AMOUNT', 'getAmountOut: amountIn must be positive');
  checkReserves(reserveIn, reserveOut);
  const amountInWithFee = checkUint256(amountIn * (BPS - fee));
  const numerator = checkUint256(amountInWithFee * reserveOut);
  const denominator = checkUint256(checkUint256(reserveIn * BPS) + amountInWithFee);
  return numerator / denominator;
}

/**
 * Input needed for an exact output of a constant-product swap, like UniswapV2Library.getAmountIn (v2-periphery)
 * with the fee in basis points: reserveIn * amountOut * 10000 / ((reserveOut - amountOut) * (10000 - feeBps)) + 1.
 * Throws INSUFFICIENT_RESERVES when amountOut >= reserveOut (the library reverts there).
 */
export function getAmountIn(amountOut: bigint, reserveIn: bigint, reserveOut: bigint, feeBps: number): bigint {
  const fee = checkFee(feeBps);
  if (amountOut <= 0n) throw new AmmError('INSUFFICIENT_OUTPUT_AMOUNT', 'getAmountIn: amountOut must be positive');
  checkReserves(reserveIn, reserveOut);
  if (amountOut >= reserveOut) {
    throw new AmmError('INSUFFICIENT_RESERVES', 'getAmountIn: amountOut must be less than the output reserve');
  }
  const numerator = checkUint256(checkUint256(reserveIn * amountOut) * BPS);
  const denominator = checkUint256((reserveOut - amountOut) * (BPS - fee));
  return numerator / denominator + 1n;
}
