import { AmmError } from './ammError.ts';
import { addDelta } from './liquidityMath.ts';
import { amountToTarget, createStepEnd, createStepReach, MAX_FEE, stepEndingInside, stepReachingTarget } from './swapMath.ts';
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
 * A ladder walk's ends: entry i for the ladder's amount i, in arrays this module owns and the next walk writes over
 * (read them before walking again). No record per amount.
 */
export interface LadderEnds {
  /**
   * How many amounts the walk answered from the known state: from this index on, the walk needed a tickBitmap word
   * outside the known window (SwapResult.complete false) and the entries are where it stopped.
   */
  complete: number;
  /** Whether the whole amount was swapped (UniswapV3Pool.swap's amountSpecifiedRemaining ends at 0). */
  readonly filled: boolean[];
  /** Input paid, fees included. */
  readonly amountIn: bigint[];
  /** Output received. */
  readonly amountOut: bigint[];
  readonly sqrtPriceX96: bigint[];
  readonly tick: number[];
  readonly liquidity: bigint[];
}

const newEnds = (): LadderEnds => ({ complete: 0, filled: [], amountIn: [], amountOut: [], sqrtPriceX96: [], tick: [], liquidity: [] });
/** The ladders' ends (swapLadderEnds) and the whole walks' (wholeWalkOf), kept apart: a ladder's survive a whole walk. */
const ladderEnds = newEnds();
const wholeEnds = newEnds();
/** stepReachingTarget's record for the steps that reach their target (read at once, never kept). */
const reached = createStepReach();
/** stepEndingInside's record for the steps an amount ends inside (read at once, never kept). */
const stepEnd = createStepEnd();

/**
 * The swap loop of UniswapV3Pool.swap (v3-core) on a pool's known state, without touching it, for a ladder of
 * amounts of one side in one walk: entry i of the ends is the state UniswapV3Pool.swap ends in for amounts[i] alone
 * (exact input when exactInput, else exact output). The amounts are positive and ascending (not checked here). The
 * walk steps from boundary to boundary (initialized ticks and bitmap word edges, as the tick source reports them)
 * until the current amount is used up or the price limit is reached. A step that leaves the current amount
 * something to swap reached its target with amounts that do not depend on what is left, so it is shared by every
 * larger amount; a step that uses the amount up ends it there, and the next amount redoes that step with its own
 * remainder. sqrtPriceLimitX96 = 0 means no limit (QuoterV2's default). Whole-range steps come precomputed from the
 * tick source when the state matches. Without a limit, an amount beyond what the pool's whole walk swaps ends where
 * that walk ends (WholeWalk), without walking. Throws AmmError where the contract reverts on the largest amount (AS,
 * SPL) or on the walk (LS/LA). The ends are this module's arrays, written over by the next call.
 */
export function swapLadderEnds(
  pool: V3Pool,
  zeroForOne: boolean,
  exactInput: boolean,
  amounts: readonly bigint[],
  sqrtPriceLimitX96: bigint = 0n,
): LadderEnds {
  const n = amounts.length;
  const ends = ladderEnds;
  ends.complete = 0;
  if (n === 0) return ends;
  const limit = defaultSqrtPriceLimit(zeroForOne, sqrtPriceLimitX96);
  checkSwapArguments(pool, zeroForOne, exactInput ? amounts[n - 1] : -amounts[n - 1], limit);
  if (sqrtPriceLimitX96 !== 0n) {
    walkLadder(pool, zeroForOne, exactInput, amounts, n, limit, ends);
    return ends;
  }
  const at = (zeroForOne ? 0 : 2) + (exactInput ? 0 : 1);
  const walks = wholeWalks.get(pool);
  const whole = walks?.[at];
  if (whole === undefined) {
    walkLadder(pool, zeroForOne, exactInput, amounts, n, limit, ends);
    // The largest amount left unfilled: the pool's whole walk in this direction is asked for (kept for the next).
    if (!ends.filled[n - 1]) wholeWalkOf(pool, zeroForOne, exactInput, limit, at, walks);
    return ends;
  }
  // The amounts beyond the whole walk's: the last ones (ascending).
  let walked = n;
  if (whole !== null) while (walked > 0 && amounts[walked - 1] > whole.used) walked--;
  if (walked > 0) walkLadder(pool, zeroForOne, exactInput, amounts, walked, limit, ends);
  if (walked === n) return ends;
  // Every amount up to the whole walk's is answered from the known state (it is within that walk).
  const end = whole!.end;
  if (end.complete && ends.complete === walked) ends.complete = n;
  for (let i = walked; i < n; i++) {
    ends.filled[i] = false;
    ends.amountIn[i] = end.amountIn;
    ends.amountOut[i] = end.amountOut;
    ends.sqrtPriceX96[i] = end.sqrtPriceX96;
    ends.tick[i] = end.tick;
    ends.liquidity[i] = end.liquidity;
  }
  return ends;
}

