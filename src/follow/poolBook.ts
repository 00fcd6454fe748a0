import { type Address, getAddress } from 'viem';
import type { CatalogChain } from '../catalog/Catalog.ts';
import { dexesByFactory, type FactoryDex, identityOf, keptCreation, keptPool } from '../chain/discoverPools.ts';
import { pairTokens } from '../chain/discoveryPairs.ts';
import { type PhaseRunner, readPoolStates } from '../chain/readPoolStates.ts';
import { comparePools } from '../chain/seedChains.ts';
import type { Snapshot } from '../graph/snapshot.ts';
import { chainContext } from '../protocols/chainContext.ts';
import type { PoolLog } from '../protocols/logWords.ts';
import type { SharedState } from '../protocols/PoolProtocol.ts';
import { type CreatedPool, type PoolToRead, poolAddress } from '../protocols/PoolSource.ts';
import { POOL_SOURCES, poolSource, type SnapshotPool, snapshotProtocol } from '../protocols/registry.ts';
import { FollowedPools } from './followedPools.ts';

/** A log as eth_getLogs returns it. */
export interface RpcLog extends PoolLog {
  readonly blockNumber: string;
  readonly blockHash: string;
  readonly logIndex: string;
}

/** What one block did to the book: previous state of every pool it changed (undefined: the pool did not exist). */
export interface BlockChange {
  readonly prev: Map<string, SnapshotPool | undefined>;
  /** Pools created (not yet initialized) in the block, and pending pools the block initialized. */
  readonly pendingAdded: string[];
  readonly pendingRemoved: [string, PoolToRead][];
  readonly events: number;
  readonly rereads: number;
}

const lower = (a: string): string => a.toLowerCase();

/**
 * The followed pools of one chain and how a block's logs change them: pool events through the protocol seam
 * (PoolProtocol.applyEvent), a pool the seam cannot update re-read in full at the block, a creation log of a
 * catalogued pair on a catalogued factory (registry.POOL_SOURCES: v2 PairCreated, v3 PoolCreated) read in full at
 * the block; a pool created before it can be priced (v3 before Initialize) waits, pending, and is read at its next
 * log. The same rule as seeding's creation-log discovery (keptCreation): a pool of any two catalogued tokens the
 * snapshot did not exclude. A log names its pool by its address, or, from a singleton holding every pool (v4's
 * PoolManager: PoolSource.loggedPool), by its topic1 poolId.
 */
export class PoolBook {
  /** By address (lower case); what a block re-reads and shares among them kept with them (FollowedPools). */
  readonly pools: FollowedPools;
  readonly pending = new Map<string, PoolToRead>();
  /** topic0 of every event the follower asks for. */
  readonly topics: string[];
  /** The catalogue's DEXes by factory (lower case), and the tokens whose new pools are kept. */
  private readonly factories: ReadonlyMap<string, readonly FactoryDex[]>;
  private readonly usable: ReadonlySet<string>;
  private readonly identifyTopics = new Set(POOL_SOURCES.flatMap((s) => (s.identify ? [s.identify.topic] : [])));
  /**
   * Pools named by another address than their contract's (Balancer: the poolId) by that contract's address (lower
   * case): its own logs are the pool's (PoolSource.contractOf). Entries of pools no longer in the book are harmless.
   */
  private readonly contracts = new Map<string, string>();

  constructor(
    readonly chain: CatalogChain,
    snapshot: Snapshot,
  ) {
    this.pools = new FollowedPools(chainContext(chain));
    for (const p of snapshot.pools) this.track(lower(p.address), p);
    const excluded = new Set((snapshot.excludedTokens ?? []).map((e) => lower(e.address)));
    this.usable = new Set(
      pairTokens(chain)
        .map(lower)
        .filter((a) => !excluded.has(a)),
    );
    this.factories = dexesByFactory(chain);
    this.topics = [...new Set(POOL_SOURCES.flatMap((s) => [...snapshotProtocol(s.version).eventTopics, ...s.discoveryTopics]))];
  }

  /**
   * Whether a log may concern the book (a tracked or pending pool, a catalogued factory, or a log that makes an
   * unknown pool priceable): the client-side address filter, applied as the book stands before the log.
   */
  wants(log: PoolLog): boolean {
    const a = this.poolOf(log);
    return (
      this.pools.has(a) ||
      this.pending.has(a) ||
      this.factories.has(lower(log.address)) ||
      this.identifyTopics.has(log.topics[0]?.toLowerCase() ?? '')
    );
  }

