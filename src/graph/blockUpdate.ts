// src/graph/blockUpdate.ts
import type { SnapshotPool } from '../protocols/registry.ts';

/**
 * One followed block's pool changes on one chain: the block it brings the state to and the full new state of every
 * pool that changed (or appeared) in it. Consumers replace those pools and move the chain's block metadata; pools
 * not listed keep their state. A reorg is delivered as an update for the new head whose `pools` hold every pool the
 * rollback and the new branch changed (their state at the new head), and `removed` the pools that exist no more
 * (created on the abandoned branch). Updates are applied in order; an update whose parentHash is not the consumer's
 * current blockHash after a reorg is still applied (it carries full pool states, so it is self-contained). A `full`
 * update (a follower's first after it starts, and after a re-seed) lists every pool of the chain: consumers replace
 * the chain's pools with it, whatever they held before (blocks of a branch reorganised away while no follower ran,
 * a start state older or newer than theirs), and apply it even when it is not newer than their state.
 */
export interface BlockUpdate {
  readonly chainId: number;
  readonly blockNumber: number;
  readonly blockHash: string;
  readonly parentHash: string;
  readonly blockTimestamp: number;
  /** The gas price at this block, wei, decimal string (base fee + the endpoint's priority fee, as seeding records). */
  readonly gasPriceWei: string;
  /** Full new state of every pool changed or created in the block (same shape as a snapshot pool). */
  readonly pools: readonly SnapshotPool[];
  /** Addresses of pools that no longer exist (reorg of a creation). */
  readonly removed: readonly string[];
  /** The chain's token supplies re-read at this block (snapshot `totalSupplies`); absent: unchanged. */
  readonly totalSupplies?: Readonly<Record<string, string>>;
  /** True when this update follows a reorg (for metrics / logs). */
  readonly reorg?: boolean;
  /** True when `pools` is every pool of the chain (`removed` is then empty): the chain's pools are replaced. */
  readonly full?: boolean;
}

/** Where a follower delivers blocks (the embedded API's GraphHolder, or the Redis Stream publisher). */
export type BlockUpdateSink = (update: BlockUpdate) => void | Promise<void>;
