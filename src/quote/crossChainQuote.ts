import { buildBridgeRouteSteps } from '../bridge/buildBridgeRouteSteps.ts';
import { describeBridgeRoute } from '../bridge/describeBridgeRoute.ts';
import { planBridgeRoute } from '../bridge/planBridgeRoute.ts';
import type { CatalogChain } from '../catalog/Catalog.ts';
import { chainTokenLookup } from '../catalog/chainTokenLookup.ts';
import { ValidationError } from '../errors/BaseError.ts';
import type { Trade } from '../routing/Trade.ts';
import type { TradeFinder } from '../routing/TradeFinder.ts';
import { readStepAllowances } from './quoteAllowances.ts';
import type { QuoteContext } from './quoteContext.ts';
import type { QuoteRequest } from './quoteRequest.ts';
import { priceImpactRefusal, type QuotedSwap } from './quoteWarnings.ts';
import type { PricedQuote } from './saveQuote.ts';

/** A swap leg of a bridge route, named for messages: before the bridge (origin) or after it (destination). */
function bridgeSwap(trade: Trade, origin: boolean, chain: CatalogChain): QuotedSwap {
  return { trade, where: `the swap ${origin ? 'before' : 'after'} the bridge (${chain.slug})` };
}

/**
 * The pricer as the bridge planner's trade finder for one request: a swap leg above the request's
 * maxPriceImpactBps refuses its corridor (another corridor may still serve), named by where it runs.
 */
function bridgeTradeFinder(ctx: QuoteContext, request: QuoteRequest): TradeFinder {
  return {
    findTrades: async (search) => {
      const results = await ctx.pricer.findTrades(search);
      const chain = ctx.catalog.chain(search.chainId)!;
      const origin = search.chainId === request.originChain.chainId;
      for (const { outcome } of results) {
        if (!outcome.ok || outcome.trade.splits.length === 0) continue;
        const tooHigh = priceImpactRefusal(bridgeSwap(outcome.trade, origin, chain), request.maxPriceImpactBps);
        if (tooHigh) throw tooHigh;
      }
      return results;
    },
  };
}

/**
 * A bridge route (src/bridge/planBridgeRoute.ts) with its steps (to `deadline`, seconds since the epoch): origin swap
 * and Across deposit on the origin chain, then an optional wrap or swap on the destination chain; steps carry their
 * chainId. Saved like a same-chain quote.
 */
export async function crossChainQuote(ctx: QuoteContext, request: QuoteRequest, deadline: number): Promise<PricedQuote> {
  // parseQuoteRequest refuses "auto" across chains: a bridge route's slippage is the request's (or the default).
  if (request.slippageBps === 'auto') throw new ValidationError('slippageBps: "auto" is same-chain only');
  const slippage = { slippageBps: request.slippageBps, slippageSource: 'request' } as const;
  const plan = await planBridgeRoute(
    { ...request, slippageBps: slippage.slippageBps },
    { catalog: ctx.catalog, tradeFinder: bridgeTradeFinder(ctx, request) },
  );
  const build = (allowances?: ReadonlyMap<string, bigint>) =>
    buildBridgeRouteSteps({ plan, wallet: request.walletAddress, deadline, allowances });
  let steps = build();
  // With a sender, the allowances the approvals give (on both chains) are read and the steps built again with them.
  let allowanceUnread: string | undefined;
  if (request.sender && steps.some((s) => s.spender)) {
    const read = await readStepAllowances(ctx.allowances, request.sender, steps);
    steps = build(read.allowances);
    allowanceUnread = read.unread;
  }
  const bridgeView = describeBridgeRoute(plan, deadline, (chainId) => chainTokenLookup(ctx.catalog, ctx.catalog.chain(chainId)!));
  const bridge = plan.originBridge;
  return {
    slippage,
    amountIn: request.amount,
    amountInMaximum: request.amount,
    amountOut: plan.amountOut,
    amountOutMinimum: plan.amountOutMinimum,
    pairAddress: bridge.spokePoolAddress,
    route: { dex: bridge.slug, name: bridge.name, fees: plan.deposit.feeAmount.toString(), logo: bridge.logo, version: '', poolFee: 0 },
    steps,
    extension: JSON.stringify(bridgeView).slice(1, -1),
    allowanceUnread,
    swaps: [plan.originSwap, plan.destinationLeg].flatMap((leg) =>
      leg && leg.trade.splits.length > 0 ? [bridgeSwap(leg.trade, leg === plan.originSwap, leg.chain)] : [],
    ),
  };
}
