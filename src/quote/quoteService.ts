import { randomUUID } from 'node:crypto';
import { formatUnits } from 'viem';
import { buildBridgeRouteSteps } from '../bridge/buildBridgeRouteSteps.ts';
import { describeBridgeRoute, type QuoteBridgeDetails, type QuoteFeeBreakdown } from '../bridge/describeBridgeRoute.ts';
import { planBridgeRoute, type BestSwap } from '../bridge/planBridgeRoute.ts';
import { NATIVE_TOKEN_ADDRESS, type Catalog, type CatalogChain, type CatalogDex, type CatalogToken } from '../catalog/loadCatalog.ts';
import { QuoteUnavailableError, ValidationError } from '../errors/BaseError.ts';
import type { PoolGraph } from '../graph/PoolGraph.ts';
import type { QuoteStore } from '../store/quoteStore.ts';
import { buildSwapSteps } from '../tx/buildSwapSteps.ts';
import { buildWrapSteps } from '../tx/buildWrapSteps.ts';
import type { Step } from '../tx/Step.ts';
import type { PoolPricing } from './priceSwap.ts';
import type { Pricer } from './pricingPool.ts';
import type { QuoteRequest } from './quoteRequest.ts';

/** Seconds a quote stays valid (SPEC section 8). */
export const QUOTE_VALIDITY_SECONDS = 300;

/** SPEC section 2, Route, with two documented extensions: the DEX version and the pool fee in pips. */
export interface Route {
  dex: string;
  name: string;
  /** Fee paid, integer string in tokenIn's smallest units. */
  fees: string;
  logo: string;
  version: string;
  poolFee: number;
}

/** Freshness of the pool state a price came from (extension field). */
export interface SnapshotInfo {
  blockNumber: number;
  blockTimestamp: number;
  ageSeconds: number;
}

/** An element of the POST /quotes/routes response (SPEC section 2, Route quote) plus pairAddress and snapshot. */
export interface RouteQuote {
  amountIn: string;
  amountOut: string;
  amountOutMinimum: string;
  deadline: number;
  slippageBps: number;
  route: Route;
  tokenIn: CatalogToken;
  tokenOut: CatalogToken;
  pairAddress: string;
  snapshot: SnapshotInfo | null;
}

/** The saved quote (SPEC section 2, Quote) plus the snapshot it was priced on. */
export interface Quote {
  quoteId: string;
  status: 'pending';
  amountIn: string;
  amountInFloat: string;
  amountOut: string;
  amountOutFloat: string;
  amountOutMinimum: string;
  slippageBps: number;
  deadline: number;
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
  route: Route;
  steps: Step[];
  snapshot: SnapshotInfo | null;
  /** Cross-chain quotes only (extension): expected seconds from the deposit to the fill. */
  expectedFillTimeSeconds?: number;
  /** Cross-chain quotes only (extension): the bridge transfer and the swap legs around it. */
  bridge?: QuoteBridgeDetails;
  /** Cross-chain quotes only (extension): bridge fee and swap fees. */
  fees?: QuoteFeeBreakdown;
}

export interface QuoteServiceDeps {
  readonly catalog: Catalog;
  readonly graph: () => PoolGraph;
  /** Generation of the graph `graph()` returns; sent to workers so they price on the same snapshots. */
  readonly generation: () => number;
  readonly pricer: Pricer;
  readonly store: QuoteStore;
  /** Milliseconds since the epoch. */
  readonly now?: () => number;
}

/** floor(amountOut x (10000 - slippageBps) / 10000). */
export function minimumAmountOut(amountOut: bigint, slippageBps: number): bigint {
  return (amountOut * BigInt(10_000 - slippageBps)) / 10_000n;
}

interface PricedRoute {
  dex: CatalogDex | undefined;
  pricing: Extract<PoolPricing, { ok: true }>;
}

/** Turns validated requests into priced routes and saved quotes. */
export class QuoteService {
  private readonly now: () => number;

  constructor(private readonly deps: QuoteServiceDeps) {
    this.now = deps.now ?? Date.now;
  }

  /** The best acceptable quote per DEX deployment, best first (POST /quotes/routes). Nothing is saved. */
  async routes(request: QuoteRequest): Promise<RouteQuote[]> {
    this.requireSameChain(request, 'POST /quotes/routes prices same-chain swaps only: originChainId and destinationChainId must be equal');
    const deadline = Math.floor(this.now() / 1000) + QUOTE_VALIDITY_SECONDS;
    const snapshot = this.snapshotInfo(request.originChain.chainId);
    if (this.isWrap(request)) {
      const route = this.wrapRoute(request);
      return [{ ...this.amounts(request, request.amountIn), deadline, route, tokenIn: request.tokenIn, tokenOut: request.tokenOut, pairAddress: request.originChain.wrappedNativeToken, snapshot }];
    }
    const best = await this.bestPerDex(request);
    return best.map(({ dex, pricing }) => ({
      ...this.amounts(request, pricing.amountOut),
      deadline,
      route: this.route(dex, pricing),
      tokenIn: request.tokenIn,
      tokenOut: request.tokenOut,
      pairAddress: pricing.pool,
      snapshot,
    }));
  }

