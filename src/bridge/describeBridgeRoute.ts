import type { CatalogToken } from '../catalog/Catalog.ts';
import { describeTrade, type PathView } from '../routing/describeTrade.ts';
import { destinationDeadline } from './buildBridgeRouteSteps.ts';
import type { BridgeRoutePlan, TradeLegPlan } from './planBridgeRoute.ts';

/** One swap (or wrap) leg of a cross-chain quote (extension field `bridge.originSwap` / `bridge.destinationSwap`). */
export interface QuoteSwapLeg {
  readonly chainId: number;
  /** DEX slug, or 'wrap' for a wrap of the native asset. */
  readonly dex: string;
  readonly name: string;
  /** 'v2' | 'v3', '' for a wrap. */
  readonly version: string;
  /** Pool fee in pips (0 for a wrap). */
  readonly poolFee: number;
  /** The first pool of the largest split ('' for a wrap). */
  readonly pool: string;
  /** Every split with its hops (empty for a wrap), as `paths` of a same-chain quote. */
  readonly paths: readonly PathView[];
  readonly tokenIn: CatalogToken;
  readonly tokenOut: CatalogToken;
  /** Integer strings, smallest units. */
  readonly amountIn: string;
  readonly amountOut: string;
  readonly amountOutMinimum: string;
  /** The leg's on-chain deadline (Unix seconds). */
  readonly deadline: number;
}

/** The bridge transfer of a cross-chain quote (extension field `bridge`). */
export interface QuoteBridgeDetails {
  readonly protocol: 'across';
  readonly name: string;
  readonly slug: string;
  /** Shared asset key bridged (USDC, ETH, ...). */
  readonly asset: string;
  readonly originSpokePool: string;
  readonly destinationSpokePool: string;
  /** Deposit token as the wallet gives it (native when native ETH is deposited with value). */
  readonly inputToken: CatalogToken;
  /** The destination ERC-20 the relayer pays (WETH pays native ETH to an externally owned recipient). */
  readonly outputToken: CatalogToken;
  /** The deposit's inputAmount and outputAmount (integer strings): the relayer fills exactly outputAmount. */
  readonly inputAmount: string;
  readonly outputAmount: string;
  /** Receives the fill: the recipient, or the wallet when a destination leg follows. */
  readonly fillRecipient: string;
  /** depositNow fillDeadlineOffset: unfilled deposits are refunded to the wallet on the origin chain after it. */
  readonly fillDeadlineOffsetSeconds: number;
  readonly expectedFillTimeSeconds: number;
  readonly originSwap: QuoteSwapLeg | null;
  readonly destinationSwap: QuoteSwapLeg | null;
}

/** One fee of the breakdown: an integer string in `token`'s smallest units. */
export interface QuoteFee {
  readonly token: CatalogToken;
  readonly amount: string;
}

/** Fee breakdown of a cross-chain quote (extension field `fees`). */
export interface QuoteFeeBreakdown {
  /** The bridge fee in the bridged output token: input scaled to its decimals (rounded down) minus outputAmount. */
  readonly bridge: QuoteFee & { readonly feeBps: number; readonly fixedFee: string };
  /** LP fees of the origin swap, in its input token (as a same-chain quote's route.fees); null without one. */
  readonly originSwap: QuoteFee | null;
  /** LP fee of the destination swap, in its input token; null without one. */
  readonly destinationSwap: QuoteFee | null;
}

/** The extension fields a cross-chain quote carries. */
export interface BridgeQuoteExtension {
  readonly expectedFillTimeSeconds: number;
  readonly bridge: QuoteBridgeDetails;
  readonly fees: QuoteFeeBreakdown;
}

/** A chain's token by lower-case address. */
export type TokenLookup = (chainId: number) => (address: string) => CatalogToken;

/** A leg's view; a bare wrap (a trade without splits) goes through no pool: no pool, no paths. */
function swapLeg(leg: TradeLegPlan, deadline: number, tokens: TokenLookup): QuoteSwapLeg {
  const view = describeTrade(leg.chain, leg.trade, tokens(leg.chain.chainId));
  const pools = leg.trade.splits.length > 0;
  return {
    chainId: leg.chain.chainId,
    dex: view.route.dex,
    name: view.route.name,
    version: view.route.version,
    poolFee: view.route.poolFee,
    pool: pools ? view.pairAddress : '',
    paths: pools ? view.paths : [],
    tokenIn: leg.tokenIn,
    tokenOut: leg.tokenOut,
    amountIn: leg.amountIn.toString(),
    amountOut: leg.amountOut.toString(),
    amountOutMinimum: leg.amountOutMinimum.toString(),
    deadline,
  };
}

/** The documented extension fields (expected fill time, bridge details, fee breakdown) of a planned bridge route. */
export function describeBridgeRoute(plan: BridgeRoutePlan, deadline: number, tokens: TokenLookup): BridgeQuoteExtension {
  const fillTime = plan.terms.fillTimeSeconds;
  const destination = plan.destinationLeg;
  return {
    expectedFillTimeSeconds: fillTime,
    bridge: {
      protocol: plan.originBridge.protocol,
      name: plan.originBridge.name,
      slug: plan.originBridge.slug,
      asset: plan.asset,
      originSpokePool: plan.originBridge.spokePoolAddress,
      destinationSpokePool: plan.destinationBridge.spokePoolAddress,
      inputToken: plan.deposit.inputToken,
      outputToken: plan.deposit.outputToken,
      inputAmount: plan.deposit.inputAmount.toString(),
      outputAmount: plan.deposit.outputAmount.toString(),
      fillRecipient: plan.deposit.recipient,
      fillDeadlineOffsetSeconds: plan.originBridge.fillDeadlineOffsetSeconds,
      expectedFillTimeSeconds: fillTime,
      originSwap: plan.originSwap ? swapLeg(plan.originSwap, deadline, tokens) : null,
      destinationSwap: destination ? swapLeg(destination, destinationDeadline(deadline, fillTime), tokens) : null,
    },
    fees: {
      bridge: {
        token: plan.deposit.outputToken,
        amount: plan.deposit.feeAmount.toString(),
        feeBps: plan.terms.feeBps,
        fixedFee: plan.terms.fixedFee,
      },
      originSwap: swapFee(plan.originSwap),
      destinationSwap: swapFee(destination),
    },
  };
}

/** The LP fees of a leg in its input token; null without a leg or for a bare wrap (no pool, no fee). */
function swapFee(leg: TradeLegPlan | null): QuoteFee | null {
  return leg && leg.trade.splits.length > 0 ? { token: leg.tokenIn, amount: leg.trade.fees.toString() } : null;
}
