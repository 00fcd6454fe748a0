import { type CatalogChain, type CatalogToken, NATIVE_TOKEN_ADDRESS } from '../catalog/Catalog.ts';
import type { Snapshot, SnapshotExcludedToken } from './snapshot.ts';

/** What a chain's seeding run found about its catalogue tokens (seeds/snapshot.schema.json), by lower-case address. */
export interface TokenFacts {
  /** Tokens left out of the pools, and why. */
  readonly excluded: ReadonlyMap<string, SnapshotExcludedToken>;
  /** Tokens whose approve refuses a new amount while the allowance is not zero. */
  readonly approvalReset: ReadonlySet<string>;
  /** Tells findings apart for caching: equal ids, same findings (a followed block keeps its snapshot's). */
  readonly id: number;
}

/**
 * A catalogue token as the API serves it (token lists, quotes): the catalogue entry, `approvalReset: true` where
 * the catalogue flags it or the seeding run found the rule, and `quotable: false` with the reason where the
 * seeding run left the token out (its decimals() or symbol() disagree with the catalogue, or it takes a fee on
 * transfer): the catalogue's decimals are then not the chain's, and quotes for the token are refused.
 */
export type ServedToken = CatalogToken & { readonly quotable?: false; readonly reason?: string };

const NO_FACTS: TokenFacts = { excluded: new Map(), approvalReset: new Set(), id: 0 };
const NONE: readonly never[] = [];
let lastId = 0;
/** Findings by the snapshot's excludedTokens array, then its approvalResetTokens array (shared by followed blocks). */
const known = new WeakMap<object, WeakMap<object, TokenFacts>>();

/** The findings a snapshot records (none without a snapshot), built once per pair of lists. */
export function tokenFacts(snapshot: Pick<Snapshot, 'excludedTokens' | 'approvalResetTokens'> | undefined): TokenFacts {
  const excluded = snapshot?.excludedTokens?.length ? snapshot.excludedTokens : NONE;
  const reset = snapshot?.approvalResetTokens?.length ? snapshot.approvalResetTokens : NONE;
  if (excluded === NONE && reset === NONE) return NO_FACTS;
  let byReset = known.get(excluded);
  if (!byReset) {
    byReset = new WeakMap();
    known.set(excluded, byReset);
  }
  let facts = byReset.get(reset);
  if (!facts) {
    facts = {
      excluded: new Map(excluded.map((e) => [e.address.toLowerCase(), e])),
      approvalReset: new Set(reset.map((a) => a.toLowerCase())),
      id: ++lastId,
    };
    byReset.set(reset, facts);
  }
  return facts;
}

/** Why the seeding run left a token out (the native asset answers for the wrapped token), or undefined. */
export function excludedToken(facts: TokenFacts, chain: CatalogChain, token: CatalogToken): SnapshotExcludedToken | undefined {
  if (facts.excluded.size === 0) return undefined;
  const address = token.address === NATIVE_TOKEN_ADDRESS ? chain.wrappedNativeToken : token.address;
  return facts.excluded.get(address.toLowerCase());
}

/**
 * The token as served, given its chain's findings. The one place that decides whether a token's approvals reset
 * the allowance to 0 first (the catalogue flag, or the seeding run's probe) and whether it is quotable.
 */
export function servedToken(facts: TokenFacts, chain: CatalogChain, token: CatalogToken): ServedToken {
  const left = excludedToken(facts, chain, token);
  if (left) return { ...token, quotable: false, reason: left.detail };
  if (!token.approvalReset && facts.approvalReset.has(token.address.toLowerCase())) return { ...token, approvalReset: true };
  return token;
}

/** A chain's tokens as served, in catalogue order (the catalogue's own list when nothing was found). */
export function servedTokens(facts: TokenFacts, chain: CatalogChain): readonly ServedToken[] {
  if (facts === NO_FACTS) return chain.tokens;
  return chain.tokens.map((t) => servedToken(facts, chain, t));
}
