import { countInitializedTicksCrossed } from '../../amm/poolTicksCounter.ts';
import { quoteLadderEnds } from '../../amm/quoter.ts';
import type { LadderEnds } from '../../amm/swap.ts';
import { createV3Pool, type PoolLimits, type V3Pool } from '../../amm/v3Pool.ts';
import { ammRefusal } from '../ammRefusal.ts';
import type { LadderQuote, PoolBase, PoolProtocol, V4LegKey } from '../PoolProtocol.ts';
import { type V3SlotState, v3ColdSlots } from '../uniswapV3/coldSlots.ts';
import { v3CurveSegments } from '../uniswapV3/curveSegments.ts';
import { tickCount } from '../uniswapV3/tickCount.ts';
import { sqrtPriceMid, walkRefusal } from '../uniswapV3/tickWalkPool.ts';
import type { SnapshotPoolV4 } from './SnapshotPoolV4.ts';
import { applyV4Event, type FollowedPoolV4, V4_EVENT_TOPICS } from './uniswapV4Events.ts';
import { uniswapV4Source } from './uniswapV4Source.ts';
import { v4AccruedState } from './v4AccruedState.ts';
import {
  DYNAMIC_FEE_FLAG,
  MAX_LP_FEE,
  MAX_PROTOCOL_FEE,
  MAX_TICK_SPACING,
  protocolFeeOf,
  swapFee,
  v4DynamicFeeFollowed,
  v4HookAdmits,
  v4Refusal,
} from './v4Fees.ts';

/** A Uniswap v4 pool ready for the tick walk: v3's walk, once per direction when the protocol fee differs by direction. */
export interface UniswapV4Pool extends PoolBase {
  readonly kind: 'uniswapV4';
  /** The walk for token0 in (its fee: Pool.swap's swapFee for zeroForOne). */
  readonly zeroForOne: V3Pool;
  /** The walk for token1 in; the same object when both directions pay the same fee. */
  readonly oneForZero: V3Pool;
  readonly hooks: string;
  readonly tickSpacing: number;
  /** The PoolKey's fee (DYNAMIC_FEE_FLAG for a dynamic fee; `fee` is then slot0's LP fee). */
  readonly keyFee: number;
  /** Its legs' Leg.poolKey (PoolProtocol.legKey), made once per pool state rather than per priced leg. */
  readonly legKey: V4LegKey;
  /** Why the pool is not priced (a hook that can change swap amounts, a dynamic fee), or undefined. */
  readonly refusal: string | undefined;
  readonly slots: V3SlotState;
  /** slot0.protocolFee (oneForZero << 12 | zeroForOne, pips): a direction that pays one writes protocolFeesAccrued. */
  readonly protocolFee: number;
  /** SnapshotPoolV4.protocolFeesAccruedSet: whether that write finds the currency's slot already non-zero. */
  readonly protocolFeesAccruedSet: readonly [boolean, boolean] | undefined;
}

/** v4's bounds: fees up to 100% (LPFeeLibrary.MAX_LP_FEE plus a protocol fee stays within it) and spacings up to 32767. */
const V4_POOL_LIMITS: PoolLimits = Object.freeze({ maxFee: MAX_LP_FEE, maxTickSpacing: MAX_TICK_SPACING });

/** Pool.swap casts both amounts of the BalanceDelta to int128 (SafeCast.toInt128 reverts past it). */
const INT128_MAX = (1n << 127n) - 1n;

const DELTA_OVERFLOW: LadderQuote = {
  ok: false,
  code: 'AMOUNT_TOO_LARGE',
  reason: 'the swap amounts exceed int128 (the PoolManager balance delta)',
};

/**
 * V4Quoter's answer for amount i of a walk (quoteLadderEnds), as a ladder entry: partial fills (V4Quoter's
 * NotEnoughLiquidity) and unknown ticks are refusals. `accrues`: the protocol fee's write from zero, 1 or 0.
 */
function ladderQuote(pool: UniswapV4Pool, walk: V3Pool, ends: LadderEnds, i: number, zeroForOne: boolean, accrues: number): LadderQuote {
  const refused = walkRefusal(ends, i);
  if (refused) return refused;
  const amountIn = ends.amountIn[i];
  const amountOut = ends.amountOut[i];
  const tickAfter = ends.tick[i];
  if (amountIn > INT128_MAX || amountOut > INT128_MAX) return DELTA_OVERFLOW;
  const coldSlots = v3ColdSlots(walk, pool.slots, zeroForOne, amountIn, tickAfter, ends.liquidity[i]) + accrues;
  // v4 pools keep no oracle: moving the tick writes nothing more.
  return {
    ok: true,
    amountIn,
    amountOut,
    ticksCrossed: countInitializedTicksCrossed(walk, walk.tick, tickAfter),
    coldSlots,
    movesTick: false,
  };
}

