import type { SnapshotPoolBase } from '../SnapshotPoolBase.ts';

/** A Uniswap v2-style pair in a snapshot file: its reserves as getReserves returned them (decimal strings),
 * and whether its price accumulators are written. */
export interface SnapshotPoolV2 extends SnapshotPoolBase {
  readonly version: 'v2';
  readonly reserve0: string;
  readonly reserve1: string;
  /**
   * price0CumulativeLast ≠ 0 (the pair's price accumulators were written): a swap rewrites them instead of writing
   * two zero slots (~17,100 gas each, the gas model's cold writes). Absent: unknown, charged as cold (older files).
   */
  readonly priceCumulativeSet?: boolean;
}
