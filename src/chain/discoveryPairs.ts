import { type Address, getAddress } from 'viem';
import type { CatalogChain } from '../catalog/Catalog.ts';
import { poolSource, type SnapshotPool } from '../protocols/registry.ts';

const NATIVE = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee';

/** A pair lookup: a factory read for one pair at one fee. */
export interface Candidate {
  readonly dex: string;
  readonly version: SnapshotPool['version'];
  readonly token0: Address;
  readonly token1: Address;
  /** v2: feeBps x 100; v3: the tier asked for (the pool's own fee() is read later). */
  readonly fee: number;
  readonly factory: Address;
}

/** Token addresses a chain's pairs are built from: its EVM tokens, the native asset replaced by the wrapped one, deduplicated. */
export function pairTokens(chain: CatalogChain): Address[] {
  const seen = new Map<string, Address>();
  const add = (a: string): void => {
    if (!a || a.toLowerCase() === NATIVE) return;
    seen.set(a.toLowerCase(), getAddress(a.toLowerCase()));
  };
  for (const t of chain.tokens) add(t.address.toLowerCase() === NATIVE ? chain.wrappedNativeToken : t.address);
  if (chain.wrappedNativeToken) add(chain.wrappedNativeToken);
  return [...seen.values()].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
}

/**
 * The token pairs whose pools discovery looks for: every (token, base token) and (base, base) pair and every pair
 * the chain file lists (`pairs`), each once, token0 below token1; the native asset stands for the wrapped token.
 * A chain without base tokens has every token as a base (all pairs). `usable` (default: all) drops tokens that
 * failed their checks. Grows linearly with the token count: at most tokens x bases + pairs.
 */
export function discoveryPairs(chain: CatalogChain, usable?: ReadonlySet<string>): [Address, Address][] {
  const ok = (a: Address): boolean => !usable || usable.has(a.toLowerCase());
  const erc20 = (a: string): Address => getAddress((a.toLowerCase() === NATIVE ? chain.wrappedNativeToken : a).toLowerCase());
  const tokens = pairTokens(chain).filter(ok);
  const bases = chain.baseTokens.length > 0 ? [...new Set(chain.baseTokens.map(erc20))].filter(ok) : tokens;
  const seen = new Set<string>();
  const out: [Address, Address][] = [];
  const add = (a: Address, b: Address): void => {
    if (a === b || !ok(a) || !ok(b)) return;
    const pair: [Address, Address] = BigInt(a) < BigInt(b) ? [a, b] : [b, a];
    const key = `${pair[0]}/${pair[1]}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push(pair);
  };
  for (let i = 0; i < bases.length; i++) for (let j = i + 1; j < bases.length; j++) add(bases[i], bases[j]);
  for (const token of tokens) for (const base of bases) add(token, base);
  for (const [a, b] of chain.pairs) add(erc20(a), erc20(b));
  return out;
}

/**
 * Every discovery candidate of a chain: each discovery pair on each DEX, at each fee its protocol finds pools by
 * (registry.poolSource: v2 getPair at the DEX's fee, v3 getPool per fee tier).
 */
export function discoveryCandidates(chain: CatalogChain, usable?: ReadonlySet<string>): Candidate[] {
  const pairs = discoveryPairs(chain, usable);
  const out: Candidate[] = [];
  for (const dex of chain.dexes) {
    const found = poolSource(dex.version).discovery(dex);
    if (!found) continue;
    const factory = getAddress(found.factory);
    for (const [token0, token1] of pairs)
      for (const fee of found.fees) out.push({ dex: dex.slug, version: dex.version, token0, token1, fee, factory });
  }
  return out;
}
