// routeQuotes on described routes (describedRoutes, as a worker answers them: structured-cloned) writes the same text
// as the code before the change: every trade decoded in the API thread, described there (slippage, limits,
// describeTrade) and the RouteQuote objects passed through JSON.stringify. That earlier code is the oracle below,
// written out as it stood (src/quote/routeQuotes.ts at 07c24e1), over the devnet quote mix with varied amounts,
// exact input and output, a fixed slippage and "auto", and a price-impact bound that leaves routes out.
import t from 'tap';
import { variedQuoteBodies } from '../../bench/lib/quoteMix.ts';
import { chainTokenLookup } from '../../src/catalog/chainTokenLookup.ts';
import { PricingGraph } from '../../src/graph/PricingGraph.ts';
import { chosenSlippage } from '../../src/quote/autoSlippage.ts';
import { describedRoutes, type RouteSearch } from '../../src/quote/describedRoutes.ts';
import { QUOTE_VALIDITY_SECONDS } from '../../src/quote/Quote.ts';
import { quoteContext, snapshotInfo } from '../../src/quote/quoteContext.ts';
import { parseQuoteRequest, type QuoteRequest } from '../../src/quote/quoteRequest.ts';
import { quoteWarnings } from '../../src/quote/quoteWarnings.ts';
import { routeQuotes } from '../../src/quote/routeQuotes.ts';
import { findTrades } from '../../src/quote/TradeTask.ts';
import { decodeTrades, encodeTrades } from '../../src/quote/tradeCodec.ts';
import { compareNetOfGas } from '../../src/routing/compareNetOfGas.ts';
import { describeTrade } from '../../src/routing/describeTrade.ts';
import { slippageLimits } from '../../src/routing/slippageLimits.ts';
import type { Trade } from '../../src/routing/Trade.ts';
import { tradeSearch } from '../../src/routing/TradeFinder.ts';
import { shippedDevnetGraph } from '../helpers/shippedDevnet.ts';

const { catalog, graph } = shippedDevnetGraph();
const pricing = new PricingGraph(graph, catalog);
const NOW = Date.UTC(2026, 10, 28, 3, 0, 0);
const search = (request: QuoteRequest): RouteSearch => ({
  ...tradeSearch(request.originChain, request, request.limits, true),
  slippageBps: request.slippageBps,
});
const ctx = quoteContext({
  catalog,
  graph: () => graph,
  // As a worker answers: the described routes after a structured clone.
  pricer: {
    findTrades: async () => [],
    findQuote: async () => [],
    findRoutes: async (s) => structuredClone(describedRoutes(catalog, s, findTrades(pricing, s))),
    close: async () => undefined,
    queueSize: () => 0,
  },
  store: undefined as never,
  now: () => NOW,
});

/** The data of POST /quotes/routes as the code before the change wrote it (null when refused). */
function before(request: QuoteRequest): string | null {
  const chain = request.originChain;
  const deadline = Math.floor(NOW / 1000) + QUOTE_VALIDITY_SECONDS;
  const snapshot = snapshotInfo(ctx, chain.chainId);
  const found: Trade[] = [];
  for (const { outcome } of decodeTrades(encodeTrades(findTrades(pricing, search(request))))) if (outcome.ok) found.push(outcome.trade);
  const trades = found.filter((trade) => trade.priceImpactBps <= request.maxPriceImpactBps);
  if (trades.length === 0) return null;
  trades.sort(compareNetOfGas);
  const token = chainTokenLookup(ctx.catalog, chain);
  const routes = trades.map((trade) => {
    const { slippageBps, slippageSource } = chosenSlippage(request.slippageBps, trade);
    const { amountInMaximum, amountOutMinimum } = slippageLimits(trade, slippageBps);
    const view = describeTrade(chain, trade, token, amountOutMinimum);
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
  return JSON.stringify(routes);
}

t.test('routeQuotes writes the text the earlier code wrote, route for route', async (t) => {
  const variants: Record<string, unknown>[] = [
    { maxPriceImpactBps: 10_000 },
    { maxPriceImpactBps: 10_000, slippageBps: 'auto' },
    { maxPriceImpactBps: 10_000, tradeType: 'exactOut', slippageBps: 137 },
    { maxPriceImpactBps: 300, slippageBps: 'auto', tradeType: 'exactOut' },
    { maxPriceImpactBps: 300 },
  ];
  let compared = 0;
  let routes = 0;
  let refused = 0;
  let warned = 0;
  let staged = 0;
  const differ: string[] = [];
  for (const extra of variants)
    for (const body of variedQuoteBodies(3, extra)) {
      const request = parseQuoteRequest(JSON.parse(body), catalog, 50);
      const expected = before(request);
      let actual: string | null;
      try {
        actual = await routeQuotes(ctx, request);
      } catch {
        actual = null;
      }
      if (expected === null) refused++;
      else {
        const parsed = JSON.parse(expected) as { warnings: unknown[]; paths: { stages?: unknown }[] }[];
        routes += parsed.length;
        warned += parsed.filter((r) => r.warnings.length > 0).length;
        staged += parsed.filter((r) => r.paths.some((p) => p.stages)).length;
      }
      compared++;
      if (actual !== expected) differ.push(body);
    }
  t.same(differ, [], `${compared} requests: ${routes} routes, ${refused} refused alike, the same text`);
  // What the comparison covered: warnings, staged paths and refusals occur in it.
  t.ok(routes > 300 && refused > 0 && warned > 0, `${routes} routes, ${warned} with a warning, ${staged} with stages, ${refused} refused`);
});