/**
 * Where a pool's walk in one direction and on one side ends for the largest amount the contract takes (QuoterV2's
 * default price limit): at the limit or at the edge of the known words, unfilled, having swapped `used` of it
 * (its amountIn on exact input, its amountOut on exact output). Any amount beyond `used` ends there too, with the
 * same amounts swapped. That walk reaches the target of every step (it has more left than any walk can swap), taking
 * amounts that depend only on the step's price, target, liquidity and fee. An amount beyond `used` has, before each
 * step, more left than that step and the rest of the walk take; that is enough to reach the target (exact output:
 * the output to it; exact input: amountIn plus its fee, whose amount less fee is at least amountIn), so it takes the
 * same amounts, never ends inside a step and is left unfilled where the walk stops.
 */
interface WholeWalk {
  readonly used: bigint;
  readonly end: {
    readonly complete: boolean;
    readonly amountIn: bigint;
    readonly amountOut: bigint;
    readonly sqrtPriceX96: bigint;
    readonly tick: number;
    readonly liquidity: bigint;
  };
}

/** The largest amountSpecified the contract takes (AS): more than any walk swaps. */
const WHOLE = INT256_LIMIT - 1n;
const WHOLE_LADDER = [WHOLE];
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
  const e = wholeEnds;
  try {
    walkLadder(pool, zeroForOne, exactInput, WHOLE_LADDER, 1, limit, e);
  } catch (error) {
    if (!(error instanceof AmmError)) throw error;
    walks[at] = null;
    return;
  }
  walks[at] = e.filled[0]
    ? null
    : {
        used: exactInput ? e.amountIn[0] : e.amountOut[0],
        end: {
          complete: e.complete > 0,
          amountIn: e.amountIn[0],
          amountOut: e.amountOut[0],
          sqrtPriceX96: e.sqrtPriceX96[0],
          tick: e.tick[0],
          liquidity: e.liquidity[0],
        },
      };
}

/**
 * swapLadderEnds's walk of the first `n` amounts, its arguments checked and its price limit set. The walk keeps
 * what is left of the current amount (`left`) and what it swapped on the other side (`calculated`) as magnitudes.
 */
