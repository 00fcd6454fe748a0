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

/**
 * The key of a list: a number made of the small numbers ListNames gives its tokens (and deployment), not a string of
 * their addresses (a string key per list cost more memory than the lists of a 100,000-pool chain: 120,000 keys of
 * 76 characters on average).
 */
export type ListKey = number;

/** The key of every list whose token or deployment has no name (ListNames.id): such a list is empty. */
export const UNNAMED: ListKey = -1;

/** Most names a ListNames gives (the product of two fits a key below 2^53 with the kind). */
const MOST_NAMES = 2 ** 22;
const KINDS = 8;
const KIND = { t: 0, b: 1, p: 2, 't@': 3, 'b@': 4 } as const;

/**
 * Numbers for the tokens and deployments of one chain's lists, given in order from 0 and never changed: shared by an
 * index and every index derived from it, so a key means the same list in each. A name given after an index was made
 * (a followed block bringing a token no list had) is at or past that index's `size`.
 */
export class ListNames {
  private readonly ids = new Map<string, number>();

  /** How many names are given. */
  get size(): number {
    return this.ids.size;
  }

  /** The number of a token address or deployment, given now if it has none. */
  name(value: string): number {
    let id = this.ids.get(value);
    if (id === undefined) {
      id = this.ids.size;
      if (id >= MOST_NAMES) throw new Error(`more than ${MOST_NAMES} tokens and deployments in one chain's lists`);
      this.ids.set(value, id);
    }
    return id;
  }

  /** The number of a token address or deployment, if it has one. */
  id(value: string): number | undefined {
    return this.ids.get(value);
  }
}

/** The key of a token's list ('t' or 'b'), with `deployment` the list of its pools of that deployment. */
function tokenKey(kind: 't' | 'b', token: number, deployment?: number): ListKey {
  if (deployment === undefined) return token * KINDS + KIND[kind];
  return (token * MOST_NAMES + deployment) * KINDS + KIND[kind === 't' ? 't@' : 'b@'];
}

/** The key of a pair's list whichever order its tokens are given in. */
function pairKey(a: number, b: number): ListKey {
  return (a < b ? a * MOST_NAMES + b : b * MOST_NAMES + a) * KINDS + KIND.p;
}

/**
 * The key of a token's list ('t': its pools, 'b': its pools to base tokens), of one deployment's when given (a hub
 * token's pools of one DEX, read without walking its other DEXes' pools when a search is kept to that DEX:
 * findRoutes' PoolFilter); UNNAMED when the token or deployment has no name.
 */
export function tokenListKey(names: ListNames, kind: 't' | 'b', token: string, deployment?: DeploymentId): ListKey {
  const t = names.id(token);
  if (t === undefined) return UNNAMED;
  if (deployment === undefined) return tokenKey(kind, t);
  const d = names.id(deployment);
  return d === undefined ? UNNAMED : tokenKey(kind, t, d);
}

/** The key of the list of a pair's pools (UNNAMED when a token has no name). */
export function pairListKey(names: ListNames, a: string, b: string): ListKey {
  const x = names.id(a);
  const y = names.id(b);
  return x === undefined || y === undefined ? UNNAMED : pairKey(x, y);
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

/**
 * The keys of the lists a pool is in (eachList), with the token lists of its deployment; its tokens
 * and deployment are named (ListNames.name) if they are not yet.
 */
export function listKeysOf(entry: ListedPool, bases: ReadonlySet<string>, names: ListNames): ListKey[] {
  const keys: ListKey[] = [];
  const deployment = names.name(entry.deployment);
  eachList(entry, bases, (kind, token, other) => {
    if (kind === 'p') keys.push(pairKey(names.name(token), names.name(other)));
    else keys.push(tokenKey(kind, names.name(token)), tokenKey(kind, names.name(token), deployment));
  });
  return keys;
}

/**
 * Every list of `entries` by key, each in order (deepestFirst), as listKeysOf names them (naming their tokens and
 * deployments). Grouped straight into the lists by key, then each list sorted, and a token list split by deployment
 * in its order, without a second sort.
 */
export function buildPoolLists<E extends ListedPool>(
  entries: readonly E[],
  bases: ReadonlySet<string>,
  names: ListNames,
): Map<ListKey, E[]> {
  const lists = new Map<ListKey, E[]>();
  // The entry being grouped, read by one visitor for all of them (no closure made per entry).
  let entry: E;
  const group = (kind: ListKind, token: string, other: string): void => {
    append(lists, kind === 'p' ? pairKey(names.name(token), names.name(other)) : tokenKey(kind, names.name(token)), entry);
  };
  for (entry of entries) eachList(entry, bases, group);
  for (const key of [...lists.keys()]) {
    // A list grown by push has room for 16 or more: one of more than one pool is kept as an exact copy.
    const list = lists.get(key)!.sort(deepestFirst);
    lists.set(key, exact(list));
    const kind = key % KINDS;
    if (kind !== KIND.t && kind !== KIND.b) continue;
    const token = (key - kind) / KINDS;
    const parts = new Map<DeploymentId, E[]>();
    for (const e of list) append(parts, e.deployment, e);
    for (const [deployment, part] of parts) lists.set(tokenKey(kind === KIND.t ? 't' : 'b', token, names.name(deployment)), exact(part));
  }
  return lists;
}

/** A list as kept: one of a single value as made (an array literal: no spare room), a longer one copied. */
function exact<E>(list: E[]): E[] {
  return list.length > 1 ? list.slice() : list;
}
