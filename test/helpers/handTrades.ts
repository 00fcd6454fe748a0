// Trades built by hand from a catalogue chain, for step-building tests: legs named by token symbols and DEX,
// routes with the executor of the chain the test names, trades with the splits' sums.
import { type CatalogChain, type CatalogToken, NATIVE_TOKEN_ADDRESS } from '../../src/catalog/Catalog.ts';
import type { TradeType } from '../../src/protocols/PoolProtocol.ts';
import type { ProtocolKind } from '../../src/protocols/registry.ts';
import { chainExecutors } from '../../src/routing/executors.ts';
import { routeGas } from '../../src/routing/gasModel.ts';
import type { Executor, ExecutorKind, Leg, Route, Trade } from '../../src/routing/Trade.ts';

/** A catalogue token of the chain by symbol. */
export function tokenOf(chain: CatalogChain, symbol: string): CatalogToken {
  const token = chain.tokens.find((t) => t.symbol === symbol);
  if (!token) throw new Error(`${chain.slug} has no token ${symbol}`);
  return token;
}

/** One hop: `dex` is 'slug/version' ('uniswap/v3'). */
export interface HandLeg {
  readonly dex: string;
  readonly fee?: number;
  readonly from: string;
  readonly to: string;
  readonly amountIn: bigint;
  readonly amountOut: bigint;
  readonly ticksCrossed?: number;
  /** Pool slots the swap writes from zero (default 0: a warm pool). */
  readonly coldSlots?: number;
  /** The swap moves the pool's tick (default: true for v3). */
  readonly movesTick?: boolean;
  /** Pool address (any address will do for step building). */
  readonly pool?: string;
}

/** A priced leg of the chain from symbols. */
export function legOf(chain: CatalogChain, h: HandLeg): Leg {
  const address = (symbol: string): string => tokenOf(chain, symbol).address.toLowerCase();
  const [slug, version] = h.dex.split('/') as [string, string];
  const kind: ProtocolKind = version === 'v2' ? 'uniswapV2' : version === 'v4' ? 'uniswapV4' : 'uniswapV3';
  const fee = h.fee ?? (version === 'v2' ? 3000 : 500);
  return {
    pool: h.pool ?? '0x000000000000000000000000000000000000dEaD',
    kind,
    dex: slug,
    version,
    fee,
    tokenIn: address(h.from),
    tokenOut: address(h.to),
    amountIn: h.amountIn,
    amountOut: h.amountOut,
    ticksCrossed: h.ticksCrossed ?? 0,
    coldSlots: h.coldSlots ?? 0,
    movesTick: h.movesTick ?? version === 'v3',
  };
}

/** The chain's executor of a kind (a Router02: the one of the DEX slug named). */
export function executorOf(chain: CatalogChain, kind: ExecutorKind, slug?: string): Executor {
  const found = chainExecutors(chain).find(
    (e) => e.kind === kind && (slug === undefined || e.deployments.has(`${slug}/v2`) || e.deployments.has(`${slug}/v3`)),
  );
  if (!found) throw new Error(`${chain.slug} has no ${kind}${slug ? ` for ${slug}` : ''}`);
  return { kind: found.kind, address: found.address, name: found.name };
}

/** A route through legs, executed by `executor`. */
export function routeOf(chain: CatalogChain, executor: Executor, legs: readonly HandLeg[], tradeType: TradeType = 'exactIn'): Route {
  const built = legs.map((l) => legOf(chain, l));
  return {
    legs: built,
    amountIn: built[0].amountIn,
    amountOut: built[built.length - 1].amountOut,
    executor,
    gas: routeGas(built, tradeType),
  };
}

/** Which ends of a hand trade are the native asset (its routes then start or end at the wrapped native token). */
export interface HandNativeEnds {
  readonly in?: boolean;
  readonly out?: boolean;
}

/**
 * A trade of routes (largest first, as bestTrade orders them), exact input by default; percents are not used by step
 * building. `native`: the ends that are the native asset, wrapped before the first pool or unwrapped after the last.
 */
export function tradeOf(routes: readonly Route[], tradeType: TradeType = 'exactIn', native: HandNativeEnds = {}): Trade {
  const first = routes[0].legs[0];
  const last = routes[0].legs[routes[0].legs.length - 1];
  const amountIn = routes.reduce((s, r) => s + r.amountIn, 0n);
  return {
    tradeType,
    tokenIn: native.in ? NATIVE_TOKEN_ADDRESS.toLowerCase() : first.tokenIn,
    tokenOut: native.out ? NATIVE_TOKEN_ADDRESS.toLowerCase() : last.tokenOut,
    nativeIn: native.in ? 'wrapped' : 'none',
    nativeOut: native.out ? 'wrapped' : 'none',
    amountIn,
    amountOut: routes.reduce((s, r) => s + r.amountOut, 0n),
    splits: routes.map((route) => ({ percent: Number((route.amountIn * 100n) / amountIn), route })),
    gasEstimate: 0n,
    gasPriceWei: 0n,
    gasCost: { tokenIn: null, tokenOut: null },
    priceImpactBps: 0,
    fees: 0n,
  };
}