  /** Sets a pool's state and notes its contract when the pool is named otherwise (PoolSource.contractOf). */
  private track(a: string, p: SnapshotPool): void {
    this.pools.set(a, p);
    const contract = poolSource(p.version).contractOf?.(p);
    if (contract !== undefined) this.contracts.set(contract, a);
  }

  /**
   * The pool a log names (lower case): its address, the pool a singleton's log names (PoolSource.loggedPool), or the
   * pool whose contract emitted it (PoolSource.contractOf).
   */
  private poolOf(log: PoolLog): string {
    for (const d of this.factories.get(lower(log.address)) ?? []) {
      const pool = poolSource(d.version).loggedPool?.(log);
      if (pool) return pool;
    }
    return this.contracts.get(lower(log.address)) ?? lower(log.address);
  }

  /** The pools whose price moves without a log (PoolProtocol.rereadEachBlock): re-read at every block applied. */
  everyBlock(): ReadonlySet<string> {
    return this.pools.everyBlock();
  }

  /** Addresses of the pools the catalogued factories' creation logs among `logs` create (any pair). */
  private born(logs: readonly PoolLog[]): Set<string> {
    const out = new Set<string>();
    for (const log of logs) {
      if (!this.factories.has(lower(log.address))) continue;
      for (const source of POOL_SOURCES) {
        const pool = source.created(log);
        if (pool) out.add(lower(pool.address));
      }
    }
    return out;
  }

  /**
   * The logs of a block range that may concern the book: those it wants as it stands, and those of the pools the
   * range's own creation logs create (a pool created inside a catch-up range has later events in the same range).
   */
  relevant<L extends PoolLog>(logs: readonly L[]): L[] {
    const born = this.born(logs);
    return logs.filter((l) => this.wants(l) || born.has(this.poolOf(l)));
  }

  /** A catalogued factory's creation log of two usable tokens as a pool to read (seeding's rule: keptCreation), or undefined. */
  private created(log: PoolLog): PoolToRead | undefined {
    return keptCreation(log, this.factories, this.usable);
  }

  /** A pool a factory made, as a pool to read when seeding's rule keeps it (keptPool). */
  private catalogued(factory: string, pool: CreatedPool, version: SnapshotPool['version']): PoolToRead | undefined {
    return keptPool(factory, version, pool, this.factories, this.usable);
  }

  /**
   * Unknown pools that a block's logs make priceable (PoolSource.identify: v3 Initialize), not created in the same
   * block: read who made them, at the block, and keep those a catalogued factory made for a catalogued pair. A pool
   * created before the follower's start state and initialised after it is found so (a snapshot lists priced pools
   * only, not pending ones).
   */
  private async identified(logs: readonly PoolLog[], run: PhaseRunner): Promise<Map<string, PoolToRead>> {
    const found = new Map<string, PoolToRead>();
    const asked: { address: Address; source: (typeof POOL_SOURCES)[number] }[] = [];
    const createdHere = this.born(logs);
    for (const log of logs) {
      const a = lower(log.address);
      const source = POOL_SOURCES.find((s) => s.identify?.topic === log.topics[0]?.toLowerCase());
      if (!source || this.pools.has(a) || this.pending.has(a) || createdHere.has(a) || asked.some((x) => lower(x.address) === a)) continue;
      asked.push({ address: getAddress(log.address), source });
    }
    if (asked.length === 0) return found;
    const calls = asked.map((x) => x.source.identify!.calls(x.address));
    const results = await run('state', calls.flat(), () => '');
    let k = 0;
    asked.forEach((x, i) => {
      const pool = x.source.identify!.decode(x.address, results.slice(k, k + calls[i].length));
      k += calls[i].length;
      const target = pool && this.catalogued(pool.factory, pool, x.source.version);
      if (target) found.set(lower(x.address), target);
    });
    return found;
  }

