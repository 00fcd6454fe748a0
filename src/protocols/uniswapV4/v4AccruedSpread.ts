import { type Address, getAddress, parseAbi } from 'viem';
import type { SharedReread } from '../PoolProtocol.ts';
import { viewCall } from '../PoolSource.ts';
import type { SnapshotPoolV4 } from './SnapshotPoolV4.ts';

/** ProtocolFees' public mapping (per currency, PoolManager-wide), read through its getter. */
export const protocolFeesAccruedAbi = parseAbi(['function protocolFeesAccrued(address currency) view returns (uint256)']);

/** One PoolManager's currency: protocolFeesAccrued's key on the chain. */
const keyOf = (p: SnapshotPoolV4, currency: string): string => `${p.poolManager.toLowerCase()}:${currency.toLowerCase()}`;

/**
 * The PoolManager's protocolFeesAccrued is per currency, each v4 pool's state records it for its two currencies
 * (SnapshotPoolV4.protocolFeesAccruedSet): what a block changed in some pools' records (a Swap accruing a protocol fee,
 * a re-read) is given to every other pool of the same PoolManager and currency that records it. A change to false
 * comes only from a read at the block and wins over one to true in the same block (a Swap's accrual, which a later
 * collectProtocolFees, emitting no event, may have taken). Returns the pools to change (address → new state).
 */
export function v4AccruedSpread(
  changed: ReadonlyArray<readonly [before: SnapshotPoolV4 | undefined, after: SnapshotPoolV4]>,
  pools: Iterable<readonly [string, SnapshotPoolV4]>,
): Map<string, SnapshotPoolV4> {
  const now = new Map<string, boolean>();
  for (const [before, after] of changed) {
    const set = after.protocolFeesAccruedSet;
    if (set === undefined) continue;
    [after.token0, after.token1].forEach((currency, i) => {
      if (before?.protocolFeesAccruedSet?.[i] === set[i]) return;
      const key = keyOf(after, currency);
      now.set(key, (now.get(key) ?? true) && set[i]);
    });
  }
  const out = new Map<string, SnapshotPoolV4>();
  if (now.size === 0) return out;
  for (const [address, p] of pools) {
    const set = p.protocolFeesAccruedSet;
    if (set === undefined) continue;
    const next = [now.get(keyOf(p, p.token0)) ?? set[0], now.get(keyOf(p, p.token1)) ?? set[1]] as const;
    if (next[0] !== set[0] || next[1] !== set[1]) out.set(address, { ...p, protocolFeesAccruedSet: next });
  }
  return out;
}

/**
 * collectProtocolFees empties a currency's protocolFeesAccrued without an event: at every block the follower reads
 * protocolFeesAccrued of each currency some pool records as non-zero (one call per PoolManager and currency), and a
 * zero sets that side false in every pool recording it. Undefined when no pool records a non-zero accrual.
 */
export function v4AccruedReread(pools: Iterable<readonly [string, SnapshotPoolV4]>): SharedReread<SnapshotPoolV4> | undefined {
  const recording: (readonly [string, SnapshotPoolV4])[] = [];
  const asked = new Map<string, { manager: Address; currency: Address }>();
  for (const entry of pools) {
    const p = entry[1];
    const set = p.protocolFeesAccruedSet;
    if (set === undefined) continue;
    recording.push(entry);
    [p.token0, p.token1].forEach((currency, i) => {
      if (set[i]) asked.set(keyOf(p, currency), { manager: getAddress(p.poolManager), currency: getAddress(currency) });
    });
  }
  if (asked.size === 0) return undefined;
  const keys = [...asked.keys()];
  return {
    calls: [...asked.values()].map(({ manager, currency }) => viewCall(manager, protocolFeesAccruedAbi, 'protocolFeesAccrued', [currency])),
    apply(results) {
      const emptied = new Set(keys.filter((_, i) => results[i] === 0n));
      const out = new Map<string, SnapshotPoolV4>();
      if (emptied.size === 0) return out;
      for (const [address, p] of recording) {
        const set = p.protocolFeesAccruedSet!;
        const next = [set[0] && !emptied.has(keyOf(p, p.token0)), set[1] && !emptied.has(keyOf(p, p.token1))] as const;
        if (next[0] !== set[0] || next[1] !== set[1]) out.set(address, { ...p, protocolFeesAccruedSet: next });
      }
      return out;
    },
  };
}
