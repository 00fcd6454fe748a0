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
  // The element's text, in the response's field order (RouteQuote; README examples, recorded responses): amounts,
  // deadline, tokens, the trade view, snapshot, warnings, as JSON.stringify writes the RouteQuote object (the amounts
  // are digits, tradeType and slippageSource fixed words: nothing to escape). What every element shares is written once.
  const tokens = JSON.stringify({ tokenIn: request.tokenIn, tokenOut: request.tokenOut }).slice(1, -1);
  const snapshotText = JSON.stringify(snapshot);
  let data = '[';
  for (const r of routes) {
    const warnings = quoteWarnings({ swaps: [{ trade: r }] });
    if (data.length > 1) data += ',';
    data += `{"tradeType":"${r.tradeType}","amountIn":"${r.amountIn}","amountInMaximum":"${r.amountInMaximum}","amountOut":"${r.amountOut}","amountOutMinimum":"${r.amountOutMinimum}","slippageBps":${r.slippageBps},"slippageSource":"${r.slippageSource}","deadline":${deadline},${tokens},${r.view},"snapshot":${snapshotText},"warnings":${warnings.length === 0 ? '[]' : JSON.stringify(warnings)}}`;
  }
  return `${data}]`;
}
