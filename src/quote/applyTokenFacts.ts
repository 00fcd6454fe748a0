import type { CatalogChain, CatalogToken } from '../catalog/Catalog.ts';
import { ValidationError } from '../errors/BaseError.ts';
import type { PoolGraph } from '../graph/PoolGraph.ts';
import { servedChain } from '../graph/servedChain.ts';
import { excludedToken, servedToken, tokenFacts } from '../graph/tokenFacts.ts';
import type { QuoteRequest } from './quoteRequest.ts';

/** Why `token` cannot be quoted on `chain` according to its snapshot, or undefined. */
function excludedTokenProblem(graph: PoolGraph, chain: CatalogChain, token: CatalogToken): string | undefined {
  const snapshot = graph.snapshot(chain.chainId);
  const excluded = excludedToken(tokenFacts(snapshot), chain, token);
  if (!excluded) return undefined;
  return `${token.symbol} (${token.address}) is not quoted on ${chain.slug}: ${excluded.detail} (seeding run at block ${snapshot!.blockNumber})`;
}

/**
 * The request with its chains and tokens as their snapshots describe them (servedChain: the chain routing priced on,
 * so the steps are built for the same routers; servedToken: an approve-reset rule the seeding run found makes every
 * approval step reset the allowance first). Refuses (400) a request whose tokenIn or
 * tokenOut the seeding run left out of its chain's pools: a fee-on-transfer token would make a swap revert or
 * deliver less than amountOutMinimum, and a token whose decimals() or symbol() disagree with the catalogue is not
 * the token described. The pools are not in the graph either, so routing never passes through such a token; this
 * check only gives the reason instead of "no pool".
 */
export function applyTokenFacts(request: QuoteRequest, graph: PoolGraph): QuoteRequest {
  const problems = [
    ['tokenIn', excludedTokenProblem(graph, request.originChain, request.tokenIn)],
    ['tokenOut', excludedTokenProblem(graph, request.destinationChain, request.tokenOut)],
  ].filter(([, p]) => p !== undefined);
  if (problems.length > 0) throw new ValidationError(problems.map(([field, p]) => `${field}: ${p}`).join('; '));
  const origin = graph.snapshot(request.originChain.chainId);
  const destination = graph.snapshot(request.destinationChain.chainId);
  const tokenIn = servedToken(tokenFacts(origin), request.originChain, request.tokenIn);
  const tokenOut = servedToken(tokenFacts(destination), request.destinationChain, request.tokenOut);
  const originChain = servedChain(request.originChain, origin);
  const destinationChain = servedChain(request.destinationChain, destination);
  return tokenIn === request.tokenIn &&
    tokenOut === request.tokenOut &&
    originChain === request.originChain &&
    destinationChain === request.destinationChain
    ? request
    : { ...request, tokenIn, tokenOut, originChain, destinationChain };
}
