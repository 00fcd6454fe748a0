import { AmmError } from './ammError.ts'
import { addDelta } from './liquidityMath.ts'
import { countInitializedTicksCrossed } from './poolTicksCounter.ts'
import { checkSwapArguments, defaultSqrtPriceLimit, swap, type SwapResult } from './swap.ts'
import { computeSwapStep, createSwapStep } from './swapMath.ts'
import { getTickAtSqrtRatio, MAX_TICK, MIN_TICK } from './tickMath.ts'
import type { V3Pool } from './v3Pool.ts'

/** A quote the pool's known state can answer. */
export interface V3QuoteFilled {
  ok: true
  /**
   * True when the whole requested amount is swapped. False when the pool ran out of liquidity or the walk hit
   * the price limit first: amountIn / amountOut are then the partial amounts (QuoterV2's exact-input quote
   * returns such a partial amountOut; its exact-output quote without a price limit reverts instead).
   */
  filledFully: boolean
  /** Input paid, fees included. */
  amountIn: bigint
  amountOut: bigint
  sqrtPriceX96After: bigint
  tickAfter: number
  liquidityAfter: bigint
  /** As QuoterV2 reports it (PoolTicksCounter.countInitializedTicksCrossed). */
  initializedTicksCrossed: number
}

/** The walk would leave the tickBitmap words the snapshot knows: only the amounts up to there are given. */
export interface V3QuoteUnknownLiquidity {
  ok: false
  code: 'INSUFFICIENT_KNOWN_LIQUIDITY'
  /** Input consumed up to the edge of the known words, fees included. */
  amountIn: bigint
  /** Output for that part. */
  amountOut: bigint
}

export type V3QuoteResult = V3QuoteFilled | V3QuoteUnknownLiquidity

function toQuote(pool: V3Pool, exactInput: boolean, amount: bigint, r: SwapResult): V3QuoteResult {
  const amountIn = exactInput ? amount - r.amountSpecifiedRemaining : r.amountCalculated
  const amountOut = exactInput ? -r.amountCalculated : amount + r.amountSpecifiedRemaining
  if (!r.complete) return { ok: false, code: 'INSUFFICIENT_KNOWN_LIQUIDITY', amountIn, amountOut }
  return {
    ok: true,
    filledFully: r.amountSpecifiedRemaining === 0n,
    amountIn,
    amountOut,
    sqrtPriceX96After: r.sqrtPriceX96,
    tickAfter: r.tick,
    liquidityAfter: r.liquidity,
    initializedTicksCrossed: countInitializedTicksCrossed(pool, pool.tick, r.tick),
  }
}

/**
 * Quote an exact-input single-pool swap like QuoterV2.quoteExactInputSingle (v3-periphery) on the pool's state.
 * sqrtPriceLimitX96 = 0 means MIN_SQRT_RATIO + 1 / MAX_SQRT_RATIO - 1. Throws AmmError INVALID_AMOUNT
 * (amountIn <= 0) or INVALID_PRICE_LIMIT where the pool reverts (AS, SPL).
 */
export function quoteExactInputSingle(pool: V3Pool, zeroForOne: boolean, amountIn: bigint, sqrtPriceLimitX96: bigint = 0n): V3QuoteResult {
  if (amountIn <= 0n) throw new AmmError('INVALID_AMOUNT', 'quoteExactInputSingle: amountIn must be positive')
  return toQuote(pool, true, amountIn, swap(pool, zeroForOne, amountIn, sqrtPriceLimitX96))
}

/**
 * Quote an exact-output single-pool swap like QuoterV2.quoteExactOutputSingle (v3-periphery): amountIn is what
 * the pool asks for. Where the pool cannot deliver all of amountOut, filledFully is false (QuoterV2 reverts
 * when no price limit was given, and quotes the partial input when one was).
 */
export function quoteExactOutputSingle(pool: V3Pool, zeroForOne: boolean, amountOut: bigint, sqrtPriceLimitX96: bigint = 0n): V3QuoteResult {
  if (amountOut <= 0n) throw new AmmError('INVALID_AMOUNT', 'quoteExactOutputSingle: amountOut must be positive')
  return toQuote(pool, false, amountOut, swap(pool, zeroForOne, -amountOut, sqrtPriceLimitX96))
}

