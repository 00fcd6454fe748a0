import type { CatalogToken } from '../catalog/Catalog.ts';
import { ValidationError } from '../errors/BaseError.ts';
import type { TradeType } from '../protocols/PoolProtocol.ts';
import { compareNetOfGas } from '../routing/compareNetOfGas.ts';
import type { TradeView } from '../routing/describeTrade.ts';
import { tradeRefusal, tradeSearch } from '../routing/TradeFinder.ts';
import type { SlippageSource } from './autoSlippage.ts';
import type { DescribedRoute } from './describedRoutes.ts';
import { QUOTE_VALIDITY_SECONDS, type SnapshotInfo } from './Quote.ts';
import { type QuoteContext, snapshotInfo } from './quoteContext.ts';
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
 * The best trade per DEX deployment as the `data` of the POST /quotes/routes response, JSON text of RouteQuote[]: best
 * first net of the network fee (`rankedBy` netOfGas, compareNetOfGas): exactIn by amountOut minus the fee in tokenOut
 * descending, exactOut by amountIn plus the fee in tokenIn ascending, the order in which POST /quotes picks its
 * trade. Trades whose price impact exceeds the request's maxPriceImpactBps are left out; when that leaves none, the
 * least impact's refusal is thrown. Nothing is saved. The trades come described (Pricer.findRoutes: their slippage,
 * limits and view as JSON text, made where they were found); this thread writes each element around its view.
 */
export async function routeQuotes(ctx: QuoteContext, request: QuoteRequest): Promise<string> {
  if (request.originChain.chainId !== request.destinationChain.chainId)
    throw new ValidationError('POST /quotes/routes prices same-chain swaps only: originChainId and destinationChainId must be equal');
  if (request.simulate) throw new ValidationError('simulate: POST /quotes/routes returns no steps to simulate; use POST /quotes');
  const deadline = Math.floor(ctx.now() / 1000) + QUOTE_VALIDITY_SECONDS;
  const chain = request.originChain;
  const snapshot = snapshotInfo(ctx, chain.chainId);
  const outcomes = await ctx.pricer.findRoutes({ ...tradeSearch(chain, request, request.limits, true), slippageBps: request.slippageBps });
  const found: DescribedRoute[] = [];
  for (const { outcome } of outcomes) if (outcome.ok) found.push(outcome.route);
  if (found.length === 0)
    throw tradeRefusal(
      outcomes.map((o) => o.outcome),
      chain,
      request,
      request.limits.maxHops,
    );
  const routes = found.filter((trade) => !priceImpactRefusal({ trade }, request.maxPriceImpactBps));
  if (routes.length === 0) {
    const least = found.reduce((a, b) => (b.priceImpactBps < a.priceImpactBps ? b : a));
    throw priceImpactRefusal({ trade: least }, request.maxPriceImpactBps)!;
  }
  routes.sort(compareNetOfGas);
  // Field order is the response's (RouteQuote; README examples, recorded responses): amounts, deadline, tokens, the
  // trade view, snapshot, warnings. The tokens are the same in every element: written once.
  const tokens = JSON.stringify({ tokenIn: request.tokenIn, tokenOut: request.tokenOut }).slice(1, -1);
  let data = '[';
  for (const route of routes) {
    const amounts = JSON.stringify({
      tradeType: route.tradeType,
      amountIn: route.amountIn.toString(),
      amountInMaximum: route.amountInMaximum.toString(),
      amountOut: route.amountOut.toString(),
      amountOutMinimum: route.amountOutMinimum.toString(),
      slippageBps: route.slippageBps,
      slippageSource: route.slippageSource,
      deadline,
    });
    const rest = JSON.stringify({ snapshot, warnings: quoteWarnings({ swaps: [{ trade: route }] }) });
    data += `${data.length > 1 ? ',' : ''}${amounts.slice(0, -1)},${tokens},${route.view},${rest.slice(1)}`;
  }
  return `${data}]`;
}
