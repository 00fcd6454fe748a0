import { NotFoundError, ValidationError } from '../errors/BaseError.ts';
import { checksumAddress } from '../tx/checksumAddress.ts';
import type { Step } from '../tx/Step.ts';
import { crossChainQuote } from './crossChainQuote.ts';
import { QUOTE_VALIDITY_SECONDS, type Quote, type QuoteSwap, type SavedQuote } from './Quote.ts';
import { type QuoteContext, type QuoteServiceDeps, quoteContext } from './quoteContext.ts';
import { quoteAsOf } from './quoteLifecycle.ts';
import { permit2Swap } from './quotePermit2.ts';
import type { QuoteRequest } from './quoteRequest.ts';
import type { QuoteSimulation } from './quoteSimulation.ts';
import { routeQuotes } from './routeQuotes.ts';
import { sameChainQuote } from './sameChainQuote.ts';
import { saveQuote } from './saveQuote.ts';

/**
 * Turns validated requests into priced routes (routeQuotes) and saved quotes: same chain (sameChainQuote) or across
 * chains (crossChainQuote), built and saved by saveQuote; then reads, refreshes, simulates and completes them.
 */
export class QuoteService {
  private readonly ctx: QuoteContext;

  constructor(deps: QuoteServiceDeps) {
    this.ctx = quoteContext(deps);
  }

  /**
   * POST /quotes/routes: the best trade per DEX deployment, best first net of the network fee, as the JSON text of
   * RouteQuote[] (routeQuotes).
   */
  routes(request: QuoteRequest): Promise<string> {
    return routeQuotes(this.ctx, request);
  }

  /**
   * Prices the best trade overall, builds its steps and saves the quote (POST /quotes); different chains get a bridge
   * route. With `previous` (POST /quotes/{id}/refresh) the new quote names it and its changes from it.
   */
  async create(request: QuoteRequest, orgId: string, previous?: Quote): Promise<SavedQuote> {
    const createdMs = this.ctx.now();
    const deadline = Math.floor(createdMs / 1000) + QUOTE_VALIDITY_SECONDS;
    const priced =
      request.originChain.chainId === request.destinationChain.chainId
        ? await sameChainQuote(this.ctx, request, deadline)
        : await crossChainQuote(this.ctx, request, deadline);
    return saveQuote(this.ctx, { request, orgId, createdMs, deadline, previous }, priced);
  }

  /**
   * A saved quote of the organization as of now (quoteAsOf: "expired" from its deadline on); 404 when unknown, gone
   * from the store, or another organization's.
   */
  async get(quoteId: string, orgId: string): Promise<Quote> {
    return quoteAsOf((await this.stored(quoteId, orgId)).quote, this.ctx.now());
  }

  /**
   * POST /quotes/{id}/refresh: the saved request priced again on the state served now (`parse` validates it as
   * POST /quotes does, against today's catalogue and token facts), saved as a new quote naming the old one
   * (refreshedFrom), with its changes and PRICE_MOVED when the old quote's transaction would now revert. Expired
   * quotes can be refreshed: that is what refreshing is for.
   */
  async refresh(quoteId: string, orgId: string, parse: (body: unknown) => QuoteRequest): Promise<SavedQuote> {
    const { quote, request } = await this.stored(quoteId, orgId);
    if (!request) throw new ValidationError(`quote ${quoteId} was saved without its request and cannot be refreshed: request a new quote`);
    return this.create(parse(request), orgId, quote);
  }

  /**
   * POST /quotes/{id}/simulate: the saved quote's steps run from its request's `sender` at the chain's latest block
   * (QuoteSimulator). A quote requested without a sender is refused: the steps are the sender's.
   */
  async simulate(quoteId: string, orgId: string): Promise<QuoteSimulation> {
    const { quote, request } = await this.stored(quoteId, orgId);
    const sender = typeof request?.sender === 'string' ? request.sender : undefined;
    if (!sender)
      throw new ValidationError(
        `quote ${quoteId} was requested without a sender: simulation runs the steps from it; request a quote with sender`,
      );
    return this.ctx.simulator.simulate(quoteAsOf(quote, this.ctx.now()), checksumAddress(sender));
  }

  /**
   * POST /quotes/{id}/swap: the swap step of a quote made with approvalMode "permit2", the sender's signature of its
   * permitData put in it (quotePermit2.permit2Swap); every refusal is a 400 before any calldata is built.
   */
  async swap(quoteId: string, orgId: string, body: unknown): Promise<QuoteSwap> {
    const { quote, permit2Swap: held } = await this.stored(quoteId, orgId);
    const step = await permit2Swap(quote, held as unknown as Step | undefined, body, this.ctx.now());
    return { quoteId: quote.quoteId, steps: [step] };
  }

  private async stored(
    quoteId: string,
    orgId: string,
  ): Promise<{ quote: Quote; request?: Record<string, unknown>; permit2Swap?: Record<string, unknown> }> {
    const saved = await this.ctx.store.get(quoteId);
    if (!saved || saved.orgId !== orgId) throw new NotFoundError(`quote ${quoteId} not found`);
    return { quote: saved.quote as unknown as Quote, request: saved.request, permit2Swap: saved.permit2Swap };
  }
}
