import { randomUUID } from 'node:crypto';
import { formatUnits } from 'viem';
import { buildBridgeRouteSteps } from '../bridge/buildBridgeRouteSteps.ts';
import { describeBridgeRoute, type QuoteBridgeDetails, type QuoteFeeBreakdown } from '../bridge/describeBridgeRoute.ts';
import { planBridgeRoute } from '../bridge/planBridgeRoute.ts';
import { type Catalog, type CatalogChain, type CatalogToken, NATIVE_TOKEN_ADDRESS } from '../catalog/Catalog.ts';
import { ChainClients } from '../chain/chainClients.ts';
import { NotFoundError, ServiceUnavailableError, ValidationError } from '../errors/BaseError.ts';
import type { PoolGraph } from '../graph/PoolGraph.ts';
import type { TradeType } from '../protocols/PoolProtocol.ts';
import { compareNetOfGas } from '../routing/compareNetOfGas.ts';
import { describeTrade, type RouteSummary, type TradeView } from '../routing/describeTrade.ts';
import { slippageLimits } from '../routing/slippageLimits.ts';
import type { Trade } from '../routing/Trade.ts';
import { findBestTrade, type TradeFinder, tradeRefusal, tradeSearch } from '../routing/TradeFinder.ts';
import type { QuoteStore } from '../store/quoteStore.ts';
import type { Permit2Allowance } from '../tx/approveStep.ts';
import { buildTradeSteps } from '../tx/buildTradeSteps.ts';
import { checksumAddress } from '../tx/checksumAddress.ts';
import { permit2Of } from '../tx/executorSteps.ts';
import type { Step } from '../tx/Step.ts';
import { chosenSlippage, type SlippageSource } from './autoSlippage.ts';
import type { Pricer } from './Pricer.ts';
import { AllowanceReader, readStepAllowances } from './quoteAllowances.ts';
import { type QuoteChanges, type QuoteStatus, quoteAsOf, quoteChanges } from './quoteLifecycle.ts';
import { type PermitData, permit2Swap, quotePermit } from './quotePermit2.ts';
import type { QuoteRequest } from './quoteRequest.ts';
import { type QuoteSimulation, QuoteSimulator } from './quoteSimulation.ts';
import { priceImpactRefusal, type QuotedSwap, type QuoteWarning, quoteWarnings } from './quoteWarnings.ts';

/** Seconds a quote stays valid (SPEC section 8). */
export const QUOTE_VALIDITY_SECONDS = 300;

/** Freshness of the pool state a price came from (extension field). */
export interface SnapshotInfo {
  blockNumber: number;
  blockTimestamp: number;
  ageSeconds: number;
}

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

/** The saved quote (SPEC section 2, Quote) plus the routing extensions and the snapshot it was priced on. */
export interface Quote extends Partial<Omit<TradeView, 'route' | 'pairAddress'>> {
  quoteId: string;
  /** "pending" until `deadline`, "expired" from then on (GET /quotes/{id} answers as of the time asked). */
  status: QuoteStatus;
  tradeType: TradeType;
  amountIn: string;
  amountInFloat: string;
  amountInMaximum: string;
  amountOut: string;
  amountOutFloat: string;
  amountOutMinimum: string;
  slippageBps: number;
  slippageSource: SlippageSource;
  deadline: number;
  /** `deadline` as ISO 8601: the calldata deadline, after which the steps revert and the quote is "expired". */
  expiresAt: string;
  originChain: string;
  originChainId: number;
  destinationChain: string;
  destinationChainId: number;
  tokenIn: CatalogToken;
  tokenOut: CatalogToken;
  recipientAddress: string;
  walletAddress: string;
  pairAddress: string;
  hash: string;
  explorerUrl: string;
  createdAt: string;
  updatedAt: string;
  route: RouteSummary;
  steps: Step[];
  snapshot: SnapshotInfo | null;
  /** Cross-chain quotes only (extension): expected seconds from the deposit to the fill. */
  expectedFillTimeSeconds?: number;
  /** Cross-chain quotes only (extension): the bridge transfer and the swap legs around it. */
  bridge?: QuoteBridgeDetails;
  /** Cross-chain quotes only (extension): bridge fee and swap fees. */
  fees?: QuoteFeeBreakdown;
  /** What a client should show beside the quote (empty when nothing). */
  warnings: QuoteWarning[];
  /** Quotes made by POST /quotes/{id}/refresh only: the quote refreshed. */
  refreshedFrom?: string;
  /** Quotes made by POST /quotes/{id}/refresh only: this quote's amounts less the refreshed quote's. */
  changes?: QuoteChanges;
  /** Requests with `simulate: true` only: the steps run from `sender` before the quote was answered. */
  simulation?: QuoteSimulation;
  /**
   * approvalMode "permit2" only: the PermitSingle the sender signs (EIP-712 typed data); `steps` then end before the
   * swap, which POST /quotes/{quoteId}/swap returns with the signature.
   */
  permitData?: PermitData;
}

