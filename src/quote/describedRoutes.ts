import type { Catalog, DeploymentId } from '../catalog/Catalog.ts';
import { chainTokenLookup } from '../catalog/chainTokenLookup.ts';
import type { RefusalCode } from '../errors/RefusalCode.ts';
import type { DeploymentTrade } from '../routing/bestTradesByDeployment.ts';
import { describeTrade } from '../routing/describeTrade.ts';
import { slippageLimits } from '../routing/slippageLimits.ts';
import type { Trade } from '../routing/Trade.ts';
import type { TradeSearch } from '../routing/TradeFinder.ts';
import { chosenSlippage, type SlippageSource } from './autoSlippage.ts';

/** A POST /quotes/routes search: one best trade per deployment, each described at the request's slippage. */
export interface RouteSearch extends TradeSearch {
  /** The request's slippageBps (a number, or "auto": autoSlippage.ts). */
  readonly slippageBps: number | 'auto';
}

/**
 * A trade of POST /quotes/routes as the thread that found it describes it: what the API thread ranks, filters and
 * writes around it (routeQuotes), and the trade's view (describeTrade) already as JSON text. A worker answers these
 * instead of the trades: a few numbers and one string cross the thread boundary, and the API thread neither rebuilds
 * the trades nor describes and serializes their paths (bench/HISTORY.md, issue 24, apiroutes).
 */
export interface DescribedRoute extends Pick<Trade, 'tradeType' | 'amountIn' | 'amountOut' | 'gasCost' | 'priceImpactBps'> {
  readonly slippageBps: number;
  readonly slippageSource: SlippageSource;
  readonly amountInMaximum: bigint;
  readonly amountOutMinimum: bigint;
  /**
   * The members of the trade's TradeView as JSON text, without the enclosing braces
   * (`"route":{…},"pairAddress":…,"priceImpactBps":N`): JSON.stringify of describeTrade's view, as the response writes it.
   */
  readonly view: string;
}

/** One deployment's outcome of a route search (bestTradesByDeployment's, with the trade described). */
export interface DeploymentRoute {
  readonly deployment: DeploymentId | '';
  readonly outcome: { readonly ok: true; readonly route: DescribedRoute } | { readonly ok: false; readonly code: RefusalCode };
}

/** A search's trades described as POST /quotes/routes answers them (DescribedRoute), in the order found. */
export function describedRoutes(catalog: Catalog, search: RouteSearch, trades: readonly DeploymentTrade[]): DeploymentRoute[] {
  const chain = catalog.chain(search.chainId);
  if (!chain) return [];
  const token = chainTokenLookup(catalog, chain);
  return trades.map(({ deployment, outcome }): DeploymentRoute => {
    if (!outcome.ok) return { deployment, outcome };
    const trade = outcome.trade;
    const { slippageBps, slippageSource } = chosenSlippage(search.slippageBps, trade);
    const { amountInMaximum, amountOutMinimum } = slippageLimits(trade, slippageBps);
    const view = JSON.stringify(describeTrade(chain, trade, token, amountOutMinimum));
    const route: DescribedRoute = {
      tradeType: trade.tradeType,
      amountIn: trade.amountIn,
      amountOut: trade.amountOut,
      gasCost: trade.gasCost,
      priceImpactBps: trade.priceImpactBps,
      slippageBps,
      slippageSource,
      amountInMaximum,
      amountOutMinimum,
      view: view.slice(1, -1),
    };
    return { deployment, outcome: { ok: true, route } };
  });
}
