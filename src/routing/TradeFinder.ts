import { formatUnits } from 'viem';
import type { CatalogChain, CatalogToken } from '../catalog/Catalog.ts';
import { NoPoolStateError, QuoteUnavailableError } from '../errors/BaseError.ts';
import type { TradeType } from '../protocols/PoolProtocol.ts';
import type { TradeOutcome } from './bestTrade.ts';
import type { DeploymentTrade, TradeSubject } from './bestTradesByDeployment.ts';
import type { RequestedLimits } from './RoutingLimits.ts';
import type { Trade } from './Trade.ts';

/** What to search on one chain: the pair (lower-case addresses), the fixed side and its amount, and the limits. */
export interface TradeSearch extends Readonly<TradeSubject> {
  readonly chainId: number;
  /** An undefined gas price is the one recorded with the pool state the search runs on. */
  readonly limits: RequestedLimits;
  /** One best trade per deployment (POST /quotes/routes) instead of one over all of them (bestTradesByDeployment). */
  readonly perDeployment: boolean;
}

/** Finds trades on the pool state being served: the pricer (src/quote/Pricer.ts) is one. */
export interface TradeFinder {
  /** The outcomes of bestTradesByDeployment for a search; none when the chain has no pool state. */
  findTrades(search: TradeSearch): Promise<DeploymentTrade[]>;
}

/** A trade as a quote states it: catalogue tokens, the side that is fixed and its amount (smallest units). */
export interface QuotedTrade {
  readonly tokenIn: CatalogToken;
  readonly tokenOut: CatalogToken;
  readonly tradeType: TradeType;
  readonly amount: bigint;
}

/** The search for a quoted trade on a chain. */
export function tradeSearch(chain: CatalogChain, what: QuotedTrade, limits: RequestedLimits, perDeployment: boolean): TradeSearch {
  return {
    chainId: chain.chainId,
    tokenIn: what.tokenIn.address.toLowerCase(),
    tokenOut: what.tokenOut.address.toLowerCase(),
    tradeType: what.tradeType,
    amount: what.amount,
    limits,
    perDeployment,
  };
}

/** The best trade over all the limits' deployments; throws QuoteUnavailableError (tradeRefusal) when there is none. */
export async function findBestTrade(finder: TradeFinder, chain: CatalogChain, what: QuotedTrade, limits: RequestedLimits): Promise<Trade> {
  const [result] = await finder.findTrades(tradeSearch(chain, what, limits, false));
  if (!result?.outcome.ok) throw tradeRefusal(result ? [result.outcome] : [], chain, what, limits.maxHops);
  return result.outcome.trade;
}

/** The error for a search that found no trade, from the outcomes' refusal codes. */
export function tradeRefusal(
  outcomes: readonly (TradeOutcome | { readonly ok: true })[],
  chain: CatalogChain,
  what: QuotedTrade,
  maxHops: number,
): QuoteUnavailableError {
  // A finder answers no outcome at all only for a chain without pool state (TradeFinder.findTrades).
  if (outcomes.length === 0) return new NoPoolStateError([chain]);
  const codes = outcomes.map((o) => (o.ok ? undefined : o.code));
  const pair = `${what.tokenIn.symbol}/${what.tokenOut.symbol}`;
  const hops = `${maxHops} ${maxHops === 1 ? 'hop' : 'hops'}`;
  const fixed = what.tradeType === 'exactOut' ? what.tokenOut : what.tokenIn;
  const amount = `${formatUnits(what.amount, fixed.decimals)} ${fixed.symbol}`;
  if (codes.some((c) => c === 'AMOUNT_TOO_SMALL')) {
    return new QuoteUnavailableError('AMOUNT_TOO_SMALL', `quote unavailable: ${amount} is too small to swap on any pool`);
  }
  if (codes.some((c) => c === 'AMOUNT_TOO_LARGE')) {
    return new QuoteUnavailableError(
      'AMOUNT_TOO_LARGE',
      `quote unavailable: ${amount} is too large to swap: it exceeds what the ${pair} pools on ${chain.slug} can take (a pool's balance or its arithmetic would overflow)`,
    );
  }
  if (codes.some((c) => c === 'INSUFFICIENT_LIQUIDITY')) {
    const task = what.tradeType === 'exactOut' ? `deliver exactly ${amount}` : 'swap this amount';
    return new QuoteUnavailableError(
      'INSUFFICIENT_LIQUIDITY',
      `quote unavailable: no route for ${pair} on ${chain.slug} has the liquidity to ${task}`,
    );
  }
  if (codes.some((c) => c === 'NO_EXACT_OUTPUT_ROUTE')) {
    return new QuoteUnavailableError(
      'NO_ROUTE',
      `quote unavailable: no route for ${pair} on ${chain.slug} within ${hops} can deliver exactly ${amount}: exact output takes paths of one protocol (v2 or v3), and the paths found mix them`,
    );
  }
  return new QuoteUnavailableError('NO_ROUTE', `quote unavailable: no route for ${pair} on ${chain.slug} within ${hops}`);
}
