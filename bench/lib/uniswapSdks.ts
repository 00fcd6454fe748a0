/**
 * The Uniswap SDKs as the benchmarks use them (oracles and competitors): loaded with createRequire because they
 * do not import as native ES modules on Node 20 (/work/shared/NOTES-perf.md), typed here with only what we call.
 */
import { createRequire } from 'node:module';
import type { SnapshotPoolV2, SnapshotPoolV3 } from '../../src/graph/snapshot.ts';

const require = createRequire(import.meta.url);

/** A JSBI integer (the SDKs' big integers). */
export interface Jsbi {
  toString(): string;
}
export interface SdkToken {
  readonly address: string;
  readonly decimals: number;
}
export interface SdkCurrencyAmount {
  readonly quotient: Jsbi;
  readonly currency: SdkToken;
}
export interface SdkV3Pool {
  readonly token0: SdkToken;
  readonly token1: SdkToken;
  getOutputAmount(amount: SdkCurrencyAmount): Promise<[SdkCurrencyAmount, SdkV3Pool]>;
  getInputAmount(amount: SdkCurrencyAmount): Promise<[SdkCurrencyAmount, SdkV3Pool]>;
}
export interface SdkV2Pair {
  readonly token0: SdkToken;
  readonly token1: SdkToken;
  getOutputAmount(amount: SdkCurrencyAmount): [SdkCurrencyAmount, SdkV2Pair];
}
/** A trade of either SDK: its route's pools and tokens in order (v3: pools, tokenPath; v2: pairs, path), and the output. */
export interface SdkTrade<P> {
  readonly outputAmount: SdkCurrencyAmount;
  readonly route: { readonly pools?: readonly P[]; readonly tokenPath?: readonly SdkToken[]; readonly pairs?: readonly P[]; readonly path?: readonly SdkToken[] };
}
/** Options of both SDKs' Trade.bestTradeExactIn. */
export interface BestTradeOptions {
  readonly maxNumResults?: number;
  readonly maxHops?: number;
}

export const sdkCore = require('@uniswap/sdk-core') as {
  Token: new (chainId: number, address: string, decimals: number) => SdkToken;
  CurrencyAmount: { fromRawAmount(token: SdkToken, raw: string): SdkCurrencyAmount };
};
export const v3Sdk = require('@uniswap/v3-sdk') as {
  Pool: new (a: SdkToken, b: SdkToken, fee: number, sqrtRatioX96: string, liquidity: string, tick: number, ticks: unknown) => SdkV3Pool;
  TickListDataProvider: new (ticks: { index: number; liquidityNet: string; liquidityGross: string }[], tickSpacing: number) => unknown;
  Trade: { bestTradeExactIn(pools: readonly SdkV3Pool[], amountIn: SdkCurrencyAmount, tokenOut: SdkToken, options?: BestTradeOptions): Promise<SdkTrade<SdkV3Pool>[]> };
};
export const v2Sdk = require('@uniswap/v2-sdk') as {
  Pair: new (a: SdkCurrencyAmount, b: SdkCurrencyAmount) => SdkV2Pair;
  Trade: { bestTradeExactIn(pairs: readonly SdkV2Pair[], amountIn: SdkCurrencyAmount, tokenOut: SdkToken, options?: BestTradeOptions): SdkTrade<SdkV2Pair>[] };
};

/** A raw amount of a token as the SDKs take it. */
export function sdkAmount(token: SdkToken, raw: bigint): SdkCurrencyAmount {
  return sdkCore.CurrencyAmount.fromRawAmount(token, raw.toString());
}

/** An SDK amount as a bigint. */
export function sdkRaw(amount: SdkCurrencyAmount): bigint {
  return BigInt(amount.quotient.toString());
}

/**
 * The v3-sdk Pool of a snapshot pool: its ticks in a TickListDataProvider (liquidityGross is not used by swaps and
 * is given as |liquidityNet|). Undefined when the pool has no initialized tick (the SDK's tick list cannot be empty).
 * token0/token1 are the SDK tokens of the pool's tokens.
 */
export function sdkV3Pool(state: SnapshotPoolV3, token0: SdkToken, token1: SdkToken): SdkV3Pool | undefined {
  if (state.ticks.length === 0) return undefined;
  const ticks = state.ticks.map(([index, net]) => ({ index, liquidityNet: net, liquidityGross: (BigInt(net) < 0n ? -BigInt(net) : BigInt(net)).toString() }));
  return new v3Sdk.Pool(token0, token1, state.fee, state.sqrtPriceX96, state.liquidity, state.tick, new v3Sdk.TickListDataProvider(ticks, state.tickSpacing));
}

/** The v2-sdk Pair of a snapshot pair (the SDK's fee is Uniswap v2's 0.3%). */
export function sdkV2Pair(state: SnapshotPoolV2, token0: SdkToken, token1: SdkToken): SdkV2Pair {
  return new v2Sdk.Pair(sdkAmount(token0, BigInt(state.reserve0)), sdkAmount(token1, BigInt(state.reserve1)));
}
