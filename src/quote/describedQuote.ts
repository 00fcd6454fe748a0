import type { Catalog, CatalogChain, DeploymentId } from '../catalog/Catalog.ts';
import { chainTokenLookup } from '../catalog/chainTokenLookup.ts';
import type { RefusalCode } from '../errors/RefusalCode.ts';
import type { DeploymentTrade } from '../routing/bestTradesByDeployment.ts';
import { describeTrade, type RouteSummary } from '../routing/describeTrade.ts';
import { slippageLimits } from '../routing/slippageLimits.ts';
import type { Trade } from '../routing/Trade.ts';
import { type TradeSearch, tradeSearch } from '../routing/TradeFinder.ts';
import type { Permit2Allowance } from '../tx/approveStep.ts';
import { buildTradeSteps, type TradeStepsParams } from '../tx/buildTradeSteps.ts';
import type { Step } from '../tx/Step.ts';
import { chosenSlippage, type SlippageSource } from './autoSlippage.ts';
import type { QuoteRequest } from './quoteRequest.ts';
import { type EncodedTrades, encodeTrades } from './tradeCodec.ts';

/** What a trade's steps are built for: the request's tokens (as served), recipient, wallet and approval mode. */
export type StepsRequest = Pick<QuoteRequest, 'tokenIn' | 'tokenOut' | 'recipientAddress' | 'walletAddress' | 'approvalMode'>;

/** The request's fields a POST /quotes search carries to where its trade is found (describedQuotes). */
export interface QuoteFields extends StepsRequest {
  /** The request's slippageBps (a number, or "auto": autoSlippage.ts). */
  readonly slippageBps: number | 'auto';
  /** The steps' deadline, seconds since the epoch. */
  readonly deadline: number;
  /**
   * Whether the answer carries the trade itself (DescribedQuote.trade): with a sender, whose allowances the API
   * thread reads and, when read, builds the steps again with (sameChainQuote).
   */
  readonly withTrade: boolean;
}

/** A POST /quotes search: the best trade over all deployments, described and its steps built where it is found. */
export interface QuoteSearch extends TradeSearch {
  readonly quote: QuoteFields;
}

/**
 * The POST /quotes search for a request whose steps run until `deadline` (seconds since the epoch): the best trade
 * over all the request's deployments, priced with its approval mode (gasModel.callGas `permit`), and the request's
 * fields its steps are built from; the trade itself comes back with a sender only.
 */
export function quoteSearch(request: QuoteRequest, deadline: number): QuoteSearch {
  const { slippageBps, tokenIn, tokenOut, recipientAddress, walletAddress, approvalMode } = request;
  return {
    ...tradeSearch(request.originChain, request, { ...request.limits, approvalMode }, false),
    quote: {
      slippageBps,
      tokenIn,
      tokenOut,
      recipientAddress,
      walletAddress,
      approvalMode,
      deadline,
      withTrade: request.sender !== undefined,
    },
  };
}

/**
 * The best trade of POST /quotes as the thread that found it describes it: its amounts, slippage and limits, its view
 * (describeTrade; its paths, gas and fee as JSON text) and its steps built without allowances (buildTradeSteps). A worker answers this instead of the trade,
 * so the API thread neither rebuilds the trade nor describes it nor builds its steps; it keeps the refusals, the
 * sender's allowance reads (and, when read, the steps built again on them from `trade`), the permit, saving and the
 * answer (bench/HISTORY.md, issue 24, quotesteps).
 */
export interface DescribedQuote extends Pick<Trade, 'tradeType' | 'amountIn' | 'amountOut' | 'priceImpactBps'> {
  readonly slippage: { readonly slippageBps: number; readonly slippageSource: SlippageSource };
  readonly amountInMaximum: bigint;
  readonly amountOutMinimum: bigint;
  readonly route: RouteSummary;
  readonly pairAddress: string;
  /**
   * The rest of the trade's TradeView as JSON text, without the enclosing braces (`"paths":[…],…,"priceImpactBps":N`):
   * the quote's extension fields as saveQuote writes them (PricedQuote.extension).
   */
  readonly view: string;
  /** The steps without allowances: what the quote answers when none were read. */
  readonly steps: Step[];
  /** The trade in its flat form (tradeCodec: one outcome), when the search asked for it (QuoteFields.withTrade). */
  readonly trade?: EncodedTrades;
}

/** The outcome of a POST /quotes search (bestTradesByDeployment's one, with its trade described). */
export interface DeploymentQuote {
  readonly deployment: DeploymentId | '';
  readonly outcome: { readonly ok: true; readonly quote: DescribedQuote } | { readonly ok: false; readonly code: RefusalCode };
}

/**
 * What a request's steps are built from (buildTradeSteps): its trade, the slippage limits, its tokens, recipient,
 * wallet and approval mode, the deadline and, with a sender, the allowances read.
 */
export function tradeStepsParams(
  chain: CatalogChain,
  request: StepsRequest,
  trade: Trade,
  limits: { amountInMaximum: bigint; amountOutMinimum: bigint },
  deadline: number,
  allowances?: ReadonlyMap<string, bigint>,
  permit2Allowances?: ReadonlyMap<string, Permit2Allowance>,
): TradeStepsParams {
  return {
    chain,
    trade,
    tokenIn: request.tokenIn,
    tokenOut: request.tokenOut,
    amountOutMinimum: limits.amountOutMinimum,
    ...(trade.tradeType === 'exactOut' ? { amountInMaximum: limits.amountInMaximum } : {}),
    recipient: request.recipientAddress,
    wallet: request.walletAddress,
    deadline,
    allowances,
    approvalMode: request.approvalMode,
    permit2Allowances,
  };
}

/**
 * A POST /quotes search's outcomes on `chain` (the chain as served: the one its trades were routed on), each trade
 * described (DescribedQuote): the same code in a worker and in the API thread.
 */
export function describedQuotes(
  catalog: Catalog,
  chain: CatalogChain,
  search: QuoteSearch,
  trades: readonly DeploymentTrade[],
): DeploymentQuote[] {
  const fields = search.quote;
  return trades.map((found): DeploymentQuote => {
    const { deployment, outcome } = found;
    if (!outcome.ok) return { deployment, outcome };
    const trade = outcome.trade;
    const slippage = chosenSlippage(fields.slippageBps, trade);
    const limits = slippageLimits(trade, slippage.slippageBps);
    const { route, pairAddress, ...view } = describeTrade(chain, trade, chainTokenLookup(catalog, chain), limits.amountOutMinimum);
    const quote: DescribedQuote = {
      tradeType: trade.tradeType,
      amountIn: trade.amountIn,
      amountOut: trade.amountOut,
      priceImpactBps: trade.priceImpactBps,
      slippage,
      amountInMaximum: limits.amountInMaximum,
      amountOutMinimum: limits.amountOutMinimum,
      route,
      pairAddress,
      view: JSON.stringify(view).slice(1, -1),
      steps: buildTradeSteps(tradeStepsParams(chain, fields, trade, limits, fields.deadline)),
      ...(fields.withTrade ? { trade: encodeTrades([found]) } : {}),
    };
    return { deployment, outcome: { ok: true, quote } };
  });
}
