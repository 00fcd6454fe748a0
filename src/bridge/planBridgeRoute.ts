import {
  type Catalog,
  type CatalogBridge,
  type CatalogBridgeAsset,
  type CatalogChain,
  type CatalogToken,
  deploymentId,
  NATIVE_TOKEN_ADDRESS,
} from '../catalog/Catalog.ts';
import { NoPoolStateError, QuoteUnavailableError } from '../errors/BaseError.ts';
import { defaultLimits, type RequestedLimits } from '../routing/RoutingLimits.ts';
import { minimumAmountOut } from '../routing/slippageLimits.ts';
import type { Trade } from '../routing/Trade.ts';
import { findBestTrade, type TradeFinder } from '../routing/TradeFinder.ts';
import { tradeEnds } from '../routing/tradeEnds.ts';
import { wrapTrade } from '../routing/wrapTrade.ts';
import { type BridgeFeeTerms, bridgeOutputAmount, resolveBridgeFeeTerms } from './bridgeFee.ts';

/** A trade leg of a bridge route (origin: before the deposit; destination: after the fill). */
export interface TradeLegPlan {
  readonly chain: CatalogChain;
  /** The routed swap (any hops and splits), or the bare wrap of the native asset a fill delivered (no splits). */
  readonly trade: Trade;
  readonly tokenIn: CatalogToken;
  readonly tokenOut: CatalogToken;
  readonly amountIn: bigint;
  readonly amountOut: bigint;
  readonly amountOutMinimum: bigint;
  readonly recipient: string;
}

/** The deposit of a bridge route. */
export interface DepositPlan {
  /** What the wallet hands the SpokePool: the asset's ERC-20, or the native asset (sent as value). */
  readonly inputToken: CatalogToken;
  /** The destination chain's ERC-20 the relayer pays (the wrapped native token pays native to an EOA). */
  readonly outputToken: CatalogToken;
  /** What the fill recipient receives: outputToken, or the destination's native asset for a wrapped-native fill. */
  readonly receivedToken: CatalogToken;
  readonly inputAmount: bigint;
  readonly outputAmount: bigint;
  /** Input scaled to the output's decimals (rounded down) minus outputAmount. */
  readonly feeAmount: bigint;
  /** Receives the fill: the final recipient, or the wallet when a destination leg follows. */
  readonly recipient: string;
}

/** One fully priced bridge route for a quote request. */
export interface BridgeRoutePlan {
  readonly originChain: CatalogChain;
  readonly destinationChain: CatalogChain;
  readonly asset: string;
  readonly originBridge: CatalogBridge;
  readonly destinationBridge: CatalogBridge;
  readonly terms: BridgeFeeTerms;
  readonly originSwap: TradeLegPlan | null;
  readonly deposit: DepositPlan;
  readonly destinationLeg: TradeLegPlan | null;
  /** Expected output of tokenOut to the recipient. */
  readonly amountOut: bigint;
  /** Guaranteed output: amountOut without a destination swap (the fill is exact), else that swap's minimum. */
  readonly amountOutMinimum: bigint;
}

/** A cross-chain request as the planner reads it (a validated quote request is one). */
export interface BridgeRequest {
  readonly originChain: CatalogChain;
  readonly destinationChain: CatalogChain;
  readonly tokenIn: CatalogToken;
  readonly tokenOut: CatalogToken;
  /** tokenIn's amount in smallest units (a bridge route fixes its input). */
  readonly amount: bigint;
  readonly slippageBps: number;
  readonly recipientAddress: string;
  readonly walletAddress: string;
  /** Routing limits of the origin swap; the destination swap searches every DEX of its chain at the defaults. */
  readonly limits: RequestedLimits;
}

/** What {@link planBridgeRoute} needs. */
export interface PlanBridgeRouteDeps {
  readonly catalog: Catalog;
  /** Prices the swap legs (the pricer). */
  readonly tradeFinder: TradeFinder;
}

/** A bridge and asset that both chains list. */
interface Corridor {
  readonly originBridge: CatalogBridge;
  readonly destinationBridge: CatalogBridge;
  readonly originAsset: CatalogBridgeAsset;
  readonly destinationAsset: CatalogBridgeAsset;
}

/** Every (bridge, asset) listed by both chains (same bridge slug, protocol and network), by bridge slug then asset key. */
export function bridgeCorridors(origin: CatalogChain, destination: CatalogChain): Corridor[] {
  const corridors: Corridor[] = [];
  for (const originBridge of origin.bridges) {
    const destinationBridge = destination.bridges.find(
      (b) => b.slug === originBridge.slug && b.protocol === originBridge.protocol && b.network === originBridge.network,
    );
    if (!destinationBridge) continue;
    for (const originAsset of originBridge.assets) {
      const destinationAsset = destinationBridge.assets.find((a) => a.asset === originAsset.asset);
      if (destinationAsset) corridors.push({ originBridge, destinationBridge, originAsset, destinationAsset });
    }
  }
  return corridors;
}

