import { createRequire } from 'node:module';
import type { Snapshot, SnapshotPool } from '../../src/graph/snapshot.ts';

// Test and bench support (not a test): a snapshot's pools as @uniswap/v3-sdk Pools and @uniswap/v2-sdk Pairs, the
// Uniswap SDKs' own route search as an oracle independent of src/routing.
const require = createRequire(import.meta.url);

/** What the tests read of an SDK currency amount. */
export interface SdkAmount {
  quotient: { toString(): string };
}
interface SdkTrade {
  outputAmount: SdkAmount;
  route: { pools?: unknown[]; pairs?: unknown[] };
}
export interface SdkToken {
  readonly address: string;
}

const core = require('@uniswap/sdk-core') as {
  Token: new (chainId: number, address: string, decimals: number, symbol?: string) => SdkToken;
  CurrencyAmount: { fromRawAmount(token: SdkToken, raw: string): SdkAmount };
};
const v3 = require('@uniswap/v3-sdk') as {
  Pool: new (a: SdkToken, b: SdkToken, fee: number, sqrtRatioX96: string, liquidity: string, tick: number, ticks: unknown) => unknown;
  TickListDataProvider: new (ticks: { index: number; liquidityNet: string; liquidityGross: string }[], tickSpacing: number) => unknown;
  Trade: { bestTradeExactIn(pools: unknown[], amountIn: SdkAmount, out: SdkToken, options: { maxNumResults: number; maxHops: number }): Promise<SdkTrade[]> };
};
const v2 = require('@uniswap/v2-sdk') as {
  Pair: new (a: SdkAmount, b: SdkAmount) => unknown;
  Trade: { bestTradeExactIn(pairs: unknown[], amountIn: SdkAmount, out: SdkToken, options: { maxNumResults: number; maxHops: number }): SdkTrade[] };
};

/** The SDK pools of a snapshot, by protocol, for the pools `use` selects. */
export class SdkPools {
  private readonly tokens = new Map<string, SdkToken>();
  readonly v3Pools: unknown[] = [];
  readonly v2Pairs: unknown[] = [];

  constructor(snapshot: Snapshot, decimals: (address: string) => number, use: (pool: SnapshotPool) => boolean = () => true) {
    for (const p of snapshot.pools) {
      if (!use(p)) continue;
      const t0 = this.token(snapshot.chainId, p.token0, decimals(p.token0));
      const t1 = this.token(snapshot.chainId, p.token1, decimals(p.token1));
      if (p.version === 'v2') {
        this.v2Pairs.push(new v2.Pair(core.CurrencyAmount.fromRawAmount(t0, p.reserve0), core.CurrencyAmount.fromRawAmount(t1, p.reserve1)));
      } else {
        const ticks = p.ticks.map(([index, net]) => ({ index, liquidityNet: net, liquidityGross: (BigInt(net) < 0n ? -BigInt(net) : BigInt(net)).toString() }));
        this.v3Pools.push(new v3.Pool(t0, t1, p.fee, p.sqrtPriceX96, p.liquidity, p.tick, new v3.TickListDataProvider(ticks, p.tickSpacing)));
      }
    }
  }

  /** The SDK token of an address (one instance per address, as the SDK compares tokens by address). */
  token(chainId: number, address: string, decimals = 18): SdkToken {
    let t = this.tokens.get(address.toLowerCase());
    if (!t) this.tokens.set(address.toLowerCase(), (t = new core.Token(chainId, address, decimals)));
    return t;
  }

  /** @uniswap/v3-sdk Trade.bestTradeExactIn's output over the v3 pools (undefined when it finds no trade). */
  async bestV3(tokenIn: SdkToken, tokenOut: SdkToken, amountIn: bigint, maxHops: number): Promise<bigint | undefined> {
    const [best] = await v3.Trade.bestTradeExactIn(this.v3Pools, core.CurrencyAmount.fromRawAmount(tokenIn, amountIn.toString()), tokenOut, { maxNumResults: 1, maxHops });
    return best ? BigInt(best.outputAmount.quotient.toString()) : undefined;
  }

  /** @uniswap/v2-sdk Trade.bestTradeExactIn's output over the v2 pairs (undefined when it finds no trade). */
  bestV2(tokenIn: SdkToken, tokenOut: SdkToken, amountIn: bigint, maxHops: number): bigint | undefined {
    const [best] = v2.Trade.bestTradeExactIn(this.v2Pairs, core.CurrencyAmount.fromRawAmount(tokenIn, amountIn.toString()), tokenOut, { maxNumResults: 1, maxHops });
    return best ? BigInt(best.outputAmount.quotient.toString()) : undefined;
  }
}