  /**
   * Applies one block's logs (in log order; those the book does not want, as it stands before each, are skipped) and
   * reads in full, at the block, every pool the logs could not update and every new catalogued pool. Returns what
   * changed, for the undo history. `run` reads at this block.
   */
  async applyBlock(
    logs: readonly PoolLog[],
    run: PhaseRunner,
    tickWindowWords: number,
    onReread: (address: string, reason: string) => void,
  ): Promise<BlockChange> {
    const change: BlockChange = { prev: new Map(), pendingAdded: [], pendingRemoved: [], events: 0, rereads: 0 };
    const toRead = new Map<string, PoolToRead>();
    const touch = (a: string): void => {
      if (!change.prev.has(a)) change.prev.set(a, this.pools.get(a));
    };
    let events = 0;
    try {
      const identified = await this.identified(logs, run);
      for (const log of logs) {
        const a = this.poolOf(log);
        if (toRead.has(a) || !this.wants(log)) continue;
        const pool = this.pools.get(a);
        if (pool) {
          events++;
          const outcome = snapshotProtocol(pool.version).applyEvent(pool, log, { tickWindowWords });
          touch(a);
          if (outcome.ok) {
            this.pools.set(a, outcome.state);
          } else {
            onReread(pool.address, outcome.reason);
            toRead.set(a, rereadOf(pool));
          }
        } else if (this.pending.has(a)) {
          toRead.set(a, this.pending.get(a)!);
        } else if (identified.has(a)) {
          events++;
          toRead.set(a, identified.get(a)!);
        } else {
          const created = this.created(log);
          if (created && !this.pools.has(lower(created.address))) {
            events++;
            toRead.set(lower(created.address), created);
          }
        }
      }
      // Pools whose price moves without a log (a rate provider, an amplification ramp) are read at every block.
      for (const a of this.everyBlock()) if (!toRead.has(a)) toRead.set(a, rereadOf(this.pools.get(a)!));
      if (toRead.size > 0) {
        const states = await readPoolStates(run, [...toRead.values()], tickWindowWords);
        for (const p of states.pools) {
          const a = lower(p.address);
          touch(a);
          this.track(a, p);
          const was = this.pending.get(a);
          if (was) {
            this.pending.delete(a);
            change.pendingRemoved.push([a, was]);
          }
        }
        for (const d of states.dropped) {
          const a = lower(d.address);
          const target = toRead.get(a)!;
          if (this.pools.has(a)) {
            touch(a);
            this.pools.delete(a);
          }
          if (d.pending && !this.pending.has(a)) {
            this.pending.set(a, target);
            change.pendingAdded.push(a);
          }
        }
      }
      this.spreadShared(change, touch);
      await this.rereadShared(run, touch);
    } catch (err) {
      this.undo(change);
      throw err;
    }
    return { ...change, events, rereads: toRead.size };
  }

  /**
   * Gives the state a block changed that pools share (PoolProtocol.sharedState: v4's protocolFeesAccrued per currency)
   * to the other pools that record it, as part of the block's change.
   */
  private spreadShared(change: BlockChange, touch: (a: string) => void): void {
    const byProtocol = new Map<SharedState<SnapshotPool>, [SnapshotPool | undefined, SnapshotPool][]>();
    for (const [a, before] of change.prev) {
      const after = this.pools.get(a);
      const shared = after && this.pools.sharedOf(snapshotProtocol(after.version));
      if (!shared) continue;
      const list = byProtocol.get(shared) ?? [];
      list.push([before, after]);
      byProtocol.set(shared, list);
    }
    for (const [shared, changed] of byProtocol) {
      for (const [a, state] of shared.spread(changed)) {
        touch(a);
        this.track(a, state);
      }
    }
  }

  /** Reads, at the block, the shared state no event follows (SharedState.reread: v4's protocolFeesAccrued). */
  private async rereadShared(run: PhaseRunner, touch: (a: string) => void): Promise<void> {
    for (const shared of this.pools.sharedStates().values()) {
      const read = shared.reread();
      if (!read) continue;
      const results = await run('state', read.calls, (r) => `${r.filter((v) => v === undefined).length} failed reads`);
      for (const [a, state] of read.apply(results)) {
        touch(a);
        this.track(a, state);
      }
    }
  }

  /** Undoes one block's change (newest first). Returns the addresses whose state changed. */
  undo(change: BlockChange): string[] {
    for (const [a, prev] of change.prev) {
      if (prev) this.track(a, prev);
      else this.pools.delete(a);
    }
    for (const a of change.pendingAdded) this.pending.delete(a);
    for (const [a, p] of change.pendingRemoved) this.pending.set(a, p);
    return [...change.prev.keys()];
  }

  /** Pools as a snapshot file and a BlockUpdate hold them: sorted as seeding sorts, without follower-side fields. */
  snapshotPools(addresses?: Iterable<string>): SnapshotPool[] {
    const list = addresses ? [...addresses].map((a) => this.pools.get(lower(a))).filter((p) => p !== undefined) : [...this.pools.values()];
    return list.map((p) => snapshotProtocol(p.version).fileState(p)).sort(comparePools);
  }
}

/** A tracked pool as a pool to read again (its identity and what its reads need beyond it, PoolSource.keyOf). */
function rereadOf(pool: SnapshotPool): PoolToRead {
  const { key } = identityOf(pool);
  return {
    address: poolAddress(pool.address),
    dex: pool.dex,
    version: pool.version,
    token0: getAddress(pool.token0),
    token1: getAddress(pool.token1),
    fee: pool.fee,
    ...(key ? { key } : {}),
  };
}
