import type { CatalogToken } from '../catalog/Catalog.ts';
import { ValidationError } from '../errors/BaseError.ts';
import type { TradeType } from '../protocols/PoolProtocol.ts';
import { compareNetOfGas } from '../routing/compareNetOfGas.ts';
import { describeTrade, type TradeView } from '../routing/describeTrade.ts';
import { slippageLimits } from '../routing/slippageLimits.ts';
import type { Trade } from '../routing/Trade.ts';
import { tradeRefusal, tradeSearch } from '../routing/TradeFinder.ts';
import { chosenSlippage, type SlippageSource } from './autoSlippage.ts';
import { QUOTE_VALIDITY_SECONDS, type SnapshotInfo } from './Quote.ts';
import { catalogToken, type QuoteContext, snapshotInfo } from './quoteContext.ts';
import type { QuoteRequest } from './quoteRequest.ts';
import { priceImpactRefusal, type QuoteWarning, quoteWarnings } from './quoteWarnings.ts';

/** An element of the POST /quotes/routes response (SPEC section 2, Route quote) plus the routing extensions and snapshot. */
export interface RouteQuote extends TradeView {
  tradeType: TradeType;
  amountIn: string;
  amountInMaximum: string;
  amountOut: string;
  amountOutMinimum: string;
  deadline: number;
  slippageBps: number;
  /** "auto" when the request asked for it (src/quote/autoSlippage.ts), else "request". */
  slippageSource: SlippageSource;
  tokenIn: CatalogToken;
  tokenOut: CatalogToken;
  snapshot: SnapshotInfo | null;
  /** What a client should show beside this route (empty when nothing). */
  warnings: QuoteWarning[];
}

/**
 * The best trade per DEX deployment, best first net of the network fee (POST /quotes/routes, `rankedBy` netOfGas,
 * compareNetOfGas): exactIn by amountOut minus the fee in tokenOut descending, exactOut by amountIn plus the fee in
 * tokenIn ascending, the order in which POST /quotes picks its trade. Trades whose price impact exceeds the
 * request's maxPriceImpactBps are left out; when that leaves none, the least impact's refusal is thrown. Nothing is
 * saved.
 */
export async function routeQuotes(ctx: QuoteContext, request: QuoteRequest): Promise<RouteQuote[]> {
  if (request.originChain.chainId !== request.destinationChain.chainId)
    throw new ValidationError('POST /quotes/routes prices same-chain swaps only: originChainId and destinationChainId must be equal');
  if (request.simulate) throw new ValidationError('simulate: POST /quotes/routes returns no steps to simulate; use POST /quotes');
  const deadline = Math.floor(ctx.now() / 1000) + QUOTE_VALIDITY_SECONDS;
  const chain = request.originChain;
  const snapshot = snapshotInfo(ctx, chain.chainId);
  const outcomes = await ctx.pricer.findTrades(tradeSearch(chain, request, request.limits, true));
  const found: Trade[] = [];
  for (const { outcome } of outcomes) if (outcome.ok) found.push(outcome.trade);
  if (found.length === 0)
    throw tradeRefusal(
      outcomes.map((o) => o.outcome),
      chain,
      request,
      request.limits.maxHops,
    );
  const trades = found.filter((trade) => !priceImpactRefusal({ trade }, request.maxPriceImpactBps));
  if (trades.length === 0) {
    const least = found.reduce((a, b) => (b.priceImpactBps < a.priceImpactBps ? b : a));
    throw priceImpactRefusal({ trade: least }, request.maxPriceImpactBps)!;
  }
  trades.sort(compareNetOfGas);
  const token = catalogToken(ctx, chain);
  return trades.map((trade) => {
    const { slippageBps, slippageSource } = chosenSlippage(request.slippageBps, trade);
    const { amountInMaximum, amountOutMinimum } = slippageLimits(trade, slippageBps);
    const view = describeTrade(chain, trade, token, amountOutMinimum);
    // Field order is the response's (README examples, recorded responses): amounts, deadline, tokens, the trade view.
    return {
      tradeType: trade.tradeType,
      amountIn: trade.amountIn.toString(),
      amountInMaximum: amountInMaximum.toString(),
      amountOut: trade.amountOut.toString(),
      amountOutMinimum: amountOutMinimum.toString(),
      slippageBps,
      slippageSource,
      deadline,
      tokenIn: request.tokenIn,
      tokenOut: request.tokenOut,
      route: view.route,
      pairAddress: view.pairAddress,
      paths: view.paths,
      gasEstimate: view.gasEstimate,
      gasPriceWei: view.gasPriceWei,
      networkFee: view.networkFee,
      priceImpactBps: view.priceImpactBps,
      snapshot,
      warnings: quoteWarnings({ swaps: [{ trade }] }),
    };
  });
}
