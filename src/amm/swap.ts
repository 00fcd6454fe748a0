import { AmmError } from './ammError.ts';
import { addDelta } from './liquidityMath.ts';
import { computeSwapStep, type SwapStep } from './swapMath.ts';
import { getTickAtSqrtRatio, MAX_SQRT_RATIO, MAX_TICK, MIN_SQRT_RATIO, MIN_TICK } from './tickMath.ts';
import type { V3Pool } from './v3Pool.ts';

const INT256_LIMIT = 1n << 255n;
const MIN_LIMIT = MIN_SQRT_RATIO + 1n;
const MAX_LIMIT = MAX_SQRT_RATIO - 1n;

/** State at the end of a swap walk (UniswapV3Pool.swap's SwapState). */
export interface SwapResult {
  /** False when the walk needed a tickBitmap word outside the known window: the state is where it stopped. */
  complete: boolean;
  /** Exact input: input not consumed (> 0); exact output: output not received (< 0). 0 when filled. */
  amountSpecifiedRemaining: bigint;
  /** Exact input: minus the output; exact output: the input including fees. */
  amountCalculated: bigint;
  sqrtPriceX96: bigint;
  tick: number;
  liquidity: bigint;
}

/** The price limit QuoterV2 uses when none is given (0): MIN_SQRT_RATIO + 1 or MAX_SQRT_RATIO - 1. */
export function defaultSqrtPriceLimit(zeroForOne: boolean, sqrtPriceLimitX96: bigint): bigint {
  if (sqrtPriceLimitX96 !== 0n) return sqrtPriceLimitX96;
  return zeroForOne ? MIN_LIMIT : MAX_LIMIT;
}

/** UniswapV3Pool.swap's argument checks: 'AS' (amountSpecified != 0, fits int256) and 'SPL'. */
export function checkSwapArguments(pool: V3Pool, zeroForOne: boolean, amountSpecified: bigint, limit: bigint): void {
  if (amountSpecified === 0n || amountSpecified >= INT256_LIMIT || amountSpecified < -INT256_LIMIT) {
    throw new AmmError('INVALID_AMOUNT', 'swap: amount must be non-zero and fit in int256 (AS)');
  }
  const ok = zeroForOne ? limit < pool.sqrtPriceX96 && limit > MIN_SQRT_RATIO : limit > pool.sqrtPriceX96 && limit < MAX_SQRT_RATIO;
  if (!ok)
    throw new AmmError('INVALID_PRICE_LIMIT', 'swap: sqrtPriceLimitX96 is not strictly between the current price and the bound (SPL)');
}

/**
 * The swap loop of UniswapV3Pool.swap (v3-core) on a pool's known state, without touching it, for a ladder of
 * amounts of one side in one walk: result i is the state UniswapV3Pool.swap ends in for amountsSpecified[i] alone.
 * The amounts are amountSpecified values of one sign (> 0 exact input, < 0 exact output) in ascending order of
 * size (not checked here). The walk steps from boundary to boundary (initialized ticks and bitmap word edges, as
 * the tick source reports them) until the current amount is used up or the price limit is reached. A step that
 * leaves the current amount something to swap reached its target with amounts that do not depend on what is
 * left, so it is shared by every larger amount; a step that uses the amount up ends it there, and the next amount
 * redoes that step with its own remainder. sqrtPriceLimitX96 = 0 means no limit (QuoterV2's default). Whole-range
 * steps come precomputed from the tick source when the state matches. Without a limit, an amount beyond what the
 * pool's whole walk swaps ends where that walk ends (WholeWalk), without walking. Throws AmmError where the contract
 * reverts on the largest amount (AS, SPL) or on the walk (LS/LA).
 */
