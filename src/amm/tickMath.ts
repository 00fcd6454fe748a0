import { AmmError } from './ammError.ts';
import { MAX_UINT256 } from './fullMath.ts';

/** TickMath.MIN_TICK: the minimum tick, log base sqrt(1.0001) of 2^-128. */
export const MIN_TICK = -887272;
/** TickMath.MAX_TICK: the maximum tick, log base sqrt(1.0001) of 2^128. */
export const MAX_TICK = 887272;
/** TickMath.MIN_SQRT_RATIO: getSqrtRatioAtTick(MIN_TICK). */
export const MIN_SQRT_RATIO = 4295128739n;
/** TickMath.MAX_SQRT_RATIO: getSqrtRatioAtTick(MAX_TICK). */
export const MAX_SQRT_RATIO = 1461446703485210103287273052203988822378723970342n;

const MASK32 = (1n << 32n) - 1n;

// The per-bit factors of TickMath.getSqrtRatioAtTick: 1 / sqrt(1.0001)^(2^i) in Q128.128.
const FACTORS: readonly bigint[] = [
  0xfffcb933bd6fad37aa2d162d1a594001n,
  0xfff97272373d413259a46990580e213an,
  0xfff2e50f5f656932ef12357cf3c7fdccn,
  0xffe5caca7e10e4e61c3624eaa0941cd0n,
  0xffcb9843d60f6159c9db58835c926644n,
  0xff973b41fa98c081472e6896dfb254c0n,
  0xff2ea16466c96a3843ec78b326b52861n,
  0xfe5dee046a99a2a811c461f1969c3053n,
  0xfcbe86c7900a88aedcffc83b479aa3a4n,
  0xf987a7253ac413176f2b074cf7815e54n,
  0xf3392b0822b70005940c7a398e4b70f3n,
  0xe7159475a2c29b7443b29c7fa6e889d9n,
  0xd097f3bdfd2022b8845ad8f792aa5825n,
  0xa9f746462d870fdf8a65dc1f90e061e5n,
  0x70d869a156d2a1b890bb3df62baf32f7n,
  0x31be135f97d08fd981231505542fcfa6n,
  0x9aa508b5b7a84e1c677de54f3e99bc9n,
  0x5d6af8dedb81196699c329225ee604n,
  0x2216e584f5fa1ea926041bedfe98n,
  0x48a170391f7dc42444e8fa2n,
];

/**
 * sqrt(1.0001^tick) * 2^96 as a Q64.96, rounded up, like TickMath.getSqrtRatioAtTick (v3-core TickMath.sol).
 * Throws TICK_OUT_OF_RANGE where the contract reverts with 'T'.
 */
export function getSqrtRatioAtTick(tick: number): bigint {
  const absTick = tick < 0 ? -tick : tick;
  if (!Number.isInteger(tick) || absTick > MAX_TICK) {
    throw new AmmError('TICK_OUT_OF_RANGE', `getSqrtRatioAtTick: tick ${tick} outside [${MIN_TICK}, ${MAX_TICK}]`);
  }
  let ratio = (absTick & 1) !== 0 ? FACTORS[0] : 0x100000000000000000000000000000000n;
  for (let i = 1; i < 20; i++) {
    if ((absTick & (1 << i)) !== 0) ratio = (ratio * FACTORS[i]) >> 128n;
  }
  if (tick > 0) ratio = MAX_UINT256 / ratio;
  return (ratio >> 32n) + ((ratio & MASK32) === 0n ? 0n : 1n);
}

/** Index of the most significant set bit of x > 0, like BitMath.mostSignificantBit. */
function mostSignificantBit(x: bigint): number {
  let msb = 0;
  if (x >= 0x100000000000000000000000000000000n) {
    x >>= 128n;
    msb += 128;
  }
  if (x >= 0x10000000000000000n) {
    x >>= 64n;
    msb += 64;
  }
  // Below 2^64 the value is exact as a double after one split.
  const n = x >= 0x100000000n ? Number(x >> 32n) : Number(x);
  if (x >= 0x100000000n) msb += 32;
  return msb + 31 - Math.clz32(n);
}

