import type { SharedState, SnapshotContext } from '../protocols/PoolProtocol.ts';
import { type AnyPoolProtocol, POOL_SOURCES, type SnapshotPool, snapshotProtocol } from '../protocols/registry.ts';

/** The protocols whose pools share state (PoolProtocol.sharedState). */
const SHARING = [...new Set(POOL_SOURCES.map((s) => snapshotProtocol(s.version)))].filter((p) => p.sharedState);

/**
 * One chain's followed pools by address (lower case), with what a block needs of them kept up to date as pools enter,
 * change and leave (set, delete): the pools re-read at every block (PoolProtocol.rereadEachBlock) and each protocol's
 * record of the state its pools share (PoolProtocol.sharedState). A block's work on them is then proportional to the
 * pools concerned, not to the chain's pools.
 */
export class FollowedPools {
  private readonly states = new Map<string, SnapshotPool>();
  private readonly rereads = new Set<string>();
  private readonly shared: ReadonlyMap<AnyPoolProtocol, SharedState<SnapshotPool>>;

  /** `context`: the chain's (rereadEachBlock's). */
  constructor(private readonly context: SnapshotContext) {
    this.shared = new Map(SHARING.map((p) => [p, p.sharedState!()]));
  }

  get size(): number {
    return this.states.size;
  }

  get(address: string): SnapshotPool | undefined {
    return this.states.get(address);
  }

  has(address: string): boolean {
    return this.states.has(address);
  }

  keys(): IterableIterator<string> {
    return this.states.keys();
  }

  values(): IterableIterator<SnapshotPool> {
    return this.states.values();
  }

  [Symbol.iterator](): IterableIterator<[string, SnapshotPool]> {
    return this.states.entries();
  }

  /** A pool enters the book or takes a new state. */
  set(address: string, state: SnapshotPool): void {
    const was = this.states.get(address);
    const protocol = snapshotProtocol(state.version);
    if (was && snapshotProtocol(was.version) !== protocol) this.shared.get(snapshotProtocol(was.version))?.delete(address);
    this.states.set(address, state);
    if (protocol.rereadEachBlock?.(state, this.context)) this.rereads.add(address);
    else this.rereads.delete(address);
    this.shared.get(protocol)?.set(address, state);
  }

  /** A pool leaves the book. */
  delete(address: string): void {
    const was = this.states.get(address);
    if (!was) return;
    this.states.delete(address);
    this.rereads.delete(address);
    this.shared.get(snapshotProtocol(was.version))?.delete(address);
  }

  /** The pools whose price moves without a log (PoolProtocol.rereadEachBlock), re-read at every block (the live set). */
  everyBlock(): ReadonlySet<string> {
    return this.rereads;
  }

  /** The record of the state `protocol`'s pools share (PoolProtocol.sharedState), or undefined when they share none. */
  sharedOf(protocol: AnyPoolProtocol): SharedState<SnapshotPool> | undefined {
    return this.shared.get(protocol);
  }

  /** Every protocol's record of shared state. */
  sharedStates(): ReadonlyMap<AnyPoolProtocol, SharedState<SnapshotPool>> {
    return this.shared;
  }
}
