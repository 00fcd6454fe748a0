import { countAtOrBelow } from './countAtOrBelow.ts';
import type { V3Pool } from './v3Pool.ts';

function isInitialized(sorted: Int32Array, tick: number): boolean {
  const i = countAtOrBelow(sorted, tick) - 1;
  return i >= 0 && sorted[i] === tick;
}

/**
 * Number of initialized ticks between tickBefore and tickAfter as QuoterV2 reports it, like
 * PoolTicksCounter.countInitializedTicksCrossed (v3-periphery), quirks included: positions come from Solidity's
 * truncating division (tick / tickSpacing), both ends are counted, then tickAfter is dropped when swapping down
 * onto it and tickBefore when swapping up from it. Ticks outside the known bitmap words count as uninitialized.
 */
export function countInitializedTicksCrossed(pool: V3Pool, tickBefore: number, tickAfter: number): number {
  const s = pool.tickSpacing;
  const sorted = pool.initializedTicks;
  // A bitmap position (wordPos << 8 | bitPos) is the truncated compressed tick itself.
  const before = Math.trunc(tickBefore / s);
  const after = Math.trunc(tickAfter / s);
  const lower = Math.min(before, after);
  const higher = Math.max(before, after);
  // Initialized ticks are multiples of s, so position p holds tick p * s.
  let count = countAtOrBelow(sorted, higher * s) - countAtOrBelow(sorted, lower * s - 1);
  if (tickBefore > tickAfter && tickAfter % s === 0 && isInitialized(sorted, after * s)) count -= 1;
  if (tickBefore < tickAfter && tickBefore % s === 0 && isInitialized(sorted, before * s)) count -= 1;
  return count;
}
