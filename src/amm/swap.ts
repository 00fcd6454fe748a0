import { AmmError } from './ammError.ts'
import { addDelta } from './liquidityMath.ts'
import { computeSwapStep, type SwapStep } from './swapMath.ts'
import { getTickAtSqrtRatio, MAX_SQRT_RATIO, MAX_TICK, MIN_SQRT_RATIO, MIN_TICK } from './tickMath.ts'
import type { V3Pool } from './v3Pool.ts'

const INT256_LIMIT = 1n << 255n
const MIN_LIMIT = MIN_SQRT_RATIO + 1n
const MAX_LIMIT = MAX_SQRT_RATIO - 1n

/** State at the end of a swap walk (UniswapV3Pool.swap's SwapState). */
export interface SwapResult {
  /** False when the walk needed a tickBitmap word outside the known window: the state is where it stopped. */
  complete: boolean
  /** Exact input: input not consumed (> 0); exact output: output not received (< 0). 0 when filled. */
  amountSpecifiedRemaining: bigint
  /** Exact input: minus the output; exact output: the input including fees. */
  amountCalculated: bigint
  sqrtPriceX96: bigint
  tick: number
  liquidity: bigint
}

/** The price limit QuoterV2 uses when none is given (0): MIN_SQRT_RATIO + 1 or MAX_SQRT_RATIO - 1. */
export function defaultSqrtPriceLimit(zeroForOne: boolean, sqrtPriceLimitX96: bigint): bigint {
  if (sqrtPriceLimitX96 !== 0n) return sqrtPriceLimitX96
  return zeroForOne ? MIN_LIMIT : MAX_LIMIT
}

/** UniswapV3Pool.swap's argument checks: 'AS' (amountSpecified != 0, fits int256) and 'SPL'. */
export function checkSwapArguments(pool: V3Pool, zeroForOne: boolean, amountSpecified: bigint, limit: bigint): void {
  if (amountSpecified === 0n || amountSpecified >= INT256_LIMIT || amountSpecified < -INT256_LIMIT) {
    throw new AmmError('INVALID_AMOUNT', 'swap: amount must be non-zero and fit in int256 (AS)')
  }
  const ok = zeroForOne
    ? limit < pool.sqrtPriceX96 && limit > MIN_SQRT_RATIO
    : limit > pool.sqrtPriceX96 && limit < MAX_SQRT_RATIO
  if (!ok) throw new AmmError('INVALID_PRICE_LIMIT', 'swap: sqrtPriceLimitX96 is not strictly between the current price and the bound (SPL)')
}

/**
 * The swap loop of UniswapV3Pool.swap (v3-core) on a pool's known state, without touching it: steps from
 * boundary to boundary (initialized ticks and bitmap word edges, as the tick source reports them) until the
 * amount is used up or the price limit is reached. amountSpecified > 0 is exact input, < 0 exact output.
 * sqrtPriceLimitX96 = 0 means no limit (QuoterV2's default). Whole-range steps come precomputed from the tick
 * source when the state matches. Throws AmmError where the contract reverts (AS, SPL, LS/LA).
 */
export function swap(pool: V3Pool, zeroForOne: boolean, amountSpecified: bigint, sqrtPriceLimitX96: bigint = 0n): SwapResult {
  const limit = defaultSqrtPriceLimit(zeroForOne, sqrtPriceLimitX96)
  checkSwapArguments(pool, zeroForOne, amountSpecified, limit)
  const exactInput = amountSpecified > 0n
  const source = pool.ticks
  const fee = pool.feePips
  let remaining = amountSpecified
  let calculated = 0n
  let price = pool.sqrtPriceX96
  let tick = pool.tick
  let liquidity = pool.liquidity
  let step: SwapStep | undefined
  while (remaining !== 0n && price !== limit) {
    const boundary = source.nextInitializedTickWithinOneWord(tick, zeroForOne)
    if (boundary === undefined) {
      return { complete: false, amountSpecifiedRemaining: remaining, amountCalculated: calculated, sqrtPriceX96: price, tick, liquidity }
    }
    let tickNext = boundary.tick
    if (tickNext < MIN_TICK) tickNext = MIN_TICK
    else if (tickNext > MAX_TICK) tickNext = MAX_TICK
    const sqrtPriceNext = boundary.sqrtPriceX96
    const target = (zeroForOne ? sqrtPriceNext < limit : sqrtPriceNext > limit) ? limit : sqrtPriceNext
    const pre = boundary.step
    if (
      pre !== null &&
      target === sqrtPriceNext &&
      price === pre.sqrtPriceStartX96 &&
      liquidity === pre.liquidity &&
      (exactInput ? remaining >= pre.minAmountRemaining : remaining + pre.amountOut <= 0n)
    ) {
      // computeSwapStep would reach the boundary with exactly these amounts; then the tick is crossed.
      if (exactInput) {
        remaining -= pre.amountInPlusFee
        calculated -= pre.amountOut
      } else {
        remaining += pre.amountOut
        calculated += pre.amountInPlusFee
      }
      price = sqrtPriceNext
      liquidity = pre.liquidityAfter
      tick = zeroForOne ? tickNext - 1 : tickNext
      continue
    }
    const start = price
    step = computeSwapStep(price, target, liquidity, remaining, fee, step)
    price = step.sqrtRatioNextX96
    if (exactInput) {
      remaining -= step.amountIn + step.feeAmount
      calculated -= step.amountOut
    } else {
      remaining += step.amountOut
      calculated += step.amountIn + step.feeAmount
    }
    if (price === sqrtPriceNext) {
      if (boundary.initialized) liquidity = addDelta(liquidity, zeroForOne ? -boundary.liquidityNet : boundary.liquidityNet)
      tick = zeroForOne ? tickNext - 1 : tickNext
    } else if (price !== start) {
      tick = getTickAtSqrtRatio(price)
    }
  }
  return { complete: true, amountSpecifiedRemaining: remaining, amountCalculated: calculated, sqrtPriceX96: price, tick, liquidity }
}
