import { AmmError } from './ammError.ts';
import { countInitializedTicksCrossed } from './poolTicksCounter.ts';
import { type LadderEnds, swapLadderEnds } from './swap.ts';
import type { V3Pool } from './v3Pool.ts';

/** A quote the pool's known state can answer. */
export interface V3QuoteFilled {
  ok: true;
  /**
   * True when the whole requested amount is swapped. False when the pool ran out of liquidity or the walk hit
   * the price limit first: amountIn / amountOut are then the partial amounts (QuoterV2's exact-input quote
   * returns such a partial amountOut; its exact-output quote without a price limit reverts instead).
   */
  filledFully: boolean;
  /** Input paid, fees included. */
  amountIn: bigint;
  amountOut: bigint;
  sqrtPriceX96After: bigint;
  tickAfter: number;
  liquidityAfter: bigint;
  /** As QuoterV2 reports it (PoolTicksCounter.countInitializedTicksCrossed). */
  initializedTicksCrossed: number;
}

/** The walk would leave the tickBitmap words the snapshot knows: only the amounts up to there are given. */
export interface V3QuoteUnknownLiquidity {
  ok: false;
  code: 'INSUFFICIENT_KNOWN_LIQUIDITY';
  /** Input consumed up to the edge of the known words, fees included. */
  amountIn: bigint;
  /** Output for that part. */
  amountOut: bigint;
}

export type V3QuoteResult = V3QuoteFilled | V3QuoteUnknownLiquidity;

/** Entry i of a walk's ends as a quote (amounts[i] on the side the walk was given). */
function toQuote(pool: V3Pool, e: LadderEnds, i: number): V3QuoteResult {
  const amountIn = e.amountIn[i];
  const amountOut = e.amountOut[i];
  if (i >= e.complete) return { ok: false, code: 'INSUFFICIENT_KNOWN_LIQUIDITY', amountIn, amountOut };
  return {
    ok: true,
    filledFully: e.filled[i],
    amountIn,
    amountOut,
    sqrtPriceX96After: e.sqrtPriceX96[i],
    tickAfter: e.tick[i],
    liquidityAfter: e.liquidity[i],
    initializedTicksCrossed: countInitializedTicksCrossed(pool, pool.tick, e.tick[i]),
  };
}

/**
 * Quote an exact-input single-pool swap like QuoterV2.quoteExactInputSingle (v3-periphery) on the pool's state.
 * sqrtPriceLimitX96 = 0 means MIN_SQRT_RATIO + 1 / MAX_SQRT_RATIO - 1. Throws AmmError INVALID_AMOUNT
 * (amountIn <= 0) or INVALID_PRICE_LIMIT where the pool reverts (AS, SPL).
 */
export function quoteExactInputSingle(pool: V3Pool, zeroForOne: boolean, amountIn: bigint, sqrtPriceLimitX96: bigint = 0n): V3QuoteResult {
  if (amountIn <= 0n) throw new AmmError('INVALID_AMOUNT', 'quoteExactInputSingle: amountIn must be positive');
  return toQuote(pool, swapLadderEnds(pool, zeroForOne, true, [amountIn], sqrtPriceLimitX96), 0);
}

/**
 * Quote an exact-output single-pool swap like QuoterV2.quoteExactOutputSingle (v3-periphery): amountIn is what
 * the pool asks for. Where the pool cannot deliver all of amountOut, filledFully is false (QuoterV2 reverts
 * when no price limit was given, and quotes the partial input when one was).
 */
export function quoteExactOutputSingle(
  pool: V3Pool,
  zeroForOne: boolean,
  amountOut: bigint,
  sqrtPriceLimitX96: bigint = 0n,
): V3QuoteResult {
  if (amountOut <= 0n) throw new AmmError('INVALID_AMOUNT', 'quoteExactOutputSingle: amountOut must be positive');
  return toQuote(pool, swapLadderEnds(pool, zeroForOne, false, [amountOut], sqrtPriceLimitX96), 0);
}

/**
 * One tick walk for an ascending list of positive amounts (exact input when exactInput, else exact output), as
 * QuoterV2 quotes each alone: swapLadderEnds's ends, which the next walk writes over (read them first). Entry i
 * answers amounts[i]: from `complete` on, the walk left the known words (INSUFFICIENT_KNOWN_LIQUIDITY, amounts up to
 * there); else filled says whether the whole amount was swapped. Throws AmmError INVALID_AMOUNT when an amount is not
 * positive or the list is not ascending, and where the pool reverts for the largest amount (AS, SPL).
 */
export function quoteLadderEnds(
  pool: V3Pool,
  zeroForOne: boolean,
  exactInput: boolean,
  amounts: readonly bigint[],
  sqrtPriceLimitX96: bigint = 0n,
  caller = 'quoteLadderEnds',
): LadderEnds {
  for (let i = 0; i < amounts.length; i++) {
    if (amounts[i] <= 0n || (i > 0 && amounts[i] < amounts[i - 1])) {
      throw new AmmError('INVALID_AMOUNT', `${caller}: amounts must be positive and ascending`);
    }
  }
  return swapLadderEnds(pool, zeroForOne, exactInput, amounts, sqrtPriceLimitX96);
}

function ladder(
  pool: V3Pool,
  zeroForOne: boolean,
  exactInput: boolean,
  amounts: readonly bigint[],
  sqrtPriceLimitX96: bigint,
  caller: string,
): V3QuoteResult[] {
  const e = quoteLadderEnds(pool, zeroForOne, exactInput, amounts, sqrtPriceLimitX96, caller);
  const results: V3QuoteResult[] = new Array(amounts.length);
  for (let i = 0; i < amounts.length; i++) results[i] = toQuote(pool, e, i);
  return results;
}

/**
 * Exact-input quotes for an ascending list of amounts from one tick walk (swapLadder): result i equals
 * quoteExactInputSingle(pool, zeroForOne, amountsIn[i], sqrtPriceLimitX96). A partial fill (the price limit or
 * the pool's liquidity reached first) has filledFully false. Throws AmmError INVALID_AMOUNT when an amount is not
 * positive or the list is not ascending, and where the pool reverts for the largest amount (AS, SPL).
 */
export function quoteExactInputLadder(
  pool: V3Pool,
  zeroForOne: boolean,
  amountsIn: readonly bigint[],
  sqrtPriceLimitX96: bigint = 0n,
): V3QuoteResult[] {
  return ladder(pool, zeroForOne, true, amountsIn, sqrtPriceLimitX96, 'quoteExactInputLadder');
}

/**
 * Exact-output quotes for an ascending list of output amounts from one tick walk (swapLadder): result i equals
 * quoteExactOutputSingle(pool, zeroForOne, amountsOut[i], sqrtPriceLimitX96), amountIn being the input the pool
 * asks for. An output the pool cannot deliver in full has filledFully false (amountOut is then what it can
 * deliver). Throws like quoteExactInputLadder.
 */
export function quoteExactOutputLadder(
  pool: V3Pool,
  zeroForOne: boolean,
  amountsOut: readonly bigint[],
  sqrtPriceLimitX96: bigint = 0n,
): V3QuoteResult[] {
  return ladder(pool, zeroForOne, false, amountsOut, sqrtPriceLimitX96, 'quoteExactOutputLadder');
}
