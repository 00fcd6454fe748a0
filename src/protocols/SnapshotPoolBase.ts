/**
 * Fields every pool has in a snapshot file (seeds/snapshot.schema.json), whatever its protocol; each protocol's state
 * type adds its own. Integers as decimal strings.
 */
export interface SnapshotPoolBase {
  /** The snapshot files' discriminant: names the pool's protocol (registry.ts maps it to the protocol's kind). */
  readonly version: string;
  readonly address: string;
  readonly dex: string;
  readonly token0: string;
  readonly token1: string;
  /** Fee in pips (hundredths of a bip). */
  readonly fee: number;
  readonly balance0: string;
  readonly balance1: string;
}