const REFUSAL_PREFIX = 'quote unavailable: ';

/** A route that cannot be planned for this corridor, with the reason. */
class CorridorRefusal extends Error {
  constructor(
    readonly code: QuoteUnavailableError['code'],
    message: string,
  ) {
    super(message);
  }
}

/**
 * Plans the best bridge route from `request.tokenIn` on the origin chain to `request.tokenOut` on the destination
 * chain: for every asset a common bridge carries between the two chains, the origin leg (the token itself, or
 * the best origin swap into the asset whose `amountOutMinimum` becomes the deposit), the deposit (fee model of
 * src/bridge/bridgeFee.ts), and the destination leg (nothing, a wrap, or the best destination swap for exactly
 * the bridged amount); the plan with the largest expected output wins (ties: first by bridge slug, asset key).
 * Throws QuoteUnavailableError (400) when no bridge connects the chains or no asset yields a route, NoPoolStateError
 * when every asset needs a swap on a chain without pool state.
 */
export async function planBridgeRoute(request: BridgeRequest, deps: PlanBridgeRouteDeps): Promise<BridgeRoutePlan> {
  const origin = request.originChain;
  const destination = request.destinationChain;
  const corridors = bridgeCorridors(origin, destination);
  if (corridors.length === 0) {
    throw new QuoteUnavailableError(
      'NO_ROUTE',
      `quote unavailable: no bridge connects ${origin.slug} (${origin.chainId}) to ${destination.slug} (${destination.chainId})`,
    );
  }
  const outcomes = await Promise.all(
    corridors.map(async (corridor) => {
      try {
        return { corridor, plan: await planCorridor(request, corridor, deps) };
      } catch (error) {
        if (error instanceof CorridorRefusal) return { corridor, refusal: error };
        if (error instanceof NoPoolStateError)
          return {
            corridor,
            refusal: new CorridorRefusal(error.code, error.message.replace(REFUSAL_PREFIX, '')),
            noPoolState: error.chains,
          };
        if (error instanceof QuoteUnavailableError)
          return { corridor, refusal: new CorridorRefusal(error.code, error.message.replace(REFUSAL_PREFIX, '')) };
        throw error;
      }
    }),
  );
  let best: BridgeRoutePlan | undefined;
  for (const outcome of outcomes) {
    if (outcome.plan && (!best || outcome.plan.amountOut > best.amountOut)) best = outcome.plan;
  }
  if (best) return best;
  // Every asset needs a swap on a chain without pool state: say that once, not once per asset.
  if (outcomes.every((o) => o.noPoolState)) {
    const chains = [origin, destination].filter((c) => outcomes.some((o) => o.noPoolState!.some((n) => n.chainId === c.chainId)));
    throw new NoPoolStateError(chains);
  }
  const refusals = outcomes.map((o) => ({
    asset: o.corridor.originAsset.asset,
    bridge: o.corridor.originBridge.name,
    refusal: o.refusal!,
  }));
  const codes = new Set(refusals.map((r) => r.refusal.code));
  const code = codes.size === 1 ? [...codes][0] : 'NO_ROUTE';
  const reasons = refusals.map((r) => `via ${r.bridge} ${r.asset}: ${r.refusal.message}`).join('; ');
  throw new QuoteUnavailableError(
    code,
    `quote unavailable: no bridge route from ${request.tokenIn.symbol} on ${origin.slug} to ${request.tokenOut.symbol} on ${destination.slug} (${reasons})`,
  );
}

/** The token a catalogue chain lists at an address, or a refusal naming it. */
function tokenOf(catalog: Catalog, chain: CatalogChain, address: string): CatalogToken {
  const token = catalog.token(chain.chainId, address);
  if (!token) throw new CorridorRefusal('NO_ROUTE', `${address} is not a catalogue token of ${chain.slug}`);
  return token;
}

