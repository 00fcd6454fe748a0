import type { DeploymentId } from '../catalog/Catalog.ts';

/*
 * The pool lists of a chain's index (ChainPoolIndex): which lists a pool is in, their keys and order, and the lists of
 * a whole chain built at once.
 */

/** What the lists read of a pool's entry (ChainPoolIndex's PoolEntry). */
export interface ListedPool {
  readonly address: string;
  readonly deployment: DeploymentId;
  readonly token0: string;
  readonly token1: string;
  /** USD depth: the lists' order. */
  readonly score: number;
}

/** A list's kind: a token's pools ('t'), a pair's ('p'), a token's to base tokens ('b'). */
type ListKind = 't' | 'p' | 'b';

/** The key of a list: a token's, or a pair's whichever order its tokens are given in. */
export function listKey(kind: ListKind, token: string, other: string): string {
  if (kind !== 'p') return `${kind}:${token}`;
  return token < other ? `p:${token}:${other}` : `p:${other}:${token}`;
}

/**
 * The key of a token list's pools of one deployment (a hub token's pools of one DEX, read without walking its other
 * DEXes' pools when a search is kept to that DEX: findRoutes' PoolFilter).
 */
export function byDeployment(key: string, deployment: DeploymentId): string {
  return `${key}@${deployment}`;
}

/** List order: deepest first, then by address. */
export function deepestFirst(a: ListedPool, b: ListedPool): number {
  return b.score - a.score || (a.address < b.address ? -1 : 1);
}

/** Adds a value to the list of its key. */
export function append<K, V>(lists: Map<K, V[]>, key: K, value: V): void {
  const list = lists.get(key);
  if (list) list.push(value);
  else lists.set(key, [value]);
}

/**
 * The lists a pool is in: each token's ('t'), the pair's ('p', `other` its other token), and a token's to base
 * tokens ('b') when the other is one of `bases`.
 */
function eachList(entry: ListedPool, bases: ReadonlySet<string>, visit: (kind: ListKind, token: string, other: string) => void): void {
  visit('t', entry.token0, '');
  visit('t', entry.token1, '');
  visit('p', entry.token0, entry.token1);
  if (bases.has(entry.token1)) visit('b', entry.token0, '');
  if (bases.has(entry.token0)) visit('b', entry.token1, '');
}

/** The keys of the lists a pool is in (eachList), with the token lists of its deployment (byDeployment). */
export function listKeysOf(entry: ListedPool, bases: ReadonlySet<string>): string[] {
  const keys: string[] = [];
  eachList(entry, bases, (kind, token, other) => {
    const key = listKey(kind, token, other);
    keys.push(key);
    if (kind !== 'p') keys.push(byDeployment(key, entry.deployment));
  });
  return keys;
}

/**
 * Every list of `entries` by key, each in order (deepestFirst), as listKeysOf names them. Grouped by token (a pair's
 * by its two tokens) and keyed once per list, not per pool: a key string per list a pool is in cost more than the
 * rest of a big chain's build. A token list is split by deployment in its order, without a second sort.
 */
export function buildPoolLists<E extends ListedPool>(entries: readonly E[], bases: ReadonlySet<string>): Map<string, E[]> {
  const byToken = { t: new Map<string, E[]>(), b: new Map<string, E[]>() };
  const byPair = new Map<string, Map<string, E[]>>();
  // The entry being grouped, read by one visitor for all of them (no closure made per entry).
  let entry: E;
  const group = (kind: ListKind, token: string, other: string): void => {
    if (kind !== 'p') {
      append(byToken[kind], token, entry);
      return;
    }
    const [a, b] = token < other ? [token, other] : [other, token];
    let pairs = byPair.get(a);
    if (!pairs) {
      pairs = new Map();
      byPair.set(a, pairs);
    }
    append(pairs, b, entry);
  };
  for (entry of entries) eachList(entry, bases, group);
  const lists = new Map<string, E[]>();
  for (const kind of ['t', 'b'] as const) {
    for (const [token, list] of byToken[kind]) {
      const key = listKey(kind, token, '');
      lists.set(key, list.sort(deepestFirst));
      const parts = new Map<DeploymentId, E[]>();
      for (const e of list) append(parts, e.deployment, e);
      for (const [deployment, part] of parts) lists.set(byDeployment(key, deployment), part);
    }
  }
  for (const [a, pairs] of byPair) for (const [b, list] of pairs) lists.set(listKey('p', a, b), list.sort(deepestFirst));
  return lists;
}
