import { NATIVE_TOKEN_ADDRESS } from '../catalog/Catalog.ts';
import { ServiceUnavailableError, ValidationError } from '../errors/BaseError.ts';
import type { Trade } from '../routing/Trade.ts';
import { tradeRefusal } from '../routing/TradeFinder.ts';
import type { Permit2Allowance } from '../tx/approveStep.ts';
import { buildTradeSteps } from '../tx/buildTradeSteps.ts';
import { checksumAddress } from '../tx/checksumAddress.ts';
import { permit2Of } from '../tx/executorSteps.ts';
import type { Step } from '../tx/Step.ts';
import { type DescribedQuote, quoteSearch, tradeStepsParams } from './describedQuote.ts';
import type { Pricer } from './Pricer.ts';
import { permit2Refusal } from './permit2Refusal.ts';
import type { QuoteContext } from './quoteContext.ts';
import { type PermitData, quotePermit } from './quotePermit2.ts';
import type { QuoteRequest } from './quoteRequest.ts';
import { priceImpactRefusal } from './quoteWarnings.ts';
import type { PricedQuote } from './saveQuote.ts';
import { decodeTrades } from './tradeCodec.ts';

/** The Universal Routers (lower case) a trade's routes run through, in the order of their first split. */
function universalRouters(trade: Trade): string[] {
  return [...new Set(trade.splits.filter((s) => s.route.executor.kind === 'UniversalRouter').map((s) => s.route.executor.address))];
}

/**
 * The best trade over all the request's deployments, described and its steps built without allowances where it was
 * found (Pricer.findQuote: a worker, or this thread for a cheap search); throws QuoteUnavailableError (tradeRefusal)
 * when there is none. The trade itself comes along only with a sender (its allowances may be read and the steps
 * built again on them).
 */
async function bestQuote(pricer: Pricer, request: QuoteRequest, deadline: number): Promise<DescribedQuote> {
  const [result] = await pricer.findQuote(quoteSearch(request, deadline));
  if (!result?.outcome.ok) throw tradeRefusal(result ? [result.outcome] : [], request.originChain, request, request.limits.maxHops);
  return result.outcome.quote;
}

/**
 * The best trade overall on the request's chain, with its steps (to `deadline`, seconds since the epoch): with a
 * sender, built on the allowances read; with approvalMode "permit2", the permit to sign and the swap held back.
 */
export async function sameChainQuote(ctx: QuoteContext, request: QuoteRequest, deadline: number): Promise<PricedQuote> {
  const chain = request.originChain;
  const permitMode = request.approvalMode === 'permit2';
  const found = await bestQuote(ctx.pricer, request, deadline);
  const tooHigh = priceImpactRefusal({ trade: found }, request.maxPriceImpactBps);
  if (tooHigh) throw tooHigh;
  // With a sender only (bestQuote), which parseQuoteRequest requires with "permit2".
  const trade: Trade | undefined = found.trade && (decodeTrades(found.trade)[0].outcome as { trade: Trade }).trade;
  const permitRefusal = trade && permit2Refusal(request, trade);
  if (permitRefusal) throw permitRefusal;
  // The permit's nonce is read on chain.
  if (permitMode && !ctx.allowances.canRead(chain.chainId))
    throw new ValidationError(
      `approvalMode: "permit2" needs an RPC URL for chain ${chain.chainId} (RPC_URL_${chain.chainId}) to read the sender's Permit2 nonce`,
    );
  const { slippage, amountInMaximum, amountOutMinimum } = found;
  let steps = found.steps;
  // With a sender, the approvals of the steps built without allowances are read (the ERC-20 allowance of each
  // spender; through a Universal Router also Permit2's allowance of it, with the nonce a permit takes) and the steps
  // built again with them.
  const spenders = steps.flatMap((s) => (s.spender ? [s.spender] : []));
  const viaPermit2 = trade ? universalRouters(trade) : [];
  const erc20In = request.tokenIn.address.toLowerCase() !== NATIVE_TOKEN_ADDRESS.toLowerCase();
  let allowanceUnread: string | undefined;
  let permit2Read: ReadonlyMap<string, Permit2Allowance> | undefined;
  if (request.sender && trade && erc20In && (spenders.length > 0 || viaPermit2.length > 0)) {
    // One Permit2 per chain's Universal Router deployment (catalogue permit2Address).
    const permit2 = viaPermit2.length > 0 ? permit2Of(chain, viaPermit2[0]) : undefined;
    const [read, p2] = await Promise.all([
      spenders.length > 0 ? ctx.allowances.read(chain.chainId, request.tokenIn.address, request.sender, spenders) : undefined,
      permit2 ? ctx.allowances.readPermit2(chain.chainId, permit2, request.tokenIn.address, request.sender, viaPermit2) : undefined,
    ]);
    if (read && 'unread' in read) allowanceUnread = read.unread;
    if (p2 && 'unread' in p2) allowanceUnread ??= p2.unread;
    else if (p2) permit2Read = p2.allowances;
    const allowances = read && 'allowances' in read ? read.allowances : undefined;
    // Nothing read (no RPC URL, or the node did not answer): the steps built above are already the ones to keep.
    if (allowances || permit2Read)
      steps = buildTradeSteps(
        tradeStepsParams(chain, request, trade, { amountInMaximum, amountOutMinimum }, deadline, allowances, permit2Read),
      );
  }
  let permitData: PermitData | undefined;
  let heldSwap: Step | undefined;
  if (permitMode) {
    // permit2Refusal: every route runs through one Universal Router (one transaction: the last step).
    const router = viaPermit2[0];
    const nonce = permit2Read?.get(router.toLowerCase())?.nonce;
    if (nonce === undefined)
      throw new ServiceUnavailableError(`chain ${chain.chainId} could not be read: the sender's Permit2 nonce is unknown; try again`);
    permitData = quotePermit({
      chainId: chain.chainId,
      permit2: permit2Of(chain, router),
      token: checksumAddress(request.tokenIn.address),
      router: checksumAddress(router),
      amount: found.tradeType === 'exactOut' ? amountInMaximum : found.amountIn,
      deadline,
      nonce,
    });
    heldSwap = steps[steps.length - 1];
    steps = steps.slice(0, -1);
  }
  return {
    permitData,
    heldSwap,
    allowanceUnread,
    slippage,
    amountIn: found.amountIn,
    amountInMaximum,
    amountOut: found.amountOut,
    amountOutMinimum,
    pairAddress: found.pairAddress,
    route: found.route,
    steps,
    extension: found.view,
    swaps: [{ trade: found }],
  };
}
