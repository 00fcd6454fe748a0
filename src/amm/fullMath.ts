import { AmmError } from './ammError.ts';

/** 2^256 - 1, the largest uint256. */
export const MAX_UINT256 = (1n << 256n) - 1n;

/**
 * floor(a * b / denominator) with a 512-bit intermediate, reverting like FullMath.mulDiv
 * (v3-core FullMath.sol) when the denominator is zero or the result does not fit in 256 bits.
 */
export function mulDiv(a: bigint, b: bigint, denominator: bigint): bigint {
  if (denominator === 0n) throw new AmmError('DIVISION_BY_ZERO', 'mulDiv: denominator is zero');
  const result = (a * b) / denominator;
  if (result > MAX_UINT256) throw new AmmError('OVERFLOW', 'mulDiv: result exceeds uint256');
  return result;
}

/** ceil(a * b / denominator), like FullMath.mulDivRoundingUp (v3-core FullMath.sol). */
export function mulDivRoundingUp(a: bigint, b: bigint, denominator: bigint): bigint {
  if (denominator === 0n) throw new AmmError('DIVISION_BY_ZERO', 'mulDivRoundingUp: denominator is zero');
  const product = a * b;
  let result = product / denominator;
  if (result * denominator !== product) result += 1n;
  if (result > MAX_UINT256) throw new AmmError('OVERFLOW', 'mulDivRoundingUp: result exceeds uint256');
  return result;
}

/**
 * ceil(x / y) like UnsafeMath.divRoundingUp (v3-core UnsafeMath.sol); as the EVM's `div`, y = 0 yields 0.
 */
export function divRoundingUp(x: bigint, y: bigint): bigint {
  if (y === 0n) return 0n;
  const q = x / y;
  return q * y === x ? q : q + 1n;
}