  /** Prices the best route overall, builds its steps and saves the quote (POST /quotes); different chains get a bridge route. */
  async create(request: QuoteRequest, orgId: string): Promise<Quote> {
    if (request.originChain.chainId !== request.destinationChain.chainId) return this.createCrossChain(request, orgId);
    const createdMs = this.now();
    const deadline = Math.floor(createdMs / 1000) + QUOTE_VALIDITY_SECONDS;
    const chain = request.originChain;
    let amountOut: bigint;
    let route: Route;
    let pairAddress: string;
    let steps: Step[];
    if (this.isWrap(request)) {
      amountOut = request.amountIn;
      route = this.wrapRoute(request);
      pairAddress = chain.wrappedNativeToken;
      steps = buildWrapSteps({ chainId: chain.chainId, tokenIn: request.tokenIn, tokenOut: request.tokenOut, wrappedNativeToken: chain.wrappedNativeToken, amount: request.amountIn, recipient: request.recipientAddress, wallet: request.walletAddress });
    } else {
      const [best] = await this.bestPerDex(request);
      amountOut = best.pricing.amountOut;
      route = this.route(best.dex, best.pricing);
      pairAddress = best.pricing.pool;
      steps = buildSwapSteps({
        chainId: chain.chainId,
        dex: best.dex!,
        poolFee: best.pricing.fee,
        tokenIn: request.tokenIn,
        tokenOut: request.tokenOut,
        wrappedNativeToken: chain.wrappedNativeToken,
        amountIn: request.amountIn,
        amountOutMinimum: minimumAmountOut(amountOut, request.slippageBps),
        recipient: request.recipientAddress,
        wallet: request.walletAddress,
        deadline,
      });
    }
    return this.save(request, orgId, createdMs, deadline, {
      amountOut,
      amountOutMinimum: minimumAmountOut(amountOut, request.slippageBps),
      pairAddress,
      route,
      steps,
    });
  }

  /**
   * A bridge route (src/bridge/planBridgeRoute.ts): origin swap and Across deposit on the origin chain, then an
   * optional wrap or swap on the destination chain; steps carry their chainId. Saved like a same-chain quote.
   */
  private async createCrossChain(request: QuoteRequest, orgId: string): Promise<Quote> {
    const createdMs = this.now();
    const deadline = Math.floor(createdMs / 1000) + QUOTE_VALIDITY_SECONDS;
    const plan = await planBridgeRoute(request, {
      catalog: this.deps.catalog,
      minimumAmountOut,
      bestSwap: async (chain, tokenIn, tokenOut, amountIn): Promise<BestSwap> => {
        const [best] = await this.bestPerDexOn(chain, tokenIn, tokenOut, amountIn);
        return { dex: best!.dex!, pricing: best!.pricing };
      },
    });
    const steps = buildBridgeRouteSteps({ plan, wallet: request.walletAddress, deadline });
    const extension = describeBridgeRoute(plan, deadline);
    const bridge = plan.originBridge;
    return this.save(request, orgId, createdMs, deadline, {
      amountOut: plan.amountOut,
      amountOutMinimum: plan.amountOutMinimum,
      pairAddress: bridge.spokePoolAddress,
      route: { dex: bridge.slug, name: bridge.name, fees: plan.deposit.feeAmount.toString(), logo: bridge.logo, version: '', poolFee: 0 },
      steps,
      extension,
    });
  }

  /** Builds the Quote (SPEC section 2) around a priced route and saves it; throws 503 if it cannot be saved. */
  private async save(
    request: QuoteRequest,
    orgId: string,
    createdMs: number,
    deadline: number,
    priced: { amountOut: bigint; amountOutMinimum: bigint; pairAddress: string; route: Route; steps: Step[]; extension?: object },
  ): Promise<Quote> {
    const created = new Date(createdMs).toISOString();
    const quote: Quote = {
      quoteId: randomUUID(),
      status: 'pending',
      amountIn: request.amountIn.toString(),
      amountInFloat: formatUnits(request.amountIn, request.tokenIn.decimals),
      amountOut: priced.amountOut.toString(),
      amountOutFloat: formatUnits(priced.amountOut, request.tokenOut.decimals),
      amountOutMinimum: priced.amountOutMinimum.toString(),
      slippageBps: request.slippageBps,
      deadline,
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
      snapshot: this.snapshotInfo(request.originChain.chainId),
      ...priced.extension,
    };
    await this.deps.store.save({ orgId, quote: quote as unknown as Record<string, unknown> });
    return quote;
  }

