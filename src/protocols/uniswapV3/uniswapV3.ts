import { MAX_UINT256 } from '../../amm/fullMath.ts';
import { countInitializedTicksCrossed } from '../../amm/poolTicksCounter.ts';
import { quoteLadderEnds } from '../../amm/quoter.ts';
import type { LadderEnds } from '../../amm/swap.ts';
import { createV3Pool, type V3Pool } from '../../amm/v3Pool.ts';
import { ammRefusal } from '../ammRefusal.ts';
import type { LadderQuote, PoolBase, PoolProtocol } from '../PoolProtocol.ts';
import { type V3SlotState, v3ColdSlots } from './coldSlots.ts';
import { v3CurveSegments } from './curveSegments.ts';
import type { SnapshotPoolV3 } from './SnapshotPoolV3.ts';
import { tickCount } from './tickCount.ts';
import { sqrtPriceMid, walkRefusal } from './tickWalkPool.ts';
import { applyV3Event, snapshotPoolV3, V3_EVENT_TOPICS } from './uniswapV3Events.ts';
import { uniswapV3Source } from './uniswapV3Source.ts';

/** A concentrated-liquidity pool (Uniswap v3 and its forks) ready for the tick walk. */
export interface UniswapV3Pool extends PoolBase {
  readonly kind: 'uniswapV3';
  readonly pool: V3Pool;
  /** Which of its fee-growth slots hold a value: what a swap writes from zero (the gas model's cold slots). */
  readonly slots: V3SlotState;
  /** The pool's token balances as the state knows them: the swap's `balance0Before.add(amount0)` must fit uint256. */
  readonly balance0: bigint;
  readonly balance1: bigint;
}

const BALANCE_OVERFLOW: LadderQuote = { ok: false, code: 'AMOUNT_TOO_LARGE', reason: "the pool's token balance would exceed uint256" };

/**
 * QuoterV2's answer for amount i of a walk (quoteLadderEnds), as a ladder entry: partial fills and unknown ticks are
 * refusals. `balance`: the pool's balance of the input token.
 */
function ladderQuote(pool: UniswapV3Pool, zeroForOne: boolean, ends: LadderEnds, i: number, balance: bigint): LadderQuote {
  const refused = walkRefusal(ends, i);
  if (refused) return refused;
  const amountIn = ends.amountIn[i];
  const tickAfter = ends.tick[i];
  // UniswapV3Pool.swap checks the payment with LowGasSafeMath: balanceBefore.add(amountIn) reverts past uint256.
  if (overflows(balance, amountIn)) return BALANCE_OVERFLOW;
  const v3 = pool.pool;
  return {
    ok: true,
    amountIn,
    amountOut: ends.amountOut[i],
    ticksCrossed: countInitializedTicksCrossed(v3, v3.tick, tickAfter),
    coldSlots: v3ColdSlots(v3, pool.slots, zeroForOne, amountIn, tickAfter, ends.liquidity[i]),
    movesTick: tickAfter !== v3.tick,
  };
}

const HALF_UINT256 = 1n << 255n;

/**
 * Whether balance + amountIn exceeds uint256 (amountIn above uint256 less the balance). Two values below 2^255 never
 * do: the sum is made only when one is not (a 256-bit BigInt per ladder otherwise).
 */
function overflows(balance: bigint, amountIn: bigint): boolean {
  return (balance >= HALF_UINT256 || amountIn >= HALF_UINT256) && amountIn > MAX_UINT256 - balance;
}

/** Uniswap v3 pools: the UniswapV3Pool.swap walk over the snapshot's known ticks, QuoterV2 semantics. */
export const uniswapV3: PoolProtocol<UniswapV3Pool, SnapshotPoolV3> = {
  kind: 'uniswapV3',
  /**
   * A pool's swap and each initialized tick it crosses, every slot written already holding a value; each slot
   * written from zero (a zero fee growth, a crossed tick's zero fee-growth-outside: coldSlots.ts) costs coldSlot
   * more, and a swap that moves the tick writes an oracle observation: tickMove more (calibration:
   * src/routing/gasModel.ts). Exact output saves a transfer on each further v3 hop:
   * `exactOutput` has each pool pay the next pool directly, where `exactInput` routes the intermediate token
   * through the router.
   */
  gas: { hop: 64_300n, tick: 23_800n, exactOutNextHop: 5_400n, coldSlot: 17_100n, tickMove: 10_000n },
  source: uniswapV3Source,
  tickListSnapshot: true,
  fromSnapshot(p) {
    const pool = createV3Pool({
      sqrtPriceX96: BigInt(p.sqrtPriceX96),
      tick: p.tick,
      liquidity: BigInt(p.liquidity),
      tickSpacing: p.tickSpacing,
      fee: p.fee,
      ticks: p.ticks.map(([tick, net]) => [tick, BigInt(net)] as const),
      bitmapWords: p.bitmapWords,
    });
    return Object.freeze({
      kind: 'uniswapV3',
      address: p.address,
      dex: p.dex,
      version: p.version,
      token0: p.token0.toLowerCase(),
      token1: p.token1.toLowerCase(),
      fee: p.fee,
      pool,
      slots: {
        feeGrowthSet: p.feeGrowthGlobalSet,
        outsideSet: new Map(Object.entries(p.feeGrowthOutsideSet ?? {}).map(([tick, set]) => [Number(tick), set])),
      },
      balance0: BigInt(p.balance0),
      balance1: BigInt(p.balance1),
    });
  },
  quoteLadder(pool, zeroForOne, tradeType, amounts) {
    if (amounts.length === 0) return [];
    try {
      const ends = quoteLadderEnds(pool.pool, zeroForOne, tradeType === 'exactIn', amounts);
      const balance = zeroForOne ? pool.balance0 : pool.balance1;
      const quotes: LadderQuote[] = new Array(amounts.length);
      for (let i = 0; i < amounts.length; i++) quotes[i] = ladderQuote(pool, zeroForOne, ends, i, balance);
      return quotes;
    } catch (error) {
      const refused = ammRefusal(error);
      return amounts.map(() => refused);
    }
  },
  curveSegments(pool, zeroForOne) {
    return v3CurveSegments(pool.pool, zeroForOne);
  },
  midPrice(pool) {
    return sqrtPriceMid(pool.pool.sqrtPriceX96);
  },
  snapshotMidPrice(p) {
    return sqrtPriceMid(BigInt(p.sqrtPriceX96));
  },
  describe(p) {
    return { isActive: BigInt(p.liquidity) > 0n, tickSpacing: p.tickSpacing };
  },
  stateSize(p) {
    // Counted without decoding a lazily parsed tick list (the in-thread pricing check asks per request).
    return tickCount(p);
  },
  checkSnapshot(p) {
    for (let k = 1; k < p.ticks.length; k++) {
      if (p.ticks[k][0] <= p.ticks[k - 1][0]) return 'ticks: must be strictly ascending';
    }
    return undefined;
  },
  fileState: snapshotPoolV3,
  eventTopics: V3_EVENT_TOPICS,
  applyEvent: applyV3Event,
};
