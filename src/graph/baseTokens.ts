/** Base tokens chosen from the pools for a chain whose catalogue file names none. */
export const DERIVED_BASE_TOKENS = 5;

/** Fewest distinct tokens a derived base token has pools with (a token with one neighbour joins nothing to anything). */
export const MIN_BASE_CONNECTIONS = 2;

/** What the choice reads of a pool: its tokens (lower-case) and its USD value (PricingGraph's pruning score). */
export interface BasePoolFacts {
  readonly token0: string;
  readonly token1: string;
  readonly score: number;
}

/**
 * The base tokens of a chain whose catalogue names none, from its pools: the tokens with pools to at least
 * MIN_BASE_CONNECTIONS other tokens, ranked by the USD value of all their pools (the sum of the pools' scores), then
 * by their number of distinct neighbours (which alone decides on a chain without USD prices), then by address; the
 * first DERIVED_BASE_TOKENS. `known` keeps the tokens that may be chosen (the chain's catalogued tokens).
 */
export function deriveBaseTokens(pools: Iterable<BasePoolFacts>, known: (token: string) => boolean): string[] {
  const depth = new Map<string, number>();
  const neighbours = new Map<string, Set<string>>();
  const add = (token: string, other: string, score: number): void => {
    if (!known(token) || token === other) return;
    depth.set(token, (depth.get(token) ?? 0) + score);
    let set = neighbours.get(token);
    if (!set) {
      set = new Set();
      neighbours.set(token, set);
    }
    set.add(other);
  };
  for (const pool of pools) {
    add(pool.token0, pool.token1, pool.score);
    add(pool.token1, pool.token0, pool.score);
  }
  return [...neighbours.keys()]
    .filter((t) => neighbours.get(t)!.size >= MIN_BASE_CONNECTIONS)
    .sort((a, b) => depth.get(b)! - depth.get(a)! || neighbours.get(b)!.size - neighbours.get(a)!.size || (a < b ? -1 : 1))
    .slice(0, DERIVED_BASE_TOKENS);
}