  private requireSameChain(request: QuoteRequest, message: string): void {
    if (request.originChain.chainId !== request.destinationChain.chainId) throw new ValidationError(message);
  }

  private amounts(request: QuoteRequest, amountOut: bigint) {
    return {
      amountIn: request.amountIn.toString(),
      amountOut: amountOut.toString(),
      amountOutMinimum: minimumAmountOut(amountOut, request.slippageBps).toString(),
      slippageBps: request.slippageBps,
    };
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

  private isWrap(request: QuoteRequest): boolean {
    const wrapped = request.originChain.wrappedNativeToken;
    const a = request.tokenIn.address;
    const b = request.tokenOut.address;
    return (a === NATIVE_TOKEN_ADDRESS && b === wrapped) || (a === wrapped && b === NATIVE_TOKEN_ADDRESS);
  }

  private wrapRoute(request: QuoteRequest): Route {
    const wrapped = request.tokenIn.address === NATIVE_TOKEN_ADDRESS ? request.tokenOut : request.tokenIn;
    return { dex: 'wrap', name: `${wrapped.symbol} ${request.tokenIn.address === NATIVE_TOKEN_ADDRESS ? 'wrap' : 'unwrap'}`, fees: '0', logo: wrapped.logo, version: '', poolFee: 0 };
  }

  private route(dex: CatalogDex | undefined, pricing: Extract<PoolPricing, { ok: true }>): Route {
    return { dex: pricing.dex, name: dex?.name ?? pricing.dex, fees: pricing.feeAmount.toString(), logo: dex?.logo ?? '', version: pricing.version, poolFee: pricing.fee };
  }

  /** Prices every pool of the request's pair and keeps the best per DEX deployment, best first. */
  private async bestPerDex(request: QuoteRequest): Promise<PricedRoute[]> {
    return this.bestPerDexOn(request.originChain, request.tokenIn, request.tokenOut, request.amountIn);
  }

  /** Prices every pool of a pair on one chain and keeps the best per DEX deployment, best first. */
  private async bestPerDexOn(chain: CatalogChain, tokenIn: CatalogToken, tokenOut: CatalogToken, amountIn: bigint): Promise<PricedRoute[]> {
    const pairIn = effective(chain, tokenIn.address);
    const pairOut = effective(chain, tokenOut.address);
    if (this.deps.graph().poolsForPair(chain.chainId, pairIn, pairOut).length === 0) {
      throw new QuoteUnavailableError('NO_POOL', `quote unavailable: no pool for ${tokenIn.symbol}/${tokenOut.symbol} on ${chain.slug}`);
    }
    const pricings = await this.deps.pricer.price({ chainId: chain.chainId, tokenIn: pairIn, tokenOut: pairOut, amountIn, generation: this.deps.generation() });
    const best = new Map<string, PricedRoute>();
    for (const pricing of pricings) {
      if (!pricing.ok) continue;
      const key = `${pricing.dex}/${pricing.version}`;
      const current = best.get(key);
      if (!current || pricing.amountOut > current.pricing.amountOut || (pricing.amountOut === current.pricing.amountOut && pricing.pool < current.pricing.pool)) {
        best.set(key, { dex: chain.dexes.find((d) => d.slug === pricing.dex && d.version === pricing.version), pricing });
      }
    }
    if (best.size === 0) {
      const small = pricings.every((p) => !p.ok && p.code === 'AMOUNT_TOO_SMALL');
      throw small
        ? new QuoteUnavailableError('AMOUNT_TOO_SMALL', `quote unavailable: ${formatUnits(amountIn, tokenIn.decimals)} ${tokenIn.symbol} is too small to swap on any pool`)
        : new QuoteUnavailableError('INSUFFICIENT_LIQUIDITY', `quote unavailable: no pool for ${tokenIn.symbol}/${tokenOut.symbol} on ${chain.slug} has the liquidity to swap this amount`);
    }
    return [...best.values()].sort((a, b) => (a.pricing.amountOut > b.pricing.amountOut ? -1 : a.pricing.amountOut < b.pricing.amountOut ? 1 : a.pricing.pool < b.pricing.pool ? -1 : 1));
  }
}

/** The address that trades in pools: the wrapped native token stands in for the native asset. */
function effective(chain: CatalogChain, address: string): string {
  return address === NATIVE_TOKEN_ADDRESS ? chain.wrappedNativeToken : address;
}