/** POST /quotes/{quoteId}/swap: the swap step of a permit2 quote, its signed permit first. */
export interface QuoteSwap {
  quoteId: string;
  steps: Step[];
}

export interface QuoteServiceDeps {
  readonly catalog: Catalog;
  /** The pool state being served (the snapshot block a price came from). */
  readonly graph: () => PoolGraph;
  /** Finds trades on that state (createPricer), for same-chain quotes and a bridge route's swap legs. */
  readonly pricer: Pricer;
  readonly store: QuoteStore;
  /** Reads a request's `sender` allowances (RPC_URL_<chainId>); without it no chain can be read. */
  readonly allowances?: AllowanceReader;
  /** Simulates quotes' steps (RPC_URL_<chainId>); without it no chain can be simulated on. */
  readonly simulator?: QuoteSimulator;
  /** Milliseconds since the epoch. */
  readonly now?: () => number;
}

/** A swap leg of a bridge route, named for messages: before the bridge (origin) or after it (destination). */
function bridgeSwap(trade: Trade, origin: boolean, chain: CatalogChain): QuotedSwap {
  return { trade, where: `the swap ${origin ? 'before' : 'after'} the bridge (${chain.slug})` };
}

/**
 * Why a request with approvalMode "permit2" cannot be answered for this trade, or undefined ("approve", the default,
 * always can; "permit2" can for an ERC-20 tokenIn on Universal Router routes). Only the Universal Router pulls
 * through Permit2 and a native tokenIn needs no approval at all: "permit2" is then refused with a 400 naming the
 * reason, never silently answered with approve steps.
 */
export function permit2Refusal(request: QuoteRequest, trade: Trade): ValidationError | undefined {
  if (request.approvalMode !== 'permit2') return undefined;
  if (request.tokenIn.address.toLowerCase() === NATIVE_TOKEN_ADDRESS.toLowerCase())
    return new ValidationError(
      `approvalMode: "permit2" needs an ERC-20 tokenIn; ${request.tokenIn.symbol} is the native asset, sent as the swap's value without any approval: leave approvalMode out`,
    );
  const others = [
    ...new Set(
      trade.splits
        .map((s) => s.route.executor)
        .filter((e) => e.kind !== 'UniversalRouter')
        .map((e) => e.name),
    ),
  ];
  if (others.length > 0)
    return new ValidationError(
      `approvalMode: "permit2" applies to Universal Router routes only; this quote's route runs through ${others.join(', ')}, which takes a plain approval: request approvalMode "approve"`,
    );
  return undefined;
}

/** The Universal Routers (lower case) a trade's routes run through, in the order of their first split. */
function universalRouters(trade: Trade): string[] {
  return [...new Set(trade.splits.filter((s) => s.route.executor.kind === 'UniversalRouter').map((s) => s.route.executor.address))];
}

/** A saved quote and its JSON text as saved (the response sends the same text: the quote is serialized once). */
export interface SavedQuote {
  readonly quote: Quote;
  readonly json: string;
}

/** Turns validated requests into priced routes and saved quotes. */
export class QuoteService {
  private readonly now: () => number;
  private readonly allowances: AllowanceReader;
  private readonly simulator: QuoteSimulator;

  constructor(private readonly deps: QuoteServiceDeps) {
    this.now = deps.now ?? Date.now;
    this.allowances = deps.allowances ?? new AllowanceReader(new ChainClients(new Map()));
    this.simulator = deps.simulator ?? new QuoteSimulator(new ChainClients(new Map()));
  }

