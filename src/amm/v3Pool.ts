import { AmmError } from './ammError.ts';
import { UINT128_LIMIT } from './liquidityMath.ts';
import { MAX_SQRT_RATIO, MAX_TICK, MIN_SQRT_RATIO, MIN_TICK } from './tickMath.ts';
import { type TickSource, WindowTickSource } from './tickSource.ts';

/** State of one Uniswap v3 pool as a snapshot holds it (amounts already converted to bigint). */
export interface V3PoolData {
  /** slot0.sqrtPriceX96 */
  sqrtPriceX96: bigint;
  /** slot0.tick */
  tick: number;
  /** liquidity() (in range) */
  liquidity: bigint;
  tickSpacing: number;
  /** Swap fee in pips (hundredths of a bip): 500 = 0.05%. */
  fee: number;
  /** Initialized ticks inside bitmapWords, ascending: [tick, liquidityNet]. */
  ticks: ReadonlyArray<readonly [number, bigint]>;
  /** Inclusive range [first, last] of tickBitmap words (compressed tick >> 8) that were read. */
  bitmapWords: readonly [number, number];
}

/** A v3 pool ready to quote: immutable, shareable by any number of quotes. Build it with createV3Pool. */
export interface V3Pool {
  readonly sqrtPriceX96: bigint;
  readonly tick: number;
  readonly liquidity: bigint;
  readonly tickSpacing: number;
  /** Fee in pips. */
  readonly fee: number;
  /** Fee in pips as a bigint, for the math. */
  readonly feePips: bigint;
  readonly bitmapWords: readonly [number, number];
  /** Initialized ticks, ascending (for PoolTicksCounter). */
  readonly initializedTicks: Int32Array;
  /** Where the swap loop finds the next initialized tick. */
  readonly ticks: TickSource;
}

/** The fees and tick spacings a protocol's pools may have (the walk is the same for every protocol within them). */
export interface PoolLimits {
  /** Highest fee in pips. */
  readonly maxFee: number;
  /** Highest tick spacing. */
  readonly maxTickSpacing: number;
}

/** Uniswap v3: a fee below 100% (UniswapV3Factory.enableFeeAmount: fee < 1e6) and a tick spacing below 16384. */
export const V3_POOL_LIMITS: PoolLimits = Object.freeze({ maxFee: 999_999, maxTickSpacing: 16_383 });

/**
 * Validates snapshot state and builds an immutable V3Pool, precomputing every tick boundary's sqrt price and
 * the whole-range swap steps between them; `limits` bound its fee and tick spacing (v3's unless given). Throws
 * AmmError INVALID_POOL_STATE on inconsistent data.
 */
export function createV3Pool(data: V3PoolData, limits: PoolLimits = V3_POOL_LIMITS): V3Pool {
  const { sqrtPriceX96, tick, liquidity, tickSpacing, fee } = data;
  if (sqrtPriceX96 < MIN_SQRT_RATIO || sqrtPriceX96 >= MAX_SQRT_RATIO) {
    throw new AmmError('INVALID_POOL_STATE', 'sqrtPriceX96 outside [MIN_SQRT_RATIO, MAX_SQRT_RATIO)');
  }
  if (!Number.isInteger(tick) || tick < MIN_TICK || tick > MAX_TICK)
    throw new AmmError('INVALID_POOL_STATE', `tick ${tick} outside the tick range`);
  if (liquidity < 0n || liquidity >= UINT128_LIMIT) throw new AmmError('INVALID_POOL_STATE', 'liquidity outside uint128');
  if (!Number.isInteger(tickSpacing) || tickSpacing < 1 || tickSpacing > limits.maxTickSpacing) {
    throw new AmmError('INVALID_POOL_STATE', `tickSpacing ${tickSpacing} outside [1, ${limits.maxTickSpacing}]`);
  }
  if (!Number.isInteger(fee) || fee < 0 || fee > limits.maxFee) {
    throw new AmmError('INVALID_POOL_STATE', `fee ${fee} pips outside [0, ${limits.maxFee}]`);
  }
  const [first, last] = data.bitmapWords;
  if (!Number.isInteger(first) || !Number.isInteger(last) || first > last) {
    throw new AmmError('INVALID_POOL_STATE', 'bitmapWords must be an ascending pair of integers');
  }
  const source = new WindowTickSource(data);
  return Object.freeze({
    sqrtPriceX96,
    tick,
    liquidity,
    tickSpacing,
    fee,
    feePips: BigInt(fee),
    bitmapWords: Object.freeze([first, last] as const),
    initializedTicks: Int32Array.from(data.ticks, (t) => t[0]),
    ticks: source,
  });
}
