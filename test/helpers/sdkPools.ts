import { createRequire } from 'node:module';
import type { Snapshot } from '../../src/graph/snapshot.ts';
import type { SnapshotPool } from '../../src/protocols/registry.ts';
import type { SnapshotPoolV2 } from '../../src/protocols/uniswapV2/SnapshotPoolV2.ts';
import type { SnapshotPoolV3 } from '../../src/protocols/uniswapV3/SnapshotPoolV3.ts';

// Test and bench support (not a test): the Uniswap SDKs (oracles and competitors), loaded with createRequire because
// they do not import as native ES modules on Node 20 (/work/shared/NOTES-perf.md) and typed with only what we call;
// a snapshot's pools as @uniswap/v3-sdk Pools and @uniswap/v2-sdk Pairs, the SDKs' own route search as an oracle
// independent of src/routing.
const require = createRequire(import.meta.url);

/** A JSBI integer (the SDKs' big integers). */
export interface Jsbi {
  toString(): string;
}
export interface SdkToken {
  readonly address: string;
  readonly decimals: number;
}
/** An SDK currency amount. */
export interface SdkAmount {
  readonly quotient: Jsbi;
  readonly currency: SdkToken;
}
export interface SdkV3Pool {
  readonly token0: SdkToken;
  readonly token1: SdkToken;
  getOutputAmount(amount: SdkAmount): Promise<[SdkAmount, SdkV3Pool]>;
  getInputAmount(amount: SdkAmount): Promise<[SdkAmount, SdkV3Pool]>;
}
export interface SdkV2Pair {
  readonly token0: SdkToken;
  readonly token1: SdkToken;
  getOutputAmount(amount: SdkAmount): [SdkAmount, SdkV2Pair];
  getInputAmount(amount: SdkAmount): [SdkAmount, SdkV2Pair];
}
/** A trade of either SDK: its route's pools and tokens in order (v3: pools, tokenPath; v2: pairs, path), and the output. */
export interface SdkTrade<P = unknown> {
  readonly inputAmount: SdkAmount;
  readonly outputAmount: SdkAmount;
  readonly route: {
    readonly pools?: readonly P[];
    readonly tokenPath?: readonly SdkToken[];
    readonly pairs?: readonly P[];
    readonly path?: readonly SdkToken[];
  };
}
/** Options of both SDKs' Trade.bestTradeExactIn. */
export interface BestTradeOptions {
  readonly maxNumResults?: number;
  readonly maxHops?: number;
}

export const sdkCore = require('@uniswap/sdk-core') as {
  Token: new (chainId: number, address: string, decimals: number, symbol?: string) => SdkToken;
  CurrencyAmount: { fromRawAmount(token: SdkToken, raw: string): SdkAmount };
};
export const v3Sdk = require('@uniswap/v3-sdk') as {
  Pool: new (a: SdkToken, b: SdkToken, fee: number, sqrtRatioX96: string, liquidity: string, tick: number, ticks: unknown) => SdkV3Pool;
  TickListDataProvider: new (ticks: { index: number; liquidityNet: string; liquidityGross: string }[], tickSpacing: number) => unknown;
  Trade: {
    bestTradeExactIn(
      pools: readonly SdkV3Pool[],
      amountIn: SdkAmount,
      tokenOut: SdkToken,
      options?: BestTradeOptions,
    ): Promise<SdkTrade<SdkV3Pool>[]>;
    bestTradeExactOut(
      pools: readonly SdkV3Pool[],
      tokenIn: SdkToken,
      amountOut: SdkAmount,
      options?: BestTradeOptions,
    ): Promise<SdkTrade<SdkV3Pool>[]>;
  };
};
/** @uniswap/v4-sdk's Pool: v4's swap simulation (the v3-sdk's walk with v4's key), as far as the benchmarks use it. */
export const v4Sdk = require('@uniswap/v4-sdk') as {
  Pool: new (
    currencyA: SdkToken,
    currencyB: SdkToken,
    fee: number,
    tickSpacing: number,
    hooks: string,
    sqrtRatioX96: string,
    liquidity: string,
    tickCurrent: number,
    ticks: readonly { index: number; liquidityNet: string; liquidityGross: string }[],
  ) => SdkV3Pool;
};
export const v2Sdk = require('@uniswap/v2-sdk') as {
  Pair: new (a: SdkAmount, b: SdkAmount) => SdkV2Pair;
  Trade: {
    bestTradeExactIn(
      pairs: readonly SdkV2Pair[],
      amountIn: SdkAmount,
      tokenOut: SdkToken,
      options?: BestTradeOptions,
    ): SdkTrade<SdkV2Pair>[];
    bestTradeExactOut(
      pairs: readonly SdkV2Pair[],
      tokenIn: SdkToken,
      amountOut: SdkAmount,
      options?: BestTradeOptions,
    ): SdkTrade<SdkV2Pair>[];
  };
};

/** A raw amount of a token as the SDKs take it. */
export function sdkAmount(token: SdkToken, raw: bigint | string): SdkAmount {
  return sdkCore.CurrencyAmount.fromRawAmount(token, raw.toString());
}