  /**
   * The best trade per DEX deployment, best first net of the network fee (POST /quotes/routes, `rankedBy` netOfGas,
   * compareNetOfGas): exactIn by amountOut minus the fee in tokenOut descending, exactOut by amountIn plus the fee in
   * tokenIn ascending, the order in which POST /quotes picks its trade. Trades whose price impact exceeds the
   * request's maxPriceImpactBps are left out; when that leaves none, the least impact's refusal is thrown. Nothing is
   * saved.
   */
  async routes(request: QuoteRequest): Promise<RouteQuote[]> {
    this.requireSameChain(request, 'POST /quotes/routes prices same-chain swaps only: originChainId and destinationChainId must be equal');
    if (request.simulate) throw new ValidationError('simulate: POST /quotes/routes returns no steps to simulate; use POST /quotes');
    const deadline = Math.floor(this.now() / 1000) + QUOTE_VALIDITY_SECONDS;
    const chain = request.originChain;
    const snapshot = this.snapshotInfo(chain.chainId);
    const outcomes = await this.deps.pricer.findTrades(tradeSearch(chain, request, request.limits, true));
    const found = outcomes.flatMap((o) => (o.outcome.ok ? [o.outcome.trade] : []));
    if (found.length === 0)
      throw tradeRefusal(
        outcomes.map((o) => o.outcome),
        chain,
        request,
        request.limits.maxHops,
      );
    const trades = found.filter((trade) => !priceImpactRefusal({ trade }, request.maxPriceImpactBps));
    if (trades.length === 0) {
      const least = found.reduce((a, b) => (b.priceImpactBps < a.priceImpactBps ? b : a));
      throw priceImpactRefusal({ trade: least }, request.maxPriceImpactBps)!;
    }
    trades.sort(compareNetOfGas);
    const token = this.token(chain);
    return trades.map((trade) => {
      const { slippageBps, slippageSource } = chosenSlippage(request.slippageBps, trade);
      const { amountInMaximum, amountOutMinimum } = slippageLimits(trade, slippageBps);
      const view = describeTrade(chain, trade, token, amountOutMinimum);
      // Field order is the response's (README examples, recorded responses): amounts, deadline, tokens, the trade view.
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
  }

  /**
   * Prices the best trade overall, builds its steps and saves the quote (POST /quotes); different chains get a bridge
   * route. With `previous` (POST /quotes/{id}/refresh) the new quote names it and its changes from it.
   */
  async create(request: QuoteRequest, orgId: string, previous?: Quote): Promise<SavedQuote> {
    if (request.originChain.chainId !== request.destinationChain.chainId) return this.createCrossChain(request, orgId, previous);
    const createdMs = this.now();
    const deadline = Math.floor(createdMs / 1000) + QUOTE_VALIDITY_SECONDS;
    const chain = request.originChain;
    const permitMode = request.approvalMode === 'permit2';
    // The approval mode prices the trade's Permit2 allowance as its steps give it (gasModel.callGas `permit`).
    const trade = await findBestTrade(this.deps.pricer, chain, request, { ...request.limits, approvalMode: request.approvalMode });
    const tooHigh = priceImpactRefusal({ trade }, request.maxPriceImpactBps);
    if (tooHigh) throw tooHigh;
    const permitRefusal = permit2Refusal(request, trade);
    if (permitRefusal) throw permitRefusal;
    // parseQuoteRequest requires a sender with "permit2"; the permit's nonce is read on chain.
    if (permitMode && !this.allowances.canRead(chain.chainId))
      throw new ValidationError(
        `approvalMode: "permit2" needs an RPC URL for chain ${chain.chainId} (RPC_URL_${chain.chainId}) to read the sender's Permit2 nonce`,
      );
    const slippage = chosenSlippage(request.slippageBps, trade);
    const { amountInMaximum, amountOutMinimum } = slippageLimits(trade, slippage.slippageBps);
    const { route, pairAddress, ...view } = describeTrade(chain, trade, this.token(chain), amountOutMinimum);
    const build = (allowances?: ReadonlyMap<string, bigint>, permit2Allowances?: ReadonlyMap<string, Permit2Allowance>) =>
      buildTradeSteps({
        chain,
        trade,
        tokenIn: request.tokenIn,
        tokenOut: request.tokenOut,
        amountOutMinimum,
        ...(trade.tradeType === 'exactOut' ? { amountInMaximum } : {}),
        recipient: request.recipientAddress,
        wallet: request.walletAddress,
        deadline,
        allowances,
        approvalMode: request.approvalMode,
        permit2Allowances,
      });
    let steps = build();
    // With a sender, the approvals of the steps built without allowances are read (the ERC-20 allowance of each
    // spender; through a Universal Router also Permit2's allowance of it, with the nonce a permit takes) and the steps
    // built again with them.
    const spenders = steps.flatMap((s) => (s.spender ? [s.spender] : []));
    const viaPermit2 = universalRouters(trade);
    const erc20In = request.tokenIn.address.toLowerCase() !== NATIVE_TOKEN_ADDRESS.toLowerCase();
    let allowanceUnread: string | undefined;
    let permit2Read: ReadonlyMap<string, Permit2Allowance> | undefined;
    if (request.sender && erc20In && (spenders.length > 0 || viaPermit2.length > 0)) {
      // One Permit2 per chain's Universal Router deployment (catalogue permit2Address).
      const permit2 = viaPermit2.length > 0 ? permit2Of(chain, viaPermit2[0]) : undefined;
      const [read, p2] = await Promise.all([
        spenders.length > 0 ? this.allowances.read(chain.chainId, request.tokenIn.address, request.sender, spenders) : undefined,
        permit2 ? this.allowances.readPermit2(chain.chainId, permit2, request.tokenIn.address, request.sender, viaPermit2) : undefined,
      ]);
      if (read && 'unread' in read) allowanceUnread = read.unread;
      if (p2 && 'unread' in p2) allowanceUnread ??= p2.unread;
      else if (p2) permit2Read = p2.allowances;
      steps = build(read && 'allowances' in read ? read.allowances : undefined, permit2Read);
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
        amount: trade.tradeType === 'exactOut' ? amountInMaximum : trade.amountIn,
        deadline,
        nonce,
      });
      heldSwap = steps[steps.length - 1];
      steps = steps.slice(0, -1);
    }
    return this.save(request, orgId, createdMs, deadline, previous, {
      permitData,
      heldSwap,
      allowanceUnread,
      slippage,
      amountIn: trade.amountIn,
      amountInMaximum,
      amountOut: trade.amountOut,
      amountOutMinimum,
      pairAddress,
      route,
      steps,
      extension: view,
      swaps: [{ trade }],
    });
  }