function refuseAll(amounts: readonly bigint[], refused: LadderQuote): LadderQuote[] {
  return amounts.map(() => refused);
}

/**
 * Uniswap v4 pools (hookless, or with a hook that cannot change swap amounts, on a static fee, or on a dynamic fee
 * whose listed hook cannot override it per swap: v4Refusal): the PoolManager's
 * Pool.swap walk over the snapshot's known ticks, which is v3's (src/amm/swap.ts) with Pool.swap's fee for the
 * direction, V4Quoter semantics; found and read by uniswapV4Source, followed by applyV4Event. A pool's `address` is
 * its poolId (32 bytes, lower-case hex); executed through the catalogue's UniversalRouter (src/routing/executors.ts).
 */
export const uniswapV4: PoolProtocol<UniswapV4Pool, SnapshotPoolV4> = {
  kind: 'uniswapV4',
  source: uniswapV4Source,
  tickListSnapshot: true,
  admits: v4HookAdmits,
  eventTopics: V4_EVENT_TOPICS,
  applyEvent: applyV4Event,
  sharedState: v4AccruedState,
  // The Universal Router swaps v4 pools, and in the same path the v2/v3 pools of the factories it was deployed with.
  executor: (dex) =>
    dex.version === 'v4' && dex.universalRouterAddress
      ? {
          router: 'UniversalRouter',
          address: dex.universalRouterAddress,
          alsoSwapsFactories: [dex.universalRouterV2FactoryAddress, dex.universalRouterV3FactoryAddress].filter((f) => f !== ''),
        }
      : undefined,
  // A priced dynamic-fee pool's LP fee changes without an event (PoolManager.updateDynamicLPFee).
  rereadEachBlock: (p, context) => v4DynamicFeeFollowed(p, context?.allowedHooks),
  /**
   * Fitted on the Universal Router trades executed on the devnet (test/tx/universalRouter.devnet.test.ts prints the
   * table and holds every swap step within ±4% on never-traded pools, ±5% on traded ones; a minimax fit with
   * GAS.call.UniversalRouter, every never-traded case within ±3.5%).
   * A hop is PoolManager.swap on warm-written slots and its step in the router's unlock callback; the unlock, the
   * settle (the Permit2 pull) and the take are the call's (GAS.call.UniversalRouter). Each initialized tick crossed:
   * 17,000, from the devnet's 3-tick swap (a call trace: PoolManager.swap 164,846 against 45,377 with no tick, five
   * slots from zero beside). No oracle (tickMove 0); an exact output's later v4 hops save a little of the router's
   * per-hop work (exactOutNextHop).
   */
  gas: { hop: 40_000n, tick: 17_000n, exactOutNextHop: 2_400n, coldSlot: 17_100n, tickMove: 0n },
  fromSnapshot(p, context) {
    const data = {
      sqrtPriceX96: BigInt(p.sqrtPriceX96),
      tick: p.tick,
      liquidity: BigInt(p.liquidity),
      tickSpacing: p.tickSpacing,
      ticks: p.ticks.map(([tick, net]) => [tick, BigInt(net)] as const),
      bitmapWords: p.bitmapWords,
    };
    const fee0 = swapFee(p.lpFee, p.protocolFee, true);
    const fee1 = swapFee(p.lpFee, p.protocolFee, false);
    const zeroForOne = createV3Pool({ ...data, fee: fee0 }, V4_POOL_LIMITS);
    const oneForZero = fee1 === fee0 ? zeroForOne : createV3Pool({ ...data, fee: fee1 }, V4_POOL_LIMITS);
    return Object.freeze({
      kind: 'uniswapV4',
      address: p.address,
      dex: p.dex,
      version: p.version,
      token0: p.token0.toLowerCase(),
      token1: p.token1.toLowerCase(),
      fee: p.lpFee,
      zeroForOne,
      oneForZero,
      hooks: p.hooks,
      tickSpacing: p.tickSpacing,
      keyFee: p.fee,
      legKey: Object.freeze({ fee: p.fee, tickSpacing: p.tickSpacing, hooks: p.hooks }),
      refusal: v4Refusal(p, context?.allowedHooks),
      protocolFee: p.protocolFee,
      protocolFeesAccruedSet: p.protocolFeesAccruedSet,
      slots: {
        feeGrowthSet: p.feeGrowthGlobalSet,
        outsideSet: new Map(Object.entries(p.feeGrowthOutsideSet ?? {}).map(([tick, set]) => [Number(tick), set])),
      },
    });
  },
  legKey(pool) {
    return pool.legKey;
  },
  quoteLadder(pool, zeroForOne, tradeType, amounts) {
    if (amounts.length === 0) return [];
    if (pool.refusal !== undefined) return refuseAll(amounts, { ok: false, code: 'INSUFFICIENT_LIQUIDITY', reason: pool.refusal });
    const walk = zeroForOne ? pool.zeroForOne : pool.oneForZero;
    if (walk.fee >= MAX_LP_FEE) {
      // Exact output: Pool.swap's InvalidFeeForExactOut. Exact input: the fee takes every amount whole and V4Quoter
      // answers 0; no larger amount would pay out either, so not AMOUNT_TOO_SMALL (which tells the caller to send more).
      const reason = tradeType === 'exactOut' ? 'a 100% fee pool cannot give an exact output' : 'a 100% fee pool pays nothing out';
      return refuseAll(amounts, { ok: false, code: 'INSUFFICIENT_LIQUIDITY', reason });
    }
    try {
      const ends = quoteLadderEnds(walk, zeroForOne, tradeType === 'exactIn', amounts);
      // A direction paying a protocol fee adds it to the PoolManager's protocolFeesAccrued[currency in]: a write from
      // zero while that currency's is zero (protocolFeesAccruedSet; unknown counts as zero, the safe side).
      const accrues = protocolFeeOf(pool.protocolFee, zeroForOne) > 0 && pool.protocolFeesAccruedSet?.[zeroForOne ? 0 : 1] !== true ? 1 : 0;
      const quotes: LadderQuote[] = new Array(amounts.length);
      for (let i = 0; i < amounts.length; i++) quotes[i] = ladderQuote(pool, walk, ends, i, zeroForOne, accrues);
      return quotes;
    } catch (error) {
      return refuseAll(amounts, ammRefusal(error));
    }
  },
  paysNothing(pool, zeroForOne) {
    // A 100% swap fee takes the whole input (SwapMath: nothing left to move the price, so nothing paid out) and
    // refuses an exact output (Pool.swap: InvalidFeeForExactOut): quoteLadder refuses every amount either way.
    return (zeroForOne ? pool.zeroForOne : pool.oneForZero).fee >= MAX_LP_FEE;
  },
  curveSegments(pool, zeroForOne) {
    // v3's walk with the direction's fee; a refused pool has no curve.
    if (pool.refusal !== undefined) return () => undefined;
    return v3CurveSegments(zeroForOne ? pool.zeroForOne : pool.oneForZero, zeroForOne);
  },
  midPrice(pool) {
    return sqrtPriceMid(pool.zeroForOne.sqrtPriceX96);
  },
  snapshotMidPrice(p) {
    return sqrtPriceMid(BigInt(p.sqrtPriceX96));
  },
  describe(p, context) {
    return { isActive: BigInt(p.liquidity) > 0n && v4Refusal(p, context?.allowedHooks) === undefined, tickSpacing: p.tickSpacing };
  },
  stateSize(p) {
    return tickCount(p);
  },
  checkSnapshot(p) {
    if (!/^0x[0-9a-f]{64}$/.test(p.address)) return 'address: must be the poolId (32 bytes, lower-case hex)';
    if (!Number.isInteger(p.tickSpacing) || p.tickSpacing < 1 || p.tickSpacing > MAX_TICK_SPACING) {
      return `tickSpacing: must be an integer in [1, ${MAX_TICK_SPACING}]`;
    }
    if (p.fee !== DYNAMIC_FEE_FLAG && (!Number.isInteger(p.fee) || p.fee < 0 || p.fee > MAX_LP_FEE)) {
      return `fee: must be an integer in [0, ${MAX_LP_FEE}] or the dynamic-fee flag ${DYNAMIC_FEE_FLAG}`;
    }
    if (p.fee !== DYNAMIC_FEE_FLAG && p.lpFee !== p.fee) return 'lpFee: must equal the fee of a static-fee pool';
    if (!Number.isInteger(p.lpFee) || p.lpFee < 0 || p.lpFee > MAX_LP_FEE) return `lpFee: must be an integer in [0, ${MAX_LP_FEE}]`;
    if (!Number.isInteger(p.protocolFee) || p.protocolFee < 0 || p.protocolFee >= 1 << 24) return 'protocolFee: must be a uint24';
    if (protocolFeeOf(p.protocolFee, true) > MAX_PROTOCOL_FEE || protocolFeeOf(p.protocolFee, false) > MAX_PROTOCOL_FEE) {
      return `protocolFee: each direction must be at most ${MAX_PROTOCOL_FEE} pips`;
    }
    if (BigInt(p.token0) >= BigInt(p.token1)) return 'token0: currencies must be sorted (currency0 < currency1)';
    for (let k = 1; k < p.ticks.length; k++) {
      if (p.ticks[k][0] <= p.ticks[k - 1][0]) return 'ticks: must be strictly ascending';
    }
    return undefined;
  },
  fileState(p) {
    // A followed state keeps liquidityGross per tick (FollowedPoolV4.grossByTick); the file does not.
    const { grossByTick: _gross, ...file } = p as FollowedPoolV4;
    return file;
  },
};
