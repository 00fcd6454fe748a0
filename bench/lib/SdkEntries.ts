/** The Uniswap SDK objects (v3-sdk Pool, v2-sdk Pair) of a routing graph's pools, for bench:routing's sdk part. */
import type { ChainPoolIndex, PoolEntry } from '../../src/graph/ChainPoolIndex.ts';
import type { SnapshotPoolV2 } from '../../src/protocols/uniswapV2/SnapshotPoolV2.ts';
import type { SnapshotPoolV3 } from '../../src/protocols/uniswapV3/SnapshotPoolV3.ts';
import { type SdkToken, type SdkV2Pair, type SdkV3Pool, sdkCore, sdkV2Pair, sdkV3Pool } from '../../test/helpers/sdkPools.ts';
import { CHAIN_ID, effective } from './routingGraphs.ts';

/** The SDK objects of a graph's pools, built on first use from the same snapshot state. */
export class SdkEntries {
  private readonly tokens = new Map<string, SdkToken>();
  private readonly v3 = new Map<PoolEntry, SdkV3Pool | null>();
  private readonly v2 = new Map<PoolEntry, SdkV2Pair>();
  /** The pool entry each SDK object stands for (identity), to re-price the SDK's paths with our engine. */
  readonly entryOf = new Map<unknown, PoolEntry>();

  constructor(
    private readonly index: ChainPoolIndex,
    private readonly decimals: (address: string) => number,
  ) {}

  token(address: string): SdkToken {
    const a = effective(this.index, address);
    let t = this.tokens.get(a);
    if (!t) {
      t = new sdkCore.Token(CHAIN_ID, a, this.decimals(a));
      this.tokens.set(a, t);
    }
    return t;
  }

  /** The v3-sdk Pool of a v3 entry (null when it has no initialized tick, which the SDK cannot walk). */
  v3Pool(entry: PoolEntry): SdkV3Pool | null {
    let pool = this.v3.get(entry);
    if (pool === undefined) {
      pool = sdkV3Pool(entry.state as SnapshotPoolV3, this.token(entry.token0), this.token(entry.token1)) ?? null;
      this.v3.set(entry, pool);
      if (pool) this.entryOf.set(pool, entry);
    }
    return pool;
  }

  v2Pair(entry: PoolEntry): SdkV2Pair {
    let pair = this.v2.get(entry);
    if (!pair) {
      pair = sdkV2Pair(entry.state as SnapshotPoolV2, this.token(entry.token0), this.token(entry.token1));
      this.v2.set(entry, pair);
      this.entryOf.set(pair, entry);
    }
    return pair;
  }
}