export function swapLadder(
  pool: V3Pool,
  zeroForOne: boolean,
  amountsSpecified: readonly bigint[],
  sqrtPriceLimitX96: bigint = 0n,
): SwapResult[] {
  const n = amountsSpecified.length;
  if (n === 0) return [];
  const limit = defaultSqrtPriceLimit(zeroForOne, sqrtPriceLimitX96);
  checkSwapArguments(pool, zeroForOne, amountsSpecified[n - 1], limit);
  if (sqrtPriceLimitX96 !== 0n) return walkLadder(pool, zeroForOne, amountsSpecified, limit);
  const exactInput = amountsSpecified[0] > 0n;
  const at = (zeroForOne ? 0 : 2) + (exactInput ? 0 : 1);
  const walks = wholeWalks.get(pool);
  const whole = walks?.[at];
  if (whole === undefined) {
    const results = walkLadder(pool, zeroForOne, amountsSpecified, limit);
    // The largest amount left unfilled: the pool's whole walk in this direction is asked for (kept for the next).
    if (results[n - 1].amountSpecifiedRemaining !== 0n) wholeWalkOf(pool, zeroForOne, exactInput, limit, at, walks);
    return results;
  }
  // The amounts beyond the whole walk's: the last ones (ascending in size).
  let walked = n;
  if (whole !== null) {
    const { used } = whole;
    while (walked > 0 && (exactInput ? amountsSpecified[walked - 1] > used : amountsSpecified[walked - 1] < used)) walked--;
  }
  if (walked === n) return walkLadder(pool, zeroForOne, amountsSpecified, limit);
  const results = walked > 0 ? walkLadder(pool, zeroForOne, amountsSpecified.slice(0, walked), limit) : new Array<SwapResult>(n);
  const { used, end } = whole!;
  for (let i = walked; i < n; i++) results[i] = { ...end, amountSpecifiedRemaining: amountsSpecified[i] - used };
  return results;
}

/**
 * Where a pool's walk in one direction and on one side ends for the largest amount the contract takes (QuoterV2's
 * default price limit): at the limit or at the edge of the known words, unfilled, having swapped `used` of it
 * (signed as amountsSpecified). Any amount beyond `used` ends there too, with the same amounts calculated. That
 * walk reaches the target of every step (it has more left than any walk can swap), taking amounts that depend only
 * on the step's price, target, liquidity and fee. An amount beyond `used` has, before each step, more left than
 * that step and the rest of the walk take; that is enough to reach the target (exact output: the output to it;
 * exact input: amountIn plus its fee, whose amount less fee is at least amountIn), so it takes the same amounts,
 * never ends inside a step and is left unfilled where the walk stops.
 */
interface WholeWalk {
  readonly used: bigint;
  readonly end: SwapResult;
}

/** The largest amountSpecified the contract takes (AS): more than any walk swaps. */
const WHOLE = INT256_LIMIT - 1n;
/**
 * Each pool's whole walks (the pool is immutable): [zeroForOne exact input, zeroForOne exact output, oneForZero
 * exact input, oneForZero exact output]. Undefined until an amount of that ladder is left unfilled; null where the
 * whole walk fills (a pool that takes every input as its fee) or reverts: the amounts are walked.
 */
const wholeWalks = new WeakMap<V3Pool, (WholeWalk | null | undefined)[]>();

/** Walks the pool's whole walk in a direction and on a side (WholeWalk) and keeps it at `at` of its whole walks. */
function wholeWalkOf(
  pool: V3Pool,
  zeroForOne: boolean,
  exactInput: boolean,
  limit: bigint,
  at: number,
  known: (WholeWalk | null | undefined)[] | undefined,
): void {
  const walks = known ?? [undefined, undefined, undefined, undefined];
  if (!known) wholeWalks.set(pool, walks);
  const amount = exactInput ? WHOLE : -WHOLE;
  let end: SwapResult | undefined;
  try {
    end = walkLadder(pool, zeroForOne, [amount], limit)[0];
  } catch (error) {
    if (!(error instanceof AmmError)) throw error;
  }
  walks[at] = end === undefined || end.amountSpecifiedRemaining === 0n ? null : { used: amount - end.amountSpecifiedRemaining, end };
}

