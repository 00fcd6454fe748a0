import { type CatalogChain, type CatalogToken, NATIVE_TOKEN_ADDRESS } from '../catalog/Catalog.ts';
import { ValidationError } from '../errors/BaseError.ts';
import type { PoolGraph } from '../graph/PoolGraph.ts';
import type { Snapshot, SnapshotExcludedToken } from '../graph/snapshot.ts';
import type { QuoteRequest } from './quoteRequest.ts';

const byAddress = new WeakMap<Snapshot, Map<string, SnapshotExcludedToken>>();

/** A snapshot's excluded tokens by lower-case address (built once per snapshot). */
function excludedOf(snapshot: Snapshot): Map<string, SnapshotExcludedToken> {
  let map = byAddress.get(snapshot);
  if (!map) {
    map = new Map((snapshot.excludedTokens ?? []).map((e) => [e.address.toLowerCase(), e]));
    byAddress.set(snapshot, map);
  }
  return map;
}

/** Why `token` cannot be quoted on `chain` according to its snapshot (the native asset answers for the wrapped token), or undefined. */
export function excludedTokenProblem(graph: PoolGraph, chain: CatalogChain, token: CatalogToken): string | undefined {
  const snapshot = graph.snapshot(chain.chainId);
  if (!snapshot?.excludedTokens?.length) return undefined;
  const address = token.address === NATIVE_TOKEN_ADDRESS ? chain.wrappedNativeToken : token.address;
  const excluded = excludedOf(snapshot).get(address.toLowerCase());
  if (!excluded) return undefined;
  return `${token.symbol} (${token.address}) is not quoted on ${chain.slug}: ${excluded.detail} (seeding run at block ${snapshot.blockNumber})`;
}

/**
 * Refuses (400) a request whose tokenIn or tokenOut the seeding run left out of its chain's pools: a fee-on-transfer
 * token would make a swap revert or deliver less than amountOutMinimum, and a token whose decimals() or symbol()
 * disagree with the catalogue is not the token described. The pools are not in the graph either, so routing never
 * passes through such a token; this check only gives the reason instead of "no pool".
 */
export function refuseExcludedTokens(request: QuoteRequest, graph: PoolGraph): void {
  const problems = [
    ['tokenIn', excludedTokenProblem(graph, request.originChain, request.tokenIn)],
    ['tokenOut', excludedTokenProblem(graph, request.destinationChain, request.tokenOut)],
  ].filter(([, p]) => p !== undefined);
  if (problems.length > 0) throw new ValidationError(problems.map(([field, p]) => `${field}: ${p}`).join('; '));
}
