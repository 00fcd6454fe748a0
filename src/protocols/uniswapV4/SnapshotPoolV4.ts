import type { SnapshotPoolBase } from '../SnapshotPoolBase.ts';

/**
 * A Uniswap v4 pool in a snapshot file. A v4 pool is no contract of its own: the PoolManager singleton holds it under
 * `poolId = keccak256(abi.encode(PoolKey))`, so `address` is the poolId (32 bytes, lower-case hex), unique on its chain
 * as a pool address is. token0 / token1 are the key's currencies (the zero address is the native asset), `fee` the
 * key's fee (0x800000 marks a dynamic fee), `lpFee` slot0's current LP fee. The rest is v3's: slot0's price and tick,
 * the in-range liquidity, liquidityNet of every initialized tick in the bitmap words read, and which fee-growth slots
 * hold a value (StateView reads all of them).
 */
export interface SnapshotPoolV4 extends SnapshotPoolBase {
  readonly version: 'v4';
  /** The PoolManager that holds the pool (checksummed). */
  readonly poolManager: string;
  /** The key's hooks contract (checksummed; the zero address when none). */
  readonly hooks: string;
  readonly tickSpacing: number;
  /** slot0.lpFee in pips: the key's fee, or for a dynamic-fee pool the fee its hook set last. */
  readonly lpFee: number;
  /** slot0.protocolFee: oneForZero << 12 | zeroForOne, each in pips (at most 1000). */
  readonly protocolFee: number;
  readonly sqrtPriceX96: string;
  readonly tick: number;
  readonly liquidity: string;
  readonly bitmapWords: readonly [number, number];
  readonly ticks: ReadonlyArray<readonly [number, string]>;
  /** As SnapshotPoolV3's: feeGrowthGlobal0X128 ≠ 0, feeGrowthGlobal1X128 ≠ 0 (absent: unknown). */
  readonly feeGrowthGlobalSet?: readonly [boolean, boolean];
  /** As SnapshotPoolV3's: per initialized tick, bit 0 / bit 1 for a non-zero feeGrowthOutside0X128 / 1X128. */
  readonly feeGrowthOutsideSet?: Readonly<Record<string, number>>;
  /**
   * The PoolManager's protocolFeesAccrued[currency0] ≠ 0, protocolFeesAccrued[currency1] ≠ 0 at the block: a swap
   * paying a protocol fee adds to the input currency's, a write from zero while it is zero. Per currency, so shared by
   * every pool of the currency (the follower's v4AccruedState spreads a change, and reads the currencies recorded as
   * non-zero at every block: collectProtocolFees empties one without an event). Present only on a pool whose
   * protocolFee is non-zero (absent: no protocol fee, or unknown, which the gas model counts as written from zero).
   */
  readonly protocolFeesAccruedSet?: readonly [boolean, boolean];
}
