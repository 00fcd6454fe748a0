import type { SnapshotPoolBase } from '../SnapshotPoolBase.ts';

/**
 * A Uniswap v3 pool in a snapshot file: slot0's price and tick, the in-range liquidity, and liquidityNet of every
 * initialized tick in the tick-bitmap words read (`bitmapWords`, inclusive), ascending by tick.
 */
export interface SnapshotPoolV3 extends SnapshotPoolBase {
  readonly version: 'v3';
  readonly sqrtPriceX96: string;
  readonly tick: number;
  readonly liquidity: string;
  readonly tickSpacing: number;
  readonly bitmapWords: readonly [number, number];
  readonly ticks: ReadonlyArray<readonly [number, string]>;
}
