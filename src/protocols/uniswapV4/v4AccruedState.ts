import { getAddress, parseAbi } from 'viem';
import type { SharedReread, SharedState } from '../PoolProtocol.ts';
import { type ReadCall, viewCall } from '../PoolSource.ts';
import type { SnapshotPoolV4 } from './SnapshotPoolV4.ts';

/** ProtocolFees' public mapping (per currency, PoolManager-wide), read through its getter. */
export const protocolFeesAccruedAbi = parseAbi(['function protocolFeesAccrued(address currency) view returns (uint256)']);

/** One PoolManager's currency: protocolFeesAccrued's key on the chain. */
const keyOf = (p: SnapshotPoolV4, currency: string): string => `${p.poolManager.toLowerCase()}:${currency.toLowerCase()}`;

/** The two keys a pool records (currency0's, currency1's). */
const keysOf = (p: SnapshotPoolV4): readonly [string, string] => [keyOf(p, p.token0), keyOf(p, p.token1)];

function add(index: Map<string, Set<string>>, key: string, address: string): void {
  const set = index.get(key);
  if (set) set.add(address);
  else index.set(key, new Set([address]));
}

function remove(index: Map<string, Set<string>>, key: string, address: string): void {
  const set = index.get(key);
  if (set?.delete(address) && set.size === 0) index.delete(key);
}

/**
 * The PoolManager's protocolFeesAccrued per currency as a follower's v4 pools record it (SnapshotPoolV4
 * .protocolFeesAccruedSet), indexed as pools enter, change and leave the book (PoolProtocol.sharedState): by key
 * (PoolManager and currency), the pools recording it and those recording it non-zero. A block's spread and re-read
 * visit only the pools of the keys concerned, never the chain's other pools.
 */
class V4AccruedState implements SharedState<SnapshotPoolV4> {
  /** The pools that record protocolFeesAccrued (a protocolFeesAccruedSet), by address. */
  private readonly recording = new Map<string, SnapshotPoolV4>();
  /** Per key, the pools recording it; and those recording it non-zero (absent when none). */
  private readonly byKey = new Map<string, Set<string>>();
  private readonly accrued = new Map<string, Set<string>>();
  /** Each key's read, encoded once (a key recorded non-zero is read at every block). */
  private readonly reads = new Map<string, ReadCall<unknown>>();

  set(address: string, state: SnapshotPoolV4): void {
    const was = this.recording.get(address);
    const set = state.protocolFeesAccruedSet;
    if (was && set && was.poolManager === state.poolManager && was.token0 === state.token0 && was.token1 === state.token1) {
      const old = was.protocolFeesAccruedSet!;
      this.recording.set(address, state);
      if (old[0] === set[0] && old[1] === set[1]) return;
      keysOf(state).forEach((key, i) => {
        if (set[i]) add(this.accrued, key, address);
        else remove(this.accrued, key, address);
      });
      return;
    }
    this.delete(address);
    if (!set) return;
    this.recording.set(address, state);
    keysOf(state).forEach((key, i) => {
      add(this.byKey, key, address);
      if (set[i]) add(this.accrued, key, address);
    });
  }

  delete(address: string): void {
    const was = this.recording.get(address);
    if (!was) return;
    this.recording.delete(address);
    for (const key of keysOf(was)) {
      remove(this.byKey, key, address);
      remove(this.accrued, key, address);
    }
  }

  /**
   * What a block changed in some pools' records (a Swap accruing a protocol fee, a re-read) is given to every other
   * pool of the same PoolManager and currency that records it. A change to false comes only from a read at the block
   * and wins over one to true in the same block (a Swap's accrual, which a later collectProtocolFees, emitting no
   * event, may have taken).
   */
  spread(changed: ReadonlyArray<readonly [before: SnapshotPoolV4 | undefined, after: SnapshotPoolV4]>): Map<string, SnapshotPoolV4> {
    const now = new Map<string, boolean>();
    for (const [before, after] of changed) {
      const set = after.protocolFeesAccruedSet;
      if (set === undefined) continue;
      keysOf(after).forEach((key, i) => {
        if (before?.protocolFeesAccruedSet?.[i] === set[i]) return;
        now.set(key, (now.get(key) ?? true) && set[i]);
      });
    }
    return this.changedBy(now, this.byKey);
  }

  /**
   * collectProtocolFees empties a currency's protocolFeesAccrued without an event: the reads of protocolFeesAccrued of
   * each key some pool records non-zero (one call per PoolManager and currency); a zero sets that side false in every
   * pool recording it. Undefined when no pool records a non-zero accrual.
   */
  reread(): SharedReread<SnapshotPoolV4> | undefined {
    if (this.accrued.size === 0) return undefined;
    const keys = [...this.accrued.keys()];
    const calls = keys.map((key) => {
      let call = this.reads.get(key);
      if (!call) {
        const [manager, currency] = key.split(':');
        call = viewCall(getAddress(manager), protocolFeesAccruedAbi, 'protocolFeesAccrued', [getAddress(currency)]);
        this.reads.set(key, call);
      }
      return call;
    });
    return {
      calls,
      apply: (results) =>
        this.changedBy(new Map(keys.flatMap((key, i) => (results[i] === 0n ? [[key, false] as const] : []))), this.accrued),
    };
  }

  /** The pools whose record changes when the keys of `now` take its values (address → new state); `index` finds them. */
  private changedBy(now: ReadonlyMap<string, boolean>, index: ReadonlyMap<string, ReadonlySet<string>>): Map<string, SnapshotPoolV4> {
    const out = new Map<string, SnapshotPoolV4>();
    for (const key of now.keys()) {
      for (const address of index.get(key) ?? []) {
        if (out.has(address)) continue;
        const p = this.recording.get(address)!;
        const set = p.protocolFeesAccruedSet!;
        const [k0, k1] = keysOf(p);
        const next = [now.get(k0) ?? set[0], now.get(k1) ?? set[1]] as const;
        if (next[0] !== set[0] || next[1] !== set[1]) out.set(address, { ...p, protocolFeesAccruedSet: next });
      }
    }
    return out;
  }
}

/** A follower's record of the PoolManager's protocolFeesAccrued over its v4 pools (PoolProtocol.sharedState). */
export const v4AccruedState = (): SharedState<SnapshotPoolV4> => new V4AccruedState();