/**
 * The greatest tick whose sqrt ratio is <= sqrtPriceX96, as TickMath.getTickAtSqrtRatio (v3-core TickMath.sol)
 * defines it, computed line by line like the contract: fixed-point log2 (msb, 14 squarings), the same bounds
 * and the same final check. Throws SQRT_PRICE_OUT_OF_RANGE where the contract reverts with 'R'.
 */
export function getTickAtSqrtRatioLog2(sqrtPriceX96: bigint): number {
  if (sqrtPriceX96 < MIN_SQRT_RATIO || sqrtPriceX96 >= MAX_SQRT_RATIO) {
    throw new AmmError('SQRT_PRICE_OUT_OF_RANGE', 'getTickAtSqrtRatio: sqrt price outside [MIN_SQRT_RATIO, MAX_SQRT_RATIO)');
  }
  const ratio = sqrtPriceX96 << 32n;
  const msb = mostSignificantBit(ratio);
  let r = msb >= 128 ? ratio >> BigInt(msb - 127) : ratio << BigInt(127 - msb);
  let log2 = BigInt(msb - 128) << 64n;
  for (let bit = 63n; bit >= 50n; bit--) {
    r = (r * r) >> 127n;
    const f = r >> 128n;
    log2 |= f << bit;
    r >>= f;
  }
  const logSqrt10001 = log2 * 255738958999603826347141n;
  const tickLow = Number(BigInt.asIntN(24, (logSqrt10001 - 3402992956809132418596140100660247210n) >> 128n));
  const tickHi = Number(BigInt.asIntN(24, (logSqrt10001 + 291339464771989622907027621153398088495n) >> 128n));
  return tickLow === tickHi ? tickLow : getSqrtRatioAtTick(tickHi) <= sqrtPriceX96 ? tickHi : tickLow;
}

const LN_Q96 = 96 * Math.LN2;
const TICKS_PER_LN = 2 / Math.log(1.0001);
// Distance (in ticks) from an integer under which the floating-point estimate is not trusted. The estimate's
// error is below 1e-9 tick (double log of a 160-bit value) and the contract's sqrt ratios deviate from the exact
// sqrt(1.0001^t) by less than 5e-6 tick (rounding to Q64.96 at MIN_SQRT_RATIO), so 1e-3 leaves a wide margin.
const TRUST_MARGIN = 1e-3;

/**
 * TickMath.getTickAtSqrtRatio (v3-core TickMath.sol), same result and same 'R' revert: the greatest tick t with
 * getSqrtRatioAtTick(t) <= sqrtPriceX96. Estimates t with a double-precision log and, when the estimate lies
 * within TRUST_MARGIN of a tick boundary, settles it exactly with getSqrtRatioAtTick. About 20x faster than
 * the line-by-line port {@link getTickAtSqrtRatioLog2}; tests check both against @uniswap/v3-sdk.
 */
export function getTickAtSqrtRatio(sqrtPriceX96: bigint): number {
  if (sqrtPriceX96 < MIN_SQRT_RATIO || sqrtPriceX96 >= MAX_SQRT_RATIO) {
    throw new AmmError('SQRT_PRICE_OUT_OF_RANGE', 'getTickAtSqrtRatio: sqrt price outside [MIN_SQRT_RATIO, MAX_SQRT_RATIO)');
  }
  const estimate = (Math.log(Number(sqrtPriceX96)) - LN_Q96) * TICKS_PER_LN;
  let tick = Math.floor(estimate);
  const frac = estimate - tick;
  if (frac > TRUST_MARGIN && frac < 1 - TRUST_MARGIN && tick >= MIN_TICK && tick < MAX_TICK) return tick;
  if (tick < MIN_TICK) tick = MIN_TICK;
  else if (tick > MAX_TICK - 1) tick = MAX_TICK - 1;
  if (getSqrtRatioAtTick(tick) > sqrtPriceX96) {
    do tick--;
    while (getSqrtRatioAtTick(tick) > sqrtPriceX96);
    return tick;
  }
  while (tick < MAX_TICK - 1 && getSqrtRatioAtTick(tick + 1) <= sqrtPriceX96) tick++;
  return tick;
}
