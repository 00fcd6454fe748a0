import { createV3Pool, type V3Pool } from '../amm/v3Pool.ts';
import type { PoolGraph } from './PoolGraph.ts';
import type { SnapshotPool } from './snapshot.ts';

interface PricedPoolBase {
  readonly address: string;
  readonly dex: string;
  /** Lower-case token addresses. */
  readonly token0: string;
  readonly token1: string;
  /** Fee in pips. */
  readonly fee: number;
}

/** A v2 pool ready for the constant-product math. */
export interface PricedPoolV2 extends PricedPoolBase {
  readonly version: 'v2';
  readonly feeBps: number;
  readonly reserve0: bigint;
  readonly reserve1: bigint;
}

/** A v3 pool ready for the tick walk (sqrt prices of its ticks precomputed). */
export interface PricedPoolV3 extends PricedPoolBase {
  readonly version: 'v3';
  readonly pool: V3Pool;
}

export type PricedPool = PricedPoolV2 | PricedPoolV3;

/** Converts a snapshot pool (JSON strings) into the bigint state the AMM math takes. */
export function toPricedPool(p: SnapshotPool): PricedPool {
  const base = { address: p.address, dex: p.dex, token0: p.token0.toLowerCase(), token1: p.token1.toLowerCase(), fee: p.fee };
  if (p.version === 'v2') {
    return { ...base, version: 'v2', feeBps: p.fee / 100, reserve0: BigInt(p.reserve0), reserve1: BigInt(p.reserve1) };
  }
  const pool = createV3Pool({
    sqrtPriceX96: BigInt(p.sqrtPriceX96),
    tick: p.tick,
    liquidity: BigInt(p.liquidity),
    tickSpacing: p.tickSpacing,
    fee: p.fee,
    ticks: p.ticks.map(([tick, net]) => [tick, BigInt(net)] as const),
    bitmapWords: p.bitmapWords,
  });
  return { ...base, version: 'v3', pool };
}

/**
 * The pool graph as the pricing code needs it: a pair's candidate pools in bigint form, converted on
 * first use and cached, so start-up cost does not grow with pools that are never quoted.
 */
export class PricingGraph {
  private readonly cache = new Map<SnapshotPool, PricedPool | Error>();

  constructor(readonly graph: PoolGraph) {}

  /** Priced pools trading tokenA against tokenB directly; pools whose state is invalid are left out. */
  candidates(chainId: number, tokenA: string, tokenB: string): PricedPool[] {
    const out: PricedPool[] = [];
    for (const pool of this.graph.poolsForPair(chainId, tokenA, tokenB)) {
      let priced = this.cache.get(pool);
      if (priced === undefined) {
        try {
          priced = toPricedPool(pool);
        } catch (error) {
          priced = error instanceof Error ? error : new Error(String(error));
        }
        this.cache.set(pool, priced);
      }
      if (!(priced instanceof Error)) out.push(priced);
    }
    return out;
  }
}
