import type { SnapshotPool } from '../graph/snapshot.ts';
import type { EventContext, EventOutcome, Fraction, LadderQuote, PoolDescription, PoolLog, TradeType } from './PoolProtocol.ts';
import type { PoolSource } from './PoolSource.ts';
import { type UniswapV2Pool, uniswapV2 } from './uniswapV2.ts';
import { uniswapV2Source } from './uniswapV2Source.ts';
import { type UniswapV3Pool, uniswapV3 } from './uniswapV3.ts';
import { snapshotPoolV3 } from './uniswapV3Events.ts';
import { uniswapV3Source } from './uniswapV3Source.ts';

/** Any priceable pool. */
export type Pool = UniswapV2Pool | UniswapV3Pool;

/*
 * The only switch on the pool kind in the service and its seeding: everything else asks these functions. A new
 * protocol adds its modules beside this file (pricing and events, its PoolSource) and one case to each switch below.
 */

/** The priceable pool of a snapshot pool; throws on inconsistent state. */
export function poolFromSnapshot(state: SnapshotPool): Pool {
  switch (state.version) {
    case 'v2':
      return uniswapV2.fromSnapshot(state);
    case 'v3':
      return uniswapV3.fromSnapshot(state);
  }
}

/** Prices an ascending ladder of amounts through one pool in one walk (see PoolProtocol.quoteLadder). */
export function quoteLadder(pool: Pool, zeroForOne: boolean, tradeType: TradeType, amounts: readonly bigint[]): LadderQuote[] {
  switch (pool.kind) {
    case 'uniswapV2':
      return uniswapV2.quoteLadder(pool, zeroForOne, tradeType, amounts);
    case 'uniswapV3':
      return uniswapV3.quoteLadder(pool, zeroForOne, tradeType, amounts);
  }
}

/** Fee-free price of token0 in token1 (smallest units). */
export function midPrice(pool: Pool): Fraction {
  switch (pool.kind) {
    case 'uniswapV2':
      return uniswapV2.midPrice(pool);
    case 'uniswapV3':
      return uniswapV3.midPrice(pool);
  }
}

/** Fee-free price of token0 in token1 from snapshot state. */
export function snapshotMidPrice(state: SnapshotPool): Fraction {
  return state.version === 'v2' ? uniswapV2.snapshotMidPrice(state) : uniswapV3.snapshotMidPrice(state);
}

/** How GET /blockchains/pools describes a snapshot pool's state. */
export function describeSnapshotPool(state: SnapshotPool): PoolDescription {
  return state.version === 'v2' ? uniswapV2.describe(state) : uniswapV3.describe(state);
}

/** The work a walk through a snapshot pool can take (initialized ticks; 0 for constant product). */
export function snapshotStateSize(state: SnapshotPool): number {
  return state.version === 'v2' ? uniswapV2.stateSize(state) : uniswapV3.stateSize(state);
}

/** A problem with a snapshot pool's state beyond its schema, or undefined. */
export function checkSnapshotPool(state: SnapshotPool): string | undefined {
  return state.version === 'v2' ? uniswapV2.checkSnapshot(state) : uniswapV3.checkSnapshot(state);
}

/** topic0 of the events a follower subscribes to for pools of a snapshot version. */
export function poolEventTopics(version: SnapshotPool['version']): readonly string[] {
  return version === 'v2' ? uniswapV2.eventTopics : uniswapV3.eventTopics;
}

/** Applies one log of a pool to its snapshot state: the new state, or a re-read (see PoolProtocol.applyEvent). */
export function applyPoolEvent(state: SnapshotPool, log: PoolLog, context: EventContext): EventOutcome<SnapshotPool> {
  return state.version === 'v2' ? uniswapV2.applyEvent(state, log, context) : uniswapV3.applyEvent(state, log, context);
}

/** How pools of a snapshot version are found and read on a chain (seeding, a follower's discovery and re-reads). */
export function poolSource(version: SnapshotPool['version']): PoolSource<SnapshotPool> {
  switch (version) {
    case 'v2':
      return uniswapV2Source;
    case 'v3':
      return uniswapV3Source;
  }
}

/** Every snapshot version's source. */
export const POOL_SOURCES: readonly PoolSource<SnapshotPool>[] = [uniswapV2Source, uniswapV3Source];

/** A pool's state as a snapshot file holds it: without follower-side fields (v3 liquidityGross per tick). */
export function snapshotFileState(state: SnapshotPool): SnapshotPool {
  return state.version === 'v2' ? state : snapshotPoolV3(state);
}
