import { AMOUNT_IN_REFUSALS, amountInRefusal, amountInWith, amountOutWith, type V2Terms, v2Terms } from '../../amm/v2.ts';
import { ammRefusal, ammRefusalOf } from '../ammRefusal.ts';
import { eventTopic, logWords } from '../logWords.ts';
import type { LadderQuote, PoolBase, PoolProtocol } from '../PoolProtocol.ts';
import type { SnapshotPoolV2 } from './SnapshotPoolV2.ts';
import { uniswapV2Source } from './uniswapV2Source.ts';

/** A constant-product pair (Uniswap v2, SushiSwap, PancakeSwap v2 by its fee) ready to price. */
export interface UniswapV2Pool extends PoolBase {
  readonly kind: 'uniswapV2';
  /** Swap fee in basis points (fee / 100). */
  readonly feeBps: number;
  readonly reserve0: bigint;
  readonly reserve1: bigint;
  /**
   * The pair's token balances as the state knows them (balanceOf at the read, the reserves after each Sync), never
   * below the reserves: what _update must fit in uint112 after a swap.
   */
  readonly balance0: bigint;
  readonly balance1: bigint;
  /** Slots a swap writes from zero: the two price accumulators while they are unset (or unknown), else none. */
  readonly coldSlots: number;
}

/** UniswapV2Pair emits Sync(reserve0, reserve1) from every _update (swap, mint, burn, sync): the only event followed. */
const SYNC = eventTopic('Sync(uint112,uint112)');

const TOO_SMALL: LadderQuote = { ok: false, code: 'AMOUNT_TOO_SMALL', reason: 'the output rounds to zero' };

/** uint112(-1): UniswapV2Pair._update requires both balances after a swap to be at most this (else `UniswapV2: OVERFLOW`). */
const MAX_UINT112 = (1n << 112n) - 1n;

const TOO_LARGE: LadderQuote = {
  ok: false,
  code: 'AMOUNT_TOO_LARGE',
  reason: "the pair's token balance would exceed uint112 (UniswapV2: OVERFLOW)",
};

/** The larger of two amounts. */
const max = (a: bigint, b: bigint): bigint => (a > b ? a : b);

/**
 * A swap of the pair priced: refused when the balances after it would not fit uint112 (the pair's swap ends in
 * _update(balance0, balance1), which reverts when either exceeds it): balanceIn + amountIn > uint112 is amountIn >
 * roomIn (uint112 - balanceIn), balanceOut - amountOut > uint112 is amountOut < outBelow (balanceOut - uint112), both
 * computed once per ladder.
 */
function pricedSwap(roomIn: bigint, outBelow: bigint, amountIn: bigint, amountOut: bigint, coldSlots: number): LadderQuote {
  return amountIn > roomIn || amountOut < outBelow
    ? TOO_LARGE
    : { ok: true, amountIn, amountOut, ticksCrossed: 0, coldSlots, movesTick: false };
}

/** getAmountIn's refusals as ladder entries (amountInRefusal), made once. */
const EXACT_OUT_REFUSALS = Object.fromEntries(
  Object.entries(AMOUNT_IN_REFUSALS).map(([code, message]) => [code, ammRefusalOf(code as keyof typeof AMOUNT_IN_REFUSALS, message)]),
) as Record<keyof typeof AMOUNT_IN_REFUSALS, LadderQuote>;

