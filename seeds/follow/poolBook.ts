import { getAddress, type Address } from 'viem';
import type { CatalogChain } from '../../src/catalog/loadCatalog.ts';
import type { Snapshot, SnapshotPool } from '../../src/graph/snapshot.ts';
import { eventTopic, logWords } from '../../src/protocols/logWords.ts';
import type { PoolLog } from '../../src/protocols/PoolProtocol.ts';
import { applyPoolEvent, poolEventTopics } from '../../src/protocols/registry.ts';
import type { PhaseRunner, PoolToRead } from '../readPoolStates.ts';
import { readPoolStates, snapshotPoolV3 } from '../readPoolStates.ts';
import { comparePools, discoveryCandidates, pairTokens } from '../seedChains.ts';

const PAIR_CREATED = eventTopic('PairCreated(address,address,address,uint256)');
const POOL_CREATED = eventTopic('PoolCreated(address,address,uint24,int24,address)');
const INITIALIZE = eventTopic('Initialize(uint160,int24)');

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
const topicAddress = (topic: string): Address => getAddress(`0x${topic.slice(26)}`);

/**
 * The followed pools of one chain and how a block's logs change them: pool events through the protocol seam
 * (registry.applyPoolEvent), a pool the seam cannot update re-read in full at the block, v2 PairCreated / v3
 * PoolCreated of a catalogued pair on a catalogued factory read in full at the block (a v3 pool created before its
 * Initialize waits, pending, for it). The same discovery rules as seeding: discoveryCandidates over the tokens the
 * snapshot did not exclude.
 */
export class PoolBook {
  readonly pools = new Map<string, SnapshotPool>();
  readonly pending = new Map<string, PoolToRead>();
  /** topic0 of every event the follower asks for. */
  readonly topics: string[];
  private readonly candidates = new Map<string, { dex: string; version: 'v2' | 'v3' }>();
  private readonly factories = new Set<string>();

  constructor(
    readonly chain: CatalogChain,
    snapshot: Snapshot,
  ) {
    for (const p of snapshot.pools) this.pools.set(lower(p.address), p);
    const excluded = new Set((snapshot.excludedTokens ?? []).map((e) => lower(e.address)));
    const usable = new Set(pairTokens(chain).map(lower).filter((a) => !excluded.has(a)));
    for (const c of discoveryCandidates(chain, usable)) {
      this.candidates.set(`${lower(c.factory)}/${lower(c.token0)}/${lower(c.token1)}/${c.fee}`, { dex: c.dex, version: c.version });
      this.factories.add(lower(c.factory));
    }
    this.topics = [...new Set([...poolEventTopics('v2'), ...poolEventTopics('v3'), PAIR_CREATED, POOL_CREATED, INITIALIZE])];
  }

  /** Whether a log concerns the book (a tracked or pending pool, a catalogued factory): client-side address filter. */
  wants(log: PoolLog): boolean {
    const a = lower(log.address);
    return this.pools.has(a) || this.pending.has(a) || this.factories.has(a);
  }

  /** A catalogued factory's creation log as a pool to read, or undefined (another pair, another factory, malformed). */
  private created(log: PoolLog): PoolToRead | undefined {
    const topic = lower(log.topics[0] ?? '');
    const factory = lower(log.address);
    if (topic === PAIR_CREATED) {
      const w = logWords(log, 3, 2);
      if (!w) return undefined;
      const token0 = topicAddress(log.topics[1]!);
      const token1 = topicAddress(log.topics[2]!);
      for (const [key, c] of this.candidates) {
        if (c.version === 'v2' && key.startsWith(`${factory}/${lower(token0)}/${lower(token1)}/`)) {
          return { address: getAddress(`0x${w[0]!.toString(16).padStart(40, '0')}`), dex: c.dex, version: 'v2', token0, token1, fee: Number(key.split('/')[3]) };
        }
      }
    } else if (topic === POOL_CREATED) {
      const w = logWords(log, 4, 2);
      if (!w) return undefined;
      const token0 = topicAddress(log.topics[1]!);
      const token1 = topicAddress(log.topics[2]!);
      const fee = Number(BigInt(log.topics[3]!));
      const c = this.candidates.get(`${factory}/${lower(token0)}/${lower(token1)}/${fee}`);
      if (c) return { address: getAddress(`0x${w[1]!.toString(16).padStart(40, '0')}`), dex: c.dex, version: 'v3', token0, token1, fee };
    }
    return undefined;
  }

  /**
   * Applies one block's logs (in log order) and reads in full, at the block, every pool the logs could not update
   * and every new catalogued pool. Returns what changed, for the undo history. `run` reads at this block.
   */
  async applyBlock(logs: readonly PoolLog[], run: PhaseRunner, tickWindowWords: number, onReread: (address: string, reason: string) => void): Promise<BlockChange> {
    const change: BlockChange = { prev: new Map(), pendingAdded: [], pendingRemoved: [], events: 0, rereads: 0 };
    const toRead = new Map<string, PoolToRead>();
    const touch = (a: string): void => {
      if (!change.prev.has(a)) change.prev.set(a, this.pools.get(a));
    };
    let events = 0;
    try {
      for (const log of logs) {
        const a = lower(log.address);
        if (toRead.has(a)) continue;
        const pool = this.pools.get(a);
        if (pool) {
          events++;
          const outcome = applyPoolEvent(pool, log, { tickWindowWords });
          touch(a);
          if (outcome.ok) {
            this.pools.set(a, outcome.state);
          } else {
            onReread(pool.address, outcome.reason);
            toRead.set(a, { address: getAddress(pool.address), dex: pool.dex, version: pool.version, token0: getAddress(pool.token0), token1: getAddress(pool.token1), fee: pool.fee });
          }
        } else if (this.pending.has(a)) {
          if (lower(log.topics[0] ?? '') === INITIALIZE) toRead.set(a, this.pending.get(a)!);
        } else {
          const created = this.created(log);
          if (created && !this.pools.has(lower(created.address))) {
            events++;
            toRead.set(lower(created.address), created);
          }
        }
      }
      if (toRead.size > 0) {
        const states = await readPoolStates(run, [...toRead.values()], tickWindowWords);
        for (const p of [...states.v2, ...states.v3]) {
          const a = lower(p.address);
          touch(a);
          this.pools.set(a, p);
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
          if (target.version === 'v3' && d.reason.startsWith('not initialized') && !this.pending.has(a)) {
            this.pending.set(a, target);
            change.pendingAdded.push(a);
          }
        }
      }
    } catch (err) {
      this.undo(change);
      throw err;
    }
    return { ...change, events, rereads: toRead.size };
  }

  /** Undoes one block's change (newest first). Returns the addresses whose state changed. */
  undo(change: BlockChange): string[] {
    for (const [a, prev] of change.prev) {
      if (prev) this.pools.set(a, prev);
      else this.pools.delete(a);
    }
    for (const a of change.pendingAdded) this.pending.delete(a);
    for (const [a, p] of change.pendingRemoved) this.pending.set(a, p);
    return [...change.prev.keys()];
  }

  /** Pools as a snapshot file and a BlockUpdate hold them: sorted as seeding sorts, without follower-side fields. */
  snapshotPools(addresses?: Iterable<string>): SnapshotPool[] {
    const list = addresses ? [...addresses].map((a) => this.pools.get(lower(a))).filter((p) => p !== undefined) : [...this.pools.values()];
    return list.map((p) => (p.version === 'v3' ? snapshotPoolV3(p) : p)).sort(comparePools);
  }
}