function walkLadder(
  pool: V3Pool,
  zeroForOne: boolean,
  exactInput: boolean,
  amounts: readonly bigint[],
  n: number,
  limit: bigint,
  ends: LadderEnds,
): void {
  const source = pool.ticks;
  const fee = pool.feePips;
  const feeComplement = MAX_FEE - fee;
  ends.complete = n;
  let j = 0;
  let left = amounts[0];
  let calculated = 0n;
  let price = pool.sqrtPriceX96;
  let tick = pool.tick;
  let liquidity = pool.liquidity;
  // Whether the walk is where the last amount ended inside a step (the next starts again from there), and that
  // step's amount to its target: the same for this one.
  let again = false;
  let toTarget = 0n;
  for (;;) {
    if (left === 0n || price === limit) {
      writeEnd(ends, j, exactInput, amounts[j], left, calculated, price, tick, liquidity);
      if (++j === n) return;
      left += amounts[j] - amounts[j - 1];
      continue;
    }
    const boundary = source.nextInitializedTickWithinOneWord(tick, zeroForOne);
    if (boundary === undefined) {
      ends.complete = j;
      for (;;) {
        writeEnd(ends, j, exactInput, amounts[j], left, calculated, price, tick, liquidity);
        if (++j === n) return;
        left += amounts[j] - amounts[j - 1];
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
    if (preHere && left >= (exactInput ? pre.minAmountRemaining : pre.amountOut)) {
      // computeSwapStep would reach the boundary with exactly these amounts, for this amount and every larger one.
      if (exactInput) {
        left -= pre.amountInPlusFee;
        calculated += pre.amountOut;
      } else {
        left -= pre.amountOut;
        calculated += pre.amountInPlusFee;
      }
      price = sqrtPriceNext;
      liquidity = pre.liquidityAfter;
      tick = zeroForOne ? tickNext - 1 : tickNext;
      again = false;
      continue;
    }
    if (preHere) toTarget = exactInput ? pre.amountIn : pre.amountOut;
    else if (!again) toTarget = amountToTarget(price, target, liquidity, exactInput, zeroForOne);
    again = false;
    // computeSwapStep's amountRemainingLessFee (exact input) or remaining output, against what reaching the target takes.
    const lessFee = exactInput ? (left * feeComplement) / MAX_FEE : left;
    let priceAfter: bigint;
    let taken: bigint | undefined;
    let swapped: bigint | undefined;
    if (lessFee >= toTarget) {
      // The step reaches its target: amounts that do not depend on what is left (computeSwapStep's, stepReachingTarget).
      const step = stepReachingTarget(price, target, liquidity, exactInput, zeroForOne, toTarget, fee, feeComplement, reached);
      priceAfter = target;
      taken = step.taken;
      swapped = step.swapped;
    } else {
      // The amount ends inside the step (stepEndingInside: only what the walk reads is computed).
      const end = stepEndingInside(price, liquidity, exactInput, lessFee, zeroForOne, fee, feeComplement, stepEnd);
      priceAfter = end.sqrtRatioNextX96;
      swapped = end.swapped;
    }
    let tickAfter = tick;
    let liquidityAfter = liquidity;
    if (priceAfter === sqrtPriceNext) {
      if (boundary.initialized) liquidityAfter = addDelta(liquidity, zeroForOne ? -boundary.liquidityNet : boundary.liquidityNet);
      tickAfter = zeroForOne ? tickNext - 1 : tickNext;
    } else if (priceAfter !== price) {
      tickAfter = getTickAtSqrtRatio(priceAfter);
    }
    if (taken !== undefined) {
      // Shared by every larger amount: the walk moves on (an amount it uses up exactly ends at the loop's top).
      left -= taken;
      calculated += swapped;
      price = priceAfter;
      tick = tickAfter;
      liquidity = liquidityAfter;
      continue;
    }
    // This amount ends inside the step; the next one starts again from the state before it.
    writeEnd(
      ends,
      j,
      exactInput,
      amounts[j],
      0n,
      calculated === 0n ? swapped : calculated + swapped,
      priceAfter,
      tickAfter,
      liquidityAfter,
    );
    if (++j === n) return;
    again = true;
    left += amounts[j] - amounts[j - 1];
  }
}

/** Writes amount j's end: `left` of the amount not swapped, `calculated` swapped on the other side. */
function writeEnd(
  ends: LadderEnds,
  j: number,
  exactInput: boolean,
  amount: bigint,
  left: bigint,
  calculated: bigint,
  price: bigint,
  tick: number,
  liquidity: bigint,
): void {
  const filled = left === 0n;
  const swapped = filled ? amount : amount - left;
  ends.filled[j] = filled;
  ends.amountIn[j] = exactInput ? swapped : calculated;
  ends.amountOut[j] = exactInput ? calculated : swapped;
  ends.sqrtPriceX96[j] = price;
  ends.tick[j] = tick;
  ends.liquidity[j] = liquidity;
}

/**
 * swapLadderEnds as UniswapV3Pool.swap's SwapState per amount: amountsSpecified > 0 exact input, < 0 exact output,
 * of one sign and ascending in size (not checked here). Throws AmmError where the contract reverts.
 */
export function swapLadder(
  pool: V3Pool,
  zeroForOne: boolean,
  amountsSpecified: readonly bigint[],
  sqrtPriceLimitX96: bigint = 0n,
): SwapResult[] {
  const n = amountsSpecified.length;
  if (n === 0) return [];
  const exactInput = amountsSpecified[0] > 0n;
  const amounts = exactInput ? amountsSpecified : amountsSpecified.map((a) => -a);
  const e = swapLadderEnds(pool, zeroForOne, exactInput, amounts, sqrtPriceLimitX96);
  const results: SwapResult[] = new Array(n);
  for (let i = 0; i < n; i++) {
    results[i] = {
      complete: i < e.complete,
      amountSpecifiedRemaining: exactInput ? amounts[i] - e.amountIn[i] : e.amountOut[i] - amounts[i],
      amountCalculated: exactInput ? -e.amountOut[i] : e.amountIn[i],
      sqrtPriceX96: e.sqrtPriceX96[i],
      tick: e.tick[i],
      liquidity: e.liquidity[i],
    };
  }
  return results;
}

/**
 * UniswapV3Pool.swap (v3-core) for one amount: amountSpecified > 0 is exact input, < 0 exact output; the walk of
 * swapLadder with a ladder of one. Throws AmmError where the contract reverts (AS, SPL, LS/LA).
 */
export function swap(pool: V3Pool, zeroForOne: boolean, amountSpecified: bigint, sqrtPriceLimitX96: bigint = 0n): SwapResult {
  return swapLadder(pool, zeroForOne, [amountSpecified], sqrtPriceLimitX96)[0];
}