/** Uniswap v2-style pairs: UniswapV2Library.getAmountOut / getAmountIn with the DEX's fee. */
export const uniswapV2: PoolProtocol<UniswapV2Pool, SnapshotPoolV2> = {
  kind: 'uniswapV2',
  /**
   * A pair's swap (calibration: src/routing/gasModel.ts), its price accumulators already written; while they are
   * zero (a never-traded pair) _update writes both from zero: two cold slots. No ticks. Exact output saves nothing
   * on further hops: v2 pairs pay the next pair directly either way.
   */
  gas: { hop: 62_000n, tick: 0n, exactOutNextHop: 0n, coldSlot: 17_100n, tickMove: 0n },
  source: uniswapV2Source,
  fromSnapshot(p) {
    return Object.freeze({
      kind: 'uniswapV2',
      address: p.address,
      dex: p.dex,
      version: p.version,
      token0: p.token0.toLowerCase(),
      token1: p.token1.toLowerCase(),
      fee: p.fee,
      feeBps: p.fee / 100,
      reserve0: BigInt(p.reserve0),
      reserve1: BigInt(p.reserve1),
      balance0: max(BigInt(p.balance0), BigInt(p.reserve0)),
      balance1: max(BigInt(p.balance1), BigInt(p.reserve1)),
      // _update writes price0/1CumulativeLast when time passed since the last update: from zero until it first did.
      coldSlots: p.priceCumulativeSet === true ? 0 : 2,
    });
  },
  quoteLadder(pool, zeroForOne, tradeType, amounts) {
    const n = amounts.length;
    const quotes: LadderQuote[] = new Array(n);
    let terms: V2Terms;
    try {
      terms = zeroForOne ? v2Terms(pool.reserve0, pool.reserve1, pool.feeBps) : v2Terms(pool.reserve1, pool.reserve0, pool.feeBps);
    } catch (error) {
      const refused = ammRefusal(error);
      for (let i = 0; i < n; i++) quotes[i] = refused;
      return quotes;
    }
    const roomIn = MAX_UINT112 - (zeroForOne ? pool.balance0 : pool.balance1);
    const outBelow = (zeroForOne ? pool.balance1 : pool.balance0) - MAX_UINT112;
    for (let i = 0; i < n; i++) {
      const amount = amounts[i];
      try {
        if (tradeType === 'exactIn') {
          const amountOut = amountOutWith(terms, amount);
          quotes[i] = amountOut === 0n ? TOO_SMALL : pricedSwap(roomIn, outBelow, amount, amountOut, pool.coldSlots);
        } else {
          const refused = amountInRefusal(terms, amount);
          quotes[i] =
            refused !== undefined
              ? EXACT_OUT_REFUSALS[refused]
              : pricedSwap(roomIn, outBelow, amountInWith(terms, amount), amount, pool.coldSlots);
        }
      } catch (error) {
        quotes[i] = ammRefusal(error);
      }
    }
    return quotes;
  },
  curveSegments(pool, zeroForOne) {
    // One constant product: out = reserveOut x d / (reserveIn / (1 - fee) + d), up to what uint112 lets the pair hold.
    const [reserveIn, reserveOut] = zeroForOne ? [pool.reserve0, pool.reserve1] : [pool.reserve1, pool.reserve0];
    const room = MAX_UINT112 - (zeroForOne ? pool.balance0 : pool.balance1);
    let given = false;
    return () => {
      if (given || reserveIn === 0n || reserveOut === 0n || room <= 0n) return undefined;
      given = true;
      return { len: Number(room), a: Number(reserveOut), b: (Number(reserveIn) * 10_000) / (10_000 - pool.feeBps), ticks: 0 };
    };
  },
  midPrice(pool) {
    return { num: pool.reserve1, den: pool.reserve0 };
  },
  snapshotMidPrice(p) {
    return { num: BigInt(p.reserve1), den: BigInt(p.reserve0) };
  },
  describe(p) {
    return { isActive: BigInt(p.reserve0) > 0n && BigInt(p.reserve1) > 0n, tickSpacing: 0 };
  },
  stateSize() {
    return 0;
  },
  checkSnapshot() {
    return undefined;
  },
  fileState(p) {
    return p;
  },
  eventTopics: [SYNC],
  /**
   * Sync sets the reserves, and the balances with them: _update writes the pair's balances as its reserves, so after
   * any Sync a fresh read of balanceOf equals them. A plain transfer to the pair (a donation, seen by balanceOf until
   * the next Sync) and skim() emit no pair event: invisible to a follower until the pair's next Sync. A Sync of a
   * pair whose accumulators are not known to be written (priceCumulativeSet) and whose reserves were non-zero is a
   * re-read: it may have written them.
   */
  applyEvent(p, log) {
    if (log.topics[0]?.toLowerCase() !== SYNC) return { ok: false, reason: `unexpected v2 event ${log.topics[0] ?? '(no topic)'}` };
    const w = logWords(log, 1, 2);
    if (!w || w[0] >> 112n !== 0n || w[1] >> 112n !== 0n) return { ok: false, reason: 'malformed Sync log' };
    // _update writes the price accumulators when its reserves were non-zero and time passed since the last update;
    // the log does not say whether time passed: a pair whose accumulators may still be zero is re-read.
    if (p.priceCumulativeSet !== true && (p.reserve0 !== '0' || p.reserve1 !== '0'))
      return { ok: false, reason: 'Sync may have written the price accumulators' };
    const r0 = w[0].toString();
    const r1 = w[1].toString();
    return { ok: true, state: { ...p, reserve0: r0, reserve1: r1, balance0: r0, balance1: r1 } };
  },
};