/**
 * Exact-input quotes for an ascending list of amounts from one tick walk: result i equals
 * quoteExactInputSingle(pool, zeroForOne, amountsIn[i], sqrtPriceLimitX96). Every step that reaches its target
 * for one amount is shared by all larger amounts; each amount then ends with its own partial step.
 */
export function quoteExactInputLadder(
  pool: V3Pool,
  zeroForOne: boolean,
  amountsIn: readonly bigint[],
  sqrtPriceLimitX96: bigint = 0n,
): V3QuoteResult[] {
  const n = amountsIn.length
  const results: V3QuoteResult[] = new Array(n)
  if (n === 0) return results
  for (let i = 0; i < n; i++) {
    if (amountsIn[i] <= 0n || (i > 0 && amountsIn[i] < amountsIn[i - 1])) {
      throw new AmmError('INVALID_AMOUNT', 'quoteExactInputLadder: amounts must be positive and ascending')
    }
  }
  const limit = defaultSqrtPriceLimit(zeroForOne, sqrtPriceLimitX96)
  checkSwapArguments(pool, zeroForOne, amountsIn[n - 1], limit)
  const source = pool.ticks
  const fee = pool.feePips
  const tickBefore = pool.tick
  const step = createSwapStep()
  // Shared state after the steps every remaining amount takes.
  let consumed = 0n
  let received = 0n
  let price = pool.sqrtPriceX96
  let tick = pool.tick
  let liquidity = pool.liquidity
  let j = 0
  while (j < n) {
    const remaining = amountsIn[j] - consumed
    if (remaining === 0n || price === limit) {
      results[j++] = {
        ok: true,
        filledFully: remaining === 0n,
        amountIn: consumed,
        amountOut: received,
        sqrtPriceX96After: price,
        tickAfter: tick,
        liquidityAfter: liquidity,
        initializedTicksCrossed: countInitializedTicksCrossed(pool, tickBefore, tick),
      }
      continue
    }
    const boundary = source.nextInitializedTickWithinOneWord(tick, zeroForOne)
    if (boundary === undefined) {
      for (; j < n; j++) results[j] = { ok: false, code: 'INSUFFICIENT_KNOWN_LIQUIDITY', amountIn: consumed, amountOut: received }
      break
    }
    let tickNext = boundary.tick
    if (tickNext < MIN_TICK) tickNext = MIN_TICK
    else if (tickNext > MAX_TICK) tickNext = MAX_TICK
    const sqrtPriceNext = boundary.sqrtPriceX96
    const target = (zeroForOne ? sqrtPriceNext < limit : sqrtPriceNext > limit) ? limit : sqrtPriceNext
    const pre = boundary.step
    if (pre !== null && target === sqrtPriceNext && price === pre.sqrtPriceStartX96 && liquidity === pre.liquidity && remaining >= pre.minAmountRemaining) {
      consumed += pre.amountInPlusFee
      received += pre.amountOut
      price = sqrtPriceNext
      liquidity = pre.liquidityAfter
      tick = zeroForOne ? tickNext - 1 : tickNext
      continue
    }
    computeSwapStep(price, target, liquidity, remaining, fee, step)
    if (step.sqrtRatioNextX96 === target) {
      // Reached the target: the same step for every amount still open.
      const start = price
      consumed += step.amountIn + step.feeAmount
      received += step.amountOut
      price = target
      if (price === sqrtPriceNext) {
        if (boundary.initialized) liquidity = addDelta(liquidity, zeroForOne ? -boundary.liquidityNet : boundary.liquidityNet)
        tick = zeroForOne ? tickNext - 1 : tickNext
      } else if (price !== start) {
        tick = getTickAtSqrtRatio(price)
      }
      continue
    }
    // A partial step ends this amount's swap (its remaining input is used up); larger amounts go on from the shared state.
    const end = step.sqrtRatioNextX96
    const tickAfter = end === price ? tick : getTickAtSqrtRatio(end)
    results[j++] = {
      ok: true,
      filledFully: true,
      amountIn: consumed + step.amountIn + step.feeAmount,
      amountOut: received + step.amountOut,
      sqrtPriceX96After: end,
      tickAfter,
      liquidityAfter: liquidity,
      initializedTicksCrossed: countInitializedTicksCrossed(pool, tickBefore, tickAfter),
    }
  }
  return results
}
