import { randomUUID } from 'node:crypto';
import type { RouteSummary } from '../routing/describeTrade.ts';
import { checksumAddress } from '../tx/checksumAddress.ts';
import { displayAmount, type Step } from '../tx/Step.ts';
import type { SlippageSource } from './autoSlippage.ts';
import type { Quote, SavedQuote } from './Quote.ts';
import { type QuoteContext, snapshotInfo } from './quoteContext.ts';
import { quoteChanges } from './quoteLifecycle.ts';
import type { PermitData } from './quotePermit2.ts';
import type { QuoteRequest } from './quoteRequest.ts';
import { type QuotedSwap, quoteWarnings } from './quoteWarnings.ts';

/** A priced route with its steps (sameChainQuote, crossChainQuote): what saveQuote builds the Quote around. */
export interface PricedQuote {
  slippage: { slippageBps: number; slippageSource: SlippageSource };
  amountIn: bigint;
  amountInMaximum: bigint;
  amountOut: bigint;
  amountOutMinimum: bigint;
  pairAddress: string;
  route: RouteSummary;
  steps: Step[];
  /**
   * The quote's extension fields as JSON text, without the enclosing braces: a same-chain trade's view
   * (DescribedQuote.view, written where the trade was found), a bridge route's description. Written after `snapshot`.
   */
  extension: string;
  /** The quote's swaps, for its warnings. */
  swaps: readonly QuotedSwap[];
  /** Why the request's sender allowances were not read (warning ALLOWANCE_NOT_READ). */
  allowanceUnread?: string;
  /** approvalMode "permit2": the permit to sign, and the swap held back until it is signed (saved beside the quote). */
  permitData?: PermitData;
  heldSwap?: Step;
}

/** The ISO 8601 text of each second lately formatted, up to its milliseconds' point ("2026-11-27T16:45:03."). */
const secondTexts = new Map<number, string>();

/**
 * `new Date(ms).toISOString()` (createdAt, expiresAt), the date and time of day formatted once per second (Date's
 * formatting costs over a microsecond a call on Node 20); times outside years 1970-9999 or not whole milliseconds
 * are Date's.
 */
export function isoTime(ms: number): string {
  if (!Number.isSafeInteger(ms) || ms < 0 || ms >= 253_402_300_800_000) return new Date(ms).toISOString();
  const second = Math.floor(ms / 1000);
  let text = secondTexts.get(second);
  if (text === undefined) {
    if (secondTexts.size >= 64) secondTexts.clear();
    text = new Date(second * 1000).toISOString().slice(0, 20);
    secondTexts.set(second, text);
  }
  const millis = ms - second * 1000;
  return `${text}${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}Z`;
}

/**
 * A quote's JSON text with its extension fields (JSON text, PricedQuote.extension) after `snapshot`, where the Quote
 * lists them: the text of JSON.stringify of the quote with those fields in it.
 */
function quoteJson(quote: Quote, extension: string): string {
  const { warnings, refreshedFrom, changes, simulation, ...head } = quote;
  const tail = JSON.stringify({ warnings, refreshedFrom, changes, simulation });
  return `${JSON.stringify(head).slice(0, -1)}${extension === '' ? '' : `,${extension}`},${tail.slice(1)}`;
}

/** Who asked, when, and which quote is refreshed: the rest of what a saved quote holds beside its priced route. */
export interface QuoteOrigin {
  readonly request: QuoteRequest;
  readonly orgId: string;
  /** Milliseconds since the epoch: createdAt. */
  readonly createdMs: number;
  /** Seconds since the epoch: the steps' deadline. */
  readonly deadline: number;
  /** POST /quotes/{id}/refresh: the quote refreshed. */
  readonly previous?: Quote;
}

/**
 * Builds the Quote (SPEC section 2) around a priced route, simulates its steps when the request asks, and saves it;
 * throws 503 if it cannot be saved (QuoteStore.save).
 */
export async function saveQuote(ctx: QuoteContext, origin: QuoteOrigin, priced: PricedQuote): Promise<SavedQuote> {
  const { request, orgId, createdMs, deadline, previous } = origin;
  const created = isoTime(createdMs);
  const quote: Quote = {
    quoteId: randomUUID(),
    status: 'pending',
    tradeType: request.tradeType,
    amountIn: priced.amountIn.toString(),
    amountInFloat: displayAmount(priced.amountIn, request.tokenIn),
    amountInMaximum: priced.amountInMaximum.toString(),
    amountOut: priced.amountOut.toString(),
    amountOutFloat: displayAmount(priced.amountOut, request.tokenOut),
    amountOutMinimum: priced.amountOutMinimum.toString(),
    ...priced.slippage,
    deadline,
    expiresAt: isoTime(deadline * 1000),
    originChain: request.originChain.slug,
    originChainId: request.originChain.chainId,
    destinationChain: request.destinationChain.slug,
    destinationChainId: request.destinationChain.chainId,
    tokenIn: request.tokenIn,
    tokenOut: request.tokenOut,
    recipientAddress: request.recipientAddress,
    walletAddress: request.walletAddress,
    pairAddress: priced.pairAddress,
    hash: '',
    explorerUrl: '',
    createdAt: created,
    updatedAt: created,
    route: priced.route,
    steps: priced.steps,
    ...(priced.permitData ? { permitData: priced.permitData } : {}),
    snapshot: snapshotInfo(ctx, request.originChain.chainId),
    warnings: quoteWarnings({
      swaps: priced.swaps,
      allowanceUnread: priced.allowanceUnread,
      refresh: previous && {
        previous,
        amountIn: priced.amountIn,
        amountOut: priced.amountOut,
        tokenIn: request.tokenIn,
        tokenOut: request.tokenOut,
      },
    }),
  };
  if (previous) {
    // The network fee compared is among the extension fields (a same-chain trade's view).
    const fresh = { ...quote, ...(JSON.parse(`{${priced.extension}}`) as Partial<Quote>) };
    Object.assign(quote, { refreshedFrom: previous.quoteId, changes: quoteChanges(previous, fresh) });
  }
  if (request.simulate && request.sender) {
    // The steps as built, run before the quote is answered; a step that succeeded takes its gasLimit from the run.
    const simulation = await ctx.simulator.simulate(quote, checksumAddress(request.sender));
    quote.steps = quote.steps.map((step, i) => {
      const limit = simulation.steps[i].gasLimit;
      return limit === null ? step : { ...step, gasLimit: limit };
    });
    quote.simulation = simulation;
  }
  const json = await ctx.store.save({
    orgId,
    quote: quote as unknown as Record<string, unknown>,
    json: quoteJson(quote, priced.extension),
    request: request.body as unknown as Record<string, unknown>,
    ...(priced.heldSwap ? { permit2Swap: priced.heldSwap as unknown as Record<string, unknown> } : {}),
  });
  return { quote, json };
}