  /**
   * A saved quote of the organization as of now (quoteAsOf: "expired" from its deadline on); 404 when unknown, gone
   * from the store, or another organization's.
   */
  async get(quoteId: string, orgId: string): Promise<Quote> {
    return quoteAsOf((await this.stored(quoteId, orgId)).quote, this.now());
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
    return this.simulator.simulate(quoteAsOf(quote, this.now()), checksumAddress(sender));
  }

  /**
   * POST /quotes/{id}/swap: the swap step of a quote made with approvalMode "permit2", the sender's signature of its
   * permitData put in it (quotePermit2.permit2Swap); every refusal is a 400 before any calldata is built.
   */
  async swap(quoteId: string, orgId: string, body: unknown): Promise<QuoteSwap> {
    const { quote, permit2Swap: held } = await this.stored(quoteId, orgId);
    const step = await permit2Swap(quote, held as unknown as Step | undefined, body, this.now());
    return { quoteId: quote.quoteId, steps: [step] };
  }

  private async stored(
    quoteId: string,
    orgId: string,
  ): Promise<{ quote: Quote; request?: Record<string, unknown>; permit2Swap?: Record<string, unknown> }> {
    const saved = await this.deps.store.get(quoteId);
    if (!saved || saved.orgId !== orgId) throw new NotFoundError(`quote ${quoteId} not found`);
    return { quote: saved.quote as unknown as Quote, request: saved.request, permit2Swap: saved.permit2Swap };
  }

  /**
   * A bridge route (src/bridge/planBridgeRoute.ts): origin swap and Across deposit on the origin chain, then an
   * optional wrap or swap on the destination chain; steps carry their chainId. Saved like a same-chain quote.
   */
  private async createCrossChain(request: QuoteRequest, orgId: string, previous: Quote | undefined): Promise<SavedQuote> {
    const createdMs = this.now();
    const deadline = Math.floor(createdMs / 1000) + QUOTE_VALIDITY_SECONDS;
    // parseQuoteRequest refuses "auto" across chains: a bridge route's slippage is the request's (or the default).
    if (request.slippageBps === 'auto') throw new ValidationError('slippageBps: "auto" is same-chain only');
    const slippage = { slippageBps: request.slippageBps, slippageSource: 'request' } as const;
    const plan = await planBridgeRoute(
      { ...request, slippageBps: slippage.slippageBps },
      { catalog: this.deps.catalog, tradeFinder: this.bridgeTradeFinder(request) },
    );
    const build = (allowances?: ReadonlyMap<string, bigint>) =>
      buildBridgeRouteSteps({ plan, wallet: request.walletAddress, deadline, allowances });
    let steps = build();
    // With a sender, the allowances the approvals give (on both chains) are read and the steps built again with them.
    let allowanceUnread: string | undefined;
    if (request.sender && steps.some((s) => s.spender)) {
      const read = await readStepAllowances(this.allowances, request.sender, steps);
      steps = build(read.allowances);
      allowanceUnread = read.unread;
    }
    const extension = describeBridgeRoute(plan, deadline, (chainId) => this.token(this.deps.catalog.chain(chainId)!));
    const bridge = plan.originBridge;
    return this.save(request, orgId, createdMs, deadline, previous, {
      slippage,
      amountIn: request.amount,
      amountInMaximum: request.amount,
      amountOut: plan.amountOut,
      amountOutMinimum: plan.amountOutMinimum,
      pairAddress: bridge.spokePoolAddress,
      route: { dex: bridge.slug, name: bridge.name, fees: plan.deposit.feeAmount.toString(), logo: bridge.logo, version: '', poolFee: 0 },
      steps,
      extension,
      allowanceUnread,
      swaps: [plan.originSwap, plan.destinationLeg].flatMap((leg) =>
        leg && leg.trade.splits.length > 0 ? [bridgeSwap(leg.trade, leg === plan.originSwap, leg.chain)] : [],
      ),
    });
  }

