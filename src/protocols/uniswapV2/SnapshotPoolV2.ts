import type { SnapshotPoolBase } from '../SnapshotPoolBase.ts';

/** A Uniswap v2-style pair in a snapshot file: its reserves as getReserves returned them (decimal strings). */
export interface SnapshotPoolV2 extends SnapshotPoolBase {
  readonly version: 'v2';
  readonly reserve0: string;
  readonly reserve1: string;
}
