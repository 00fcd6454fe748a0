import type { SnapshotPoolBase } from '../SnapshotPoolBase.ts';

/**
 * A Uniswap v3 pool in a snapshot file: slot0's price and tick, the in-range liquidity, and liquidityNet of every
 * initialized tick in the tick-bitmap words read (`bitmapWords`, inclusive), ascending by tick, and which of its
 * fee-growth slots hold a value (what a swap writes from zero costs more gas).
 */
export interface SnapshotPoolV3 extends SnapshotPoolBase {
  readonly version: 'v3';
  readonly sqrtPriceX96: string;
  readonly tick: number;
  readonly liquidity: string;
  readonly tickSpacing: number;
  readonly bitmapWords: readonly [number, number];
  readonly ticks: ReadonlyArray<readonly [number, string]>;
  /**
   * feeGrowthGlobal0X128 ≠ 0, feeGrowthGlobal1X128 ≠ 0: which fee-growth slots a swap rewrites rather than writes
   * from zero (the gas model's cold writes). Absent: unknown, every such write charged as cold (older files).
   */
  readonly feeGrowthGlobalSet?: readonly [boolean, boolean];
  /**
   * Per initialized tick of `ticks` (keyed by tick), which of its fee-growth-outside values are non-zero: bit 0
   * feeGrowthOutside0X128, bit 1 feeGrowthOutside1X128; a tick not listed has both zero. Read with
   * feeGrowthGlobalSet (meaningless without it).
   */
  readonly feeGrowthOutsideSet?: Readonly<Record<string, number>>;
}
