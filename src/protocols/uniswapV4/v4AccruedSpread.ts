import type { SnapshotPoolV4 } from './SnapshotPoolV4.ts';

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