async function planCorridor(request: BridgeRequest, corridor: Corridor, deps: PlanBridgeRouteDeps): Promise<BridgeRoutePlan> {
  const { catalog } = deps;
  const origin = request.originChain;
  const destination = request.destinationChain;
  const { originBridge, destinationBridge, originAsset, destinationAsset } = corridor;
  const asset = originAsset.asset;
  const depositToken = tokenOf(catalog, origin, originAsset.token);
  const outputToken = tokenOf(catalog, destination, destinationAsset.token);
  const originNativeIsAsset = originAsset.token === origin.wrappedNativeToken;
  const destinationNativeIsAsset = destinationAsset.token === destination.wrappedNativeToken;

  // Destination: which leg, if any, follows the fill. Decided first: it fixes the fill's recipient.
  const tokenOut = request.tokenOut;
  const deliveredDirectly =
    (tokenOut.address === destinationAsset.token && !destinationNativeIsAsset) ||
    (tokenOut.address === NATIVE_TOKEN_ADDRESS && destinationNativeIsAsset);
  // A wrapped-native fill reaches an externally owned account as the native asset (SpokePool unwraps it).
  const received = destinationNativeIsAsset ? tokenOf(catalog, destination, NATIVE_TOKEN_ADDRESS) : outputToken;
  const fillRecipient = deliveredDirectly ? request.recipientAddress : request.walletAddress;

  // Origin: the token itself, or the best swap into the asset; the deposit is the swap's guaranteed minimum.
  let originSwap: TradeLegPlan | null = null;
  let depositInput: CatalogToken;
  let inputAmount: bigint;
  if (request.tokenIn.address === originAsset.token || (request.tokenIn.address === NATIVE_TOKEN_ADDRESS && originNativeIsAsset)) {
    depositInput = request.tokenIn;
    inputAmount = request.amount;
  } else {
    const swap = { tokenIn: request.tokenIn, tokenOut: depositToken, tradeType: 'exactIn', amount: request.amount } as const;
    const trade = await findBestTrade(deps.tradeFinder, origin, swap, request.limits);
    const amountOutMinimum = minimumAmountOut(trade.amountOut, request.slippageBps);
    if (amountOutMinimum === 0n)
      throw new CorridorRefusal('AMOUNT_TOO_SMALL', `the swap into ${depositToken.symbol} on ${origin.slug} guarantees nothing to bridge`);
    originSwap = {
      chain: origin,
      trade,
      tokenIn: request.tokenIn,
      tokenOut: depositToken,
      amountIn: request.amount,
      amountOut: trade.amountOut,
      amountOutMinimum,
      recipient: request.walletAddress,
    };
    depositInput = depositToken;
    inputAmount = amountOutMinimum;
  }

  const terms = resolveBridgeFeeTerms(originBridge, originAsset, destination.chainId);
  const bridged = bridgeOutputAmount({
    inputAmount,
    inputDecimals: depositToken.decimals,
    outputDecimals: outputToken.decimals,
    terms,
    asset,
  });
  if (!bridged.ok) throw new CorridorRefusal(bridged.code, `${bridged.reason} from ${origin.slug} to ${destination.slug}`);
  const deposit: DepositPlan = {
    inputToken: depositInput,
    outputToken,
    receivedToken: received,
    inputAmount,
    outputAmount: bridged.outputAmount,
    feeAmount: bridged.feeAmount,
    recipient: fillRecipient,
  };

  let destinationLeg: TradeLegPlan | null = null;
  let amountOut = bridged.outputAmount;
  let amountOutMinimum = bridged.outputAmount;
  if (!deliveredDirectly) {
    const ends = tradeEnds(destination.wrappedNativeToken.toLowerCase(), received.address.toLowerCase(), tokenOut.address.toLowerCase());
    // The native asset a fill paid, to its wrapped token: the bare wrap trade, 1:1 (nothing to slip; the bridge
    // reports no gas figures for its legs, so it is priced at no gas price).
    const trade = ends.bareWrap
      ? wrapTrade({
          tokenIn: received.address.toLowerCase(),
          tokenOut: tokenOut.address.toLowerCase(),
          nativeIn: ends.nativeIn,
          tradeType: 'exactIn',
          amount: bridged.outputAmount,
          gasPriceWei: 0n,
        })
      : await findBestTrade(
          deps.tradeFinder,
          destination,
          { tokenIn: received, tokenOut, tradeType: 'exactIn', amount: bridged.outputAmount },
          defaultLimits(destination.dexes.map((d) => deploymentId(d.slug, d.version))),
        );
    amountOut = trade.amountOut;
    amountOutMinimum = ends.bareWrap ? amountOut : minimumAmountOut(amountOut, request.slippageBps);
    destinationLeg = {
      chain: destination,
      trade,
      tokenIn: received,
      tokenOut,
      amountIn: bridged.outputAmount,
      amountOut,
      amountOutMinimum,
      recipient: request.recipientAddress,
    };
  }
  return {
    originChain: origin,
    destinationChain: destination,
    asset,
    originBridge,
    destinationBridge,
    terms,
    originSwap,
    deposit,
    destinationLeg,
    amountOut,
    amountOutMinimum,
  };
}
