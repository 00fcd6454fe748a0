import { AmmError } from './ammError.ts';
import { divRoundingUp, MAX_UINT256, mulDiv, mulDivRoundingUp } from './fullMath.ts';

const Q96 = 1n << 96n;
const MASK96 = Q96 - 1n;
const MAX_UINT160 = (1n << 160n) - 1n;

/**
 * Next sqrt price after adding or removing `amount` of token0, rounded up, like
 * SqrtPriceMath.getNextSqrtPriceFromAmount0RoundingUp (v3-core), including its uint256 wrap checks.
 */
export function getNextSqrtPriceFromAmount0RoundingUp(sqrtPX96: bigint, liquidity: bigint, amount: bigint, add: boolean): bigint {
  if (amount === 0n) return sqrtPX96;
  const numerator1 = liquidity << 96n;
  // Solidity: product = amount * sqrtPX96 (wrapping); `product / amount == sqrtPX96` holds iff it did not wrap.
  const fullProduct = amount * sqrtPX96;
  if (add) {
    if (fullProduct <= MAX_UINT256) {
      const denominator = numerator1 + fullProduct;
      // Solidity: denominator wraps mod 2^256; `denominator >= numerator1` holds iff it did not wrap.
      // uint160(...) cannot truncate here: denominator >= numerator1, so the result is at most sqrtPX96.
      if (denominator <= MAX_UINT256) return mulDivRoundingUp(numerator1, sqrtPX96, denominator);
    }
    const sum = numerator1 / sqrtPX96 + amount;
    if (sum > MAX_UINT256) throw new AmmError('OVERFLOW', 'getNextSqrtPriceFromAmount0RoundingUp: add overflow');
    return BigInt.asUintN(160, divRoundingUp(numerator1, sum));
  }
  if (fullProduct > MAX_UINT256 || numerator1 <= fullProduct) {
    throw new AmmError('PRICE_OUT_OF_BOUNDS', 'getNextSqrtPriceFromAmount0RoundingUp: output exceeds the token0 reserve of the range');
  }
  const result = mulDivRoundingUp(numerator1, sqrtPX96, numerator1 - fullProduct);
  if (result > MAX_UINT160) throw new AmmError('OVERFLOW', 'getNextSqrtPriceFromAmount0RoundingUp: result exceeds uint160');
  return result;
}

/**
 * Next sqrt price after adding or removing `amount` of token1, rounded down, like
 * SqrtPriceMath.getNextSqrtPriceFromAmount1RoundingDown (v3-core).
 */
export function getNextSqrtPriceFromAmount1RoundingDown(sqrtPX96: bigint, liquidity: bigint, amount: bigint, add: boolean): bigint {
  if (liquidity === 0n) throw new AmmError('DIVISION_BY_ZERO', 'getNextSqrtPriceFromAmount1RoundingDown: zero liquidity');
  if (add) {
    const quotient = amount <= MAX_UINT160 ? (amount << 96n) / liquidity : mulDiv(amount, Q96, liquidity);
    const result = sqrtPX96 + quotient;
    if (result > MAX_UINT160) throw new AmmError('OVERFLOW', 'getNextSqrtPriceFromAmount1RoundingDown: result exceeds uint160');
    return result;
  }
  const quotient = amount <= MAX_UINT160 ? divRoundingUp(amount << 96n, liquidity) : mulDivRoundingUp(amount, Q96, liquidity);
  if (sqrtPX96 <= quotient) {
    throw new AmmError('PRICE_OUT_OF_BOUNDS', 'getNextSqrtPriceFromAmount1RoundingDown: output exceeds the token1 reserve of the range');
  }
  return sqrtPX96 - quotient;
}

/** Next sqrt price after swapping `amountIn` in, like SqrtPriceMath.getNextSqrtPriceFromInput (v3-core). */
export function getNextSqrtPriceFromInput(sqrtPX96: bigint, liquidity: bigint, amountIn: bigint, zeroForOne: boolean): bigint {
  if (sqrtPX96 <= 0n) throw new AmmError('SQRT_PRICE_OUT_OF_RANGE', 'getNextSqrtPriceFromInput: zero sqrt price');
  if (liquidity <= 0n) throw new AmmError('ZERO_LIQUIDITY', 'getNextSqrtPriceFromInput: zero liquidity');
  return zeroForOne
    ? getNextSqrtPriceFromAmount0RoundingUp(sqrtPX96, liquidity, amountIn, true)
    : getNextSqrtPriceFromAmount1RoundingDown(sqrtPX96, liquidity, amountIn, true);
}

/** Next sqrt price after swapping `amountOut` out, like SqrtPriceMath.getNextSqrtPriceFromOutput (v3-core). */
export function getNextSqrtPriceFromOutput(sqrtPX96: bigint, liquidity: bigint, amountOut: bigint, zeroForOne: boolean): bigint {
  if (sqrtPX96 <= 0n) throw new AmmError('SQRT_PRICE_OUT_OF_RANGE', 'getNextSqrtPriceFromOutput: zero sqrt price');
  if (liquidity <= 0n) throw new AmmError('ZERO_LIQUIDITY', 'getNextSqrtPriceFromOutput: zero liquidity');
  return zeroForOne
    ? getNextSqrtPriceFromAmount1RoundingDown(sqrtPX96, liquidity, amountOut, false)
    : getNextSqrtPriceFromAmount0RoundingUp(sqrtPX96, liquidity, amountOut, false);
}

/** Amount of token0 between two sqrt prices for a liquidity, like SqrtPriceMath.getAmount0Delta (v3-core, unsigned). */
export function getAmount0Delta(sqrtRatioAX96: bigint, sqrtRatioBX96: bigint, liquidity: bigint, roundUp: boolean): bigint {
  if (sqrtRatioAX96 > sqrtRatioBX96) {
    const t = sqrtRatioAX96;
    sqrtRatioAX96 = sqrtRatioBX96;
    sqrtRatioBX96 = t;
  }
  if (sqrtRatioAX96 <= 0n) throw new AmmError('SQRT_PRICE_OUT_OF_RANGE', 'getAmount0Delta: zero sqrt price');
  // mulDiv(liquidity << 96, B - A, B) cannot exceed uint256 for uint128 liquidity and uint160 prices.
  const product = (liquidity << 96n) * (sqrtRatioBX96 - sqrtRatioAX96);
  // The contract divides by B, then by A, rounding each time the same way: for positive integers floor(floor(x / B)
  // / A) = floor(x / (A·B)) and ceil(ceil(x / B) / A) = ceil(x / (A·B)), so one division by the product gives the
  // same amount (a multiplication instead of the second of two many-word divisions).
  const divisor = sqrtRatioAX96 * sqrtRatioBX96;
  const q = product / divisor;
  return roundUp && q * divisor !== product ? q + 1n : q;
}

/** Amount of token1 between two sqrt prices for a liquidity, like SqrtPriceMath.getAmount1Delta (v3-core, unsigned). */
export function getAmount1Delta(sqrtRatioAX96: bigint, sqrtRatioBX96: bigint, liquidity: bigint, roundUp: boolean): bigint {
  const product = liquidity * (sqrtRatioAX96 > sqrtRatioBX96 ? sqrtRatioAX96 - sqrtRatioBX96 : sqrtRatioBX96 - sqrtRatioAX96);
  // mulDiv(liquidity, B - A, Q96): the division by 2^96 is a shift; the result always fits in uint256.
  return roundUp && (product & MASK96) !== 0n ? (product >> 96n) + 1n : product >> 96n;
}