  /** Builds the Quote (SPEC section 2) around a priced route and saves it; throws 503 if it cannot be saved. */
  private async save(
    request: QuoteRequest,
    orgId: string,
    createdMs: number,
    deadline: number,
    previous: Quote | undefined,
    priced: {
      slippage: { slippageBps: number; slippageSource: SlippageSource };
      amountIn: bigint;
      amountInMaximum: bigint;
      amountOut: bigint;
      amountOutMinimum: bigint;
      pairAddress: string;
      route: RouteSummary;
      steps: Step[];
      extension?: object;
      /** The quote's swaps, for its warnings. */
      swaps: readonly QuotedSwap[];
      /** Why the request's sender allowances were not read (warning ALLOWANCE_NOT_READ). */
      allowanceUnread?: string;
      /** approvalMode "permit2": the permit to sign, and the swap held back until it is signed (saved beside the quote). */
      permitData?: PermitData;
      heldSwap?: Step;
    },
  ): Promise<SavedQuote> {
    const created = new Date(createdMs).toISOString();
    const quote: Quote = {
      quoteId: randomUUID(),
      status: 'pending',
      tradeType: request.tradeType,
      amountIn: priced.amountIn.toString(),
      amountInFloat: formatUnits(priced.amountIn, request.tokenIn.decimals),
      amountInMaximum: priced.amountInMaximum.toString(),
      amountOut: priced.amountOut.toString(),
      amountOutFloat: formatUnits(priced.amountOut, request.tokenOut.decimals),
      amountOutMinimum: priced.amountOutMinimum.toString(),
      ...priced.slippage,
      deadline,
      expiresAt: new Date(deadline * 1000).toISOString(),
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
      snapshot: this.snapshotInfo(request.originChain.chainId),
      ...priced.extension,
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
    if (previous) Object.assign(quote, { refreshedFrom: previous.quoteId, changes: quoteChanges(previous, quote) });
    if (request.simulate && request.sender) {
      // The steps as built, run before the quote is answered; a step that succeeded takes its gasLimit from the run.
      const simulation = await this.simulator.simulate(quote, checksumAddress(request.sender));
      quote.steps = quote.steps.map((step, i) => {
        const limit = simulation.steps[i].gasLimit;
        return limit === null ? step : { ...step, gasLimit: limit };
      });
      quote.simulation = simulation;
    }
    const json = await this.deps.store.save({
      orgId,
      quote: quote as unknown as Record<string, unknown>,
      request: request.body as unknown as Record<string, unknown>,
      ...(priced.heldSwap ? { permit2Swap: priced.heldSwap as unknown as Record<string, unknown> } : {}),
    });
    return { quote, json };
  }

  private requireSameChain(request: QuoteRequest, message: string): void {
    if (request.originChain.chainId !== request.destinationChain.chainId) throw new ValidationError(message);
  }

  private snapshotInfo(chainId: number): SnapshotInfo | null {
    const snapshot = this.deps.graph().snapshot(chainId);
    if (!snapshot) return null;
    return {
      blockNumber: snapshot.blockNumber,
      blockTimestamp: snapshot.blockTimestamp,
      ageSeconds: Math.max(0, Math.floor(this.now() / 1000) - snapshot.blockTimestamp),
    };
  }

  /** A chain's token by lower-case address (trades name tokens by their lower-case addresses). */
  /**
   * The pricer as the bridge planner's trade finder for one request: a swap leg above the request's
   * maxPriceImpactBps refuses its corridor (another corridor may still serve), named by where it runs.
   */
  private bridgeTradeFinder(request: QuoteRequest): TradeFinder {
    return {
      findTrades: async (search) => {
        const results = await this.deps.pricer.findTrades(search);
        const chain = this.deps.catalog.chain(search.chainId)!;
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

  private token(chain: CatalogChain): (address: string) => CatalogToken {
    return (address) => this.deps.catalog.token(chain.chainId, address)!;
  }
}