/** An SDK amount as a bigint. */
export function sdkRaw(amount: SdkAmount): bigint {
  return BigInt(amount.quotient.toString());
}

/**
 * The v3-sdk Pool of a snapshot pool: its ticks in a TickListDataProvider (liquidityGross is not used by swaps and
 * is given as |liquidityNet|). Undefined when the pool has no initialized tick (the SDK's tick list cannot be walked
 * empty). token0/token1 are the SDK tokens of the pool's tokens.
 */
export function sdkV3Pool(state: SnapshotPoolV3, token0: SdkToken, token1: SdkToken): SdkV3Pool | undefined {
  if (state.ticks.length === 0) return undefined;
  const ticks = state.ticks.map(([index, net]) => ({
    index,
    liquidityNet: net,
    liquidityGross: (BigInt(net) < 0n ? -BigInt(net) : BigInt(net)).toString(),
  }));
  return new v3Sdk.Pool(
    token0,
    token1,
    state.fee,
    state.sqrtPriceX96,
    state.liquidity,
    state.tick,
    new v3Sdk.TickListDataProvider(ticks, state.tickSpacing),
  );
}

/** The v2-sdk Pair of a snapshot pair (the SDK's fee is Uniswap v2's 0.3%). */
export function sdkV2Pair(state: SnapshotPoolV2, token0: SdkToken, token1: SdkToken): SdkV2Pair {
  return new v2Sdk.Pair(sdkAmount(token0, state.reserve0), sdkAmount(token1, state.reserve1));
}

/** The SDK pools of a snapshot, by protocol, for the pools `use` selects. */
export class SdkPools {
  private readonly tokens = new Map<string, SdkToken>();
  readonly v3Pools: SdkV3Pool[] = [];
  readonly v2Pairs: SdkV2Pair[] = [];

  constructor(snapshot: Snapshot, decimals: (address: string) => number, use: (pool: SnapshotPool) => boolean = () => true) {
    for (const p of snapshot.pools) {
      if (!use(p)) continue;
      const t0 = this.token(snapshot.chainId, p.token0, decimals(p.token0));
      const t1 = this.token(snapshot.chainId, p.token1, decimals(p.token1));
      if (p.version === 'v2') this.v2Pairs.push(sdkV2Pair(p, t0, t1));
      else if (p.version === 'v3') {
        const pool = sdkV3Pool(p, t0, t1);
        if (pool) this.v3Pools.push(pool);
      }
    }
  }

  /** The SDK token of an address (one instance per address, as the SDK compares tokens by address). */
  token(chainId: number, address: string, decimals = 18): SdkToken {
    let t = this.tokens.get(address.toLowerCase());
    if (!t) {
      t = new sdkCore.Token(chainId, address, decimals);
      this.tokens.set(address.toLowerCase(), t);
    }
    return t;
  }

  /** @uniswap/v3-sdk Trade.bestTradeExactIn's output over the v3 pools (undefined when it finds no trade). */
  async bestV3(tokenIn: SdkToken, tokenOut: SdkToken, amountIn: bigint, maxHops: number): Promise<bigint | undefined> {
    const [best] = await v3Sdk.Trade.bestTradeExactIn(this.v3Pools, sdkAmount(tokenIn, amountIn), tokenOut, { maxNumResults: 1, maxHops });
    return best ? sdkRaw(best.outputAmount) : undefined;
  }

  /** @uniswap/v2-sdk Trade.bestTradeExactIn's output over the v2 pairs (undefined when it finds no trade). */
  bestV2(tokenIn: SdkToken, tokenOut: SdkToken, amountIn: bigint, maxHops: number): bigint | undefined {
    const [best] = v2Sdk.Trade.bestTradeExactIn(this.v2Pairs, sdkAmount(tokenIn, amountIn), tokenOut, { maxNumResults: 1, maxHops });
    return best ? sdkRaw(best.outputAmount) : undefined;
  }

  /** @uniswap/v3-sdk Trade.bestTradeExactOut's input for an exact output over the v3 pools (undefined: no trade). */
  async bestV3ExactOut(tokenIn: SdkToken, tokenOut: SdkToken, amountOut: bigint, maxHops: number): Promise<bigint | undefined> {
    const [best] = await v3Sdk.Trade.bestTradeExactOut(this.v3Pools, tokenIn, sdkAmount(tokenOut, amountOut), {
      maxNumResults: 1,
      maxHops,
    });
    return best ? sdkRaw(best.inputAmount) : undefined;
  }

  /** @uniswap/v2-sdk Trade.bestTradeExactOut's input for an exact output over the v2 pairs (undefined: no trade). */
  bestV2ExactOut(tokenIn: SdkToken, tokenOut: SdkToken, amountOut: bigint, maxHops: number): bigint | undefined {
    const [best] = v2Sdk.Trade.bestTradeExactOut(this.v2Pairs, tokenIn, sdkAmount(tokenOut, amountOut), { maxNumResults: 1, maxHops });
    return best ? sdkRaw(best.inputAmount) : undefined;
  }
}
