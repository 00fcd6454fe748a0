import { AmmError } from './ammError.ts';
import { MAX_UINT256 } from './fullMath.ts';

const BPS = 10_000n;

function checkFee(feeBps: number): bigint {
  if (!Number.isInteger(feeBps) || feeBps < 0 || feeBps >= 10_000) {
    throw new AmmError('INVALID_FEE', `v2: fee ${feeBps} bps outside [0, 10000)`);
  }
  return BigInt(feeBps);
}

const ZERO_RESERVES_MESSAGE = 'v2: a pool reserve is zero';

function checkReserves(reserveIn: bigint, reserveOut: bigint): void {
  if (reserveIn <= 0n || reserveOut <= 0n) throw new AmmError('ZERO_RESERVES', ZERO_RESERVES_MESSAGE);
}

function checkUint256(x: bigint): bigint {
  if (x > MAX_UINT256) throw new AmmError('OVERFLOW', 'v2: intermediate exceeds uint256');
  return x;
}

/**
 * A pair's terms that do not depend on the amount (one direction, the fee checked): what getAmountOut and getAmountIn
 * compute for every amount, computed once for a ladder of amounts through the pair.
 */
export interface V2Terms {
  readonly reserveIn: bigint;
  readonly reserveOut: bigint;
  /** 10000 - feeBps. */
  readonly feeComplement: bigint;
  /** reserveIn * 10000 (checked against uint256 where used). */
  readonly reserveInBps: bigint;
}

/** A pair's amount-free terms in one direction; throws INVALID_FEE (the first check of getAmountOut and getAmountIn). */
export function v2Terms(reserveIn: bigint, reserveOut: bigint, feeBps: number): V2Terms {
  const fee = checkFee(feeBps);
  return { reserveIn, reserveOut, feeComplement: BPS - fee, reserveInBps: reserveIn * BPS };
}

/**
 * Output of a constant-product swap for an exact input, like UniswapV2Library.getAmountOut (v2-periphery) with the
 * fee in basis points (30 for Uniswap v2 and SushiSwap, 25 for PancakeSwap v2):
 * amountIn * (10000 - feeBps) * reserveOut / (reserveIn * 10000 + amountIn * (10000 - feeBps)), rounded down.
 */
export function getAmountOut(amountIn: bigint, reserveIn: bigint, reserveOut: bigint, feeBps: number): bigint {
  return amountOutWith(v2Terms(reserveIn, reserveOut, feeBps), amountIn);
}

/** getAmountOut on a pair's terms (v2Terms): the same checks in the same order, four BigInt operations. */
export function amountOutWith(terms: V2Terms, amountIn: bigint): bigint {
  if (amountIn <= 0n) throw new AmmError('INSUFFICIENT_INPUT_AMOUNT', 'getAmountOut: amountIn must be positive');
  checkReserves(terms.reserveIn, terms.reserveOut);
  const amountInWithFee = checkUint256(amountIn * terms.feeComplement);
  const numerator = checkUint256(amountInWithFee * terms.reserveOut);
  const denominator = checkUint256(checkUint256(terms.reserveInBps) + amountInWithFee);
  return numerator / denominator;
}

/**
 * Input needed for an exact output of a constant-product swap, like UniswapV2Library.getAmountIn (v2-periphery)
 * with the fee in basis points: reserveIn * amountOut * 10000 / ((reserveOut - amountOut) * (10000 - feeBps)) + 1.
 * Throws INSUFFICIENT_RESERVES when amountOut >= reserveOut (the library reverts there; amountInRefusal).
 */
export function getAmountIn(amountOut: bigint, reserveIn: bigint, reserveOut: bigint, feeBps: number): bigint {
  return amountInWith(v2Terms(reserveIn, reserveOut, feeBps), amountOut);
}

/**
 * getAmountIn on a pair's terms (v2Terms): the same checks in the same order. Its numerator, reserveIn * amountOut
 * * 10000, is amountOut * (reserveIn * 10000): fits uint256 exactly when the library's two checked products do.
 */
export function amountInWith(terms: V2Terms, amountOut: bigint): bigint {
  const refused = amountInRefusal(terms, amountOut);
  if (refused !== undefined) throw new AmmError(refused, AMOUNT_IN_REFUSALS[refused]);
  const numerator = checkUint256(amountOut * terms.reserveInBps);
  const denominator = checkUint256((terms.reserveOut - amountOut) * terms.feeComplement);
  return numerator / denominator + 1n;
}

/** The messages of getAmountIn's reverts on its arguments (amountInRefusal's codes). */
export const AMOUNT_IN_REFUSALS = {
  INSUFFICIENT_OUTPUT_AMOUNT: 'getAmountIn: amountOut must be positive',
  ZERO_RESERVES: ZERO_RESERVES_MESSAGE,
  INSUFFICIENT_RESERVES: 'getAmountIn: amountOut must be less than the output reserve',
} as const;

/**
 * getAmountIn's checks on its arguments, in its order, as the code of the first it fails (the library reverts
 * there), or undefined: a ladder reads its refusals without an error built and thrown per amount (an exact output the
 * pair cannot pay is common in searches).
 */
export function amountInRefusal(terms: V2Terms, amountOut: bigint): keyof typeof AMOUNT_IN_REFUSALS | undefined {
  if (amountOut <= 0n) return 'INSUFFICIENT_OUTPUT_AMOUNT';
  if (terms.reserveIn <= 0n || terms.reserveOut <= 0n) return 'ZERO_RESERVES';
  if (amountOut >= terms.reserveOut) return 'INSUFFICIENT_RESERVES';
  return undefined;
}