/** swapLadder's walk, its arguments checked and its price limit set. */
function walkLadder(pool: V3Pool, zeroForOne: boolean, amountsSpecified: readonly bigint[], limit: bigint): SwapResult[] {
  const n = amountsSpecified.length;
  const results: SwapResult[] = new Array(n);
  const exactInput = amountsSpecified[0] > 0n;
  const source = pool.ticks;
  const fee = pool.feePips;
  let j = 0;
  let remaining = amountsSpecified[0];
  let calculated = 0n;
  let price = pool.sqrtPriceX96;
  let tick = pool.tick;
  let liquidity = pool.liquidity;
  let step: SwapStep | undefined;
  // Whether the walk is where the last computed step started (an amount ended inside it, the next starts again):
  // that step's amount to its target is the same for this one.
  let again = false;
  for (;;) {
    if (remaining === 0n || price === limit) {
      results[j] = {
        complete: true,
        amountSpecifiedRemaining: remaining,
        amountCalculated: calculated,
        sqrtPriceX96: price,
        tick,
        liquidity,
      };
      if (++j === n) return results;
      remaining += amountsSpecified[j] - amountsSpecified[j - 1];
      continue;
    }
    const boundary = source.nextInitializedTickWithinOneWord(tick, zeroForOne);
    if (boundary === undefined) {
      for (;;) {
        results[j] = {
          complete: false,
          amountSpecifiedRemaining: remaining,
          amountCalculated: calculated,
          sqrtPriceX96: price,
          tick,
          liquidity,
        };
        if (++j === n) return results;
        remaining += amountsSpecified[j] - amountsSpecified[j - 1];
      }
    }
    let tickNext = boundary.tick;
    if (tickNext < MIN_TICK) tickNext = MIN_TICK;
    else if (tickNext > MAX_TICK) tickNext = MAX_TICK;
    const sqrtPriceNext = boundary.sqrtPriceX96;
    const target = (zeroForOne ? sqrtPriceNext < limit : sqrtPriceNext > limit) ? limit : sqrtPriceNext;
    const pre = boundary.step;
    // The tick source computed this range's step from the price the walk is at: its amounts to the boundary are the
    // contract's for this step.
    const preHere = pre !== null && target === sqrtPriceNext && price === pre.sqrtPriceStartX96 && liquidity === pre.liquidity;
    if (preHere && (exactInput ? remaining >= pre.minAmountRemaining : remaining + pre.amountOut <= 0n)) {
      // computeSwapStep would reach the boundary with exactly these amounts, for this amount and every larger one.
      if (exactInput) {
        remaining -= pre.amountInPlusFee;
        calculated -= pre.amountOut;
      } else {
        remaining += pre.amountOut;
        calculated += pre.amountInPlusFee;
      }
      price = sqrtPriceNext;
      liquidity = pre.liquidityAfter;
      tick = zeroForOne ? tickNext - 1 : tickNext;
      again = false;
      continue;
    }
    const toTarget = preHere ? (exactInput ? pre.amountIn : pre.amountOut) : again ? step!.amountToTarget : undefined;
    step = computeSwapStep(price, target, liquidity, remaining, fee, step, toTarget);
    again = false;
    const priceAfter = step.sqrtRatioNextX96;
    const remainingAfter = exactInput ? remaining - (step.amountIn + step.feeAmount) : remaining + step.amountOut;
    const calculatedAfter = exactInput ? calculated - step.amountOut : calculated + step.amountIn + step.feeAmount;
    let tickAfter = tick;
    let liquidityAfter = liquidity;
    if (priceAfter === sqrtPriceNext) {
      if (boundary.initialized) liquidityAfter = addDelta(liquidity, zeroForOne ? -boundary.liquidityNet : boundary.liquidityNet);
      tickAfter = zeroForOne ? tickNext - 1 : tickNext;
    } else if (priceAfter !== price) {
      tickAfter = getTickAtSqrtRatio(priceAfter);
    }
    if (remainingAfter !== 0n || j === n - 1) {
      // Shared by every larger amount (or there is none): the walk moves on.
      remaining = remainingAfter;
      calculated = calculatedAfter;
      price = priceAfter;
      tick = tickAfter;
      liquidity = liquidityAfter;
      continue;
    }
    // This amount ends inside the step; the next one starts again from the state before it.
    again = true;
    results[j++] = {
      complete: true,
      amountSpecifiedRemaining: 0n,
      amountCalculated: calculatedAfter,
      sqrtPriceX96: priceAfter,
      tick: tickAfter,
      liquidity: liquidityAfter,
    };
    remaining += amountsSpecified[j] - amountsSpecified[j - 1];
  }
}

/**
 * UniswapV3Pool.swap (v3-core) for one amount: amountSpecified > 0 is exact input, < 0 exact output; the walk of
 * swapLadder with a ladder of one. Throws AmmError where the contract reverts (AS, SPL, LS/LA).
 */
export function swap(pool: V3Pool, zeroForOne: boolean, amountSpecified: bigint, sqrtPriceLimitX96: bigint = 0n): SwapResult {
  return swapLadder(pool, zeroForOne, [amountSpecified], sqrtPriceLimitX96)[0];
}
