import { MAX_TICK, MIN_TICK } from '../../amm/tickMath.ts';
import { eventTopic, logWords, type PoolLog, signedWord } from '../logWords.ts';
import type { EventContext, EventOutcome } from '../PoolProtocol.ts';
import { feeGrowthAfterSwap, modifyPosition, type TickedPool, tickWindow } from '../uniswapV3/uniswapV3Events.ts';
import type { SnapshotPoolV4 } from './SnapshotPoolV4.ts';
import { v4Balances } from './v4Balances.ts';
import { protocolFeeOf, swapFee } from './v4Fees.ts';

/** v4 state as a follower keeps it: with liquidityGross per known tick (FollowedPoolV3's reason). */
export type FollowedPoolV4 = SnapshotPoolV4 & TickedPool;

/** IPoolManager's events of a pool (topic1: the poolId; topic2: the sender where there is one). */
export const V4_SWAP = eventTopic('Swap(bytes32,address,int128,int128,uint160,uint128,int24,uint24)');
export const V4_MODIFY_LIQUIDITY = eventTopic('ModifyLiquidity(bytes32,address,int24,int24,int256,bytes32)');
export const V4_DONATE = eventTopic('Donate(bytes32,address,uint256,uint256)');
export const V4_PROTOCOL_FEE_UPDATED = eventTopic('ProtocolFeeUpdated(bytes32,uint24)');

/** Every PoolManager event that changes state a v4 snapshot records. */
export const V4_EVENT_TOPICS: readonly string[] = [V4_SWAP, V4_MODIFY_LIQUIDITY, V4_DONATE, V4_PROTOCOL_FEE_UPDATED];

const U128 = (1n << 128n) - 1n;
const reread = (reason: string): EventOutcome<SnapshotPoolV4> => ({ ok: false, reason });

/** The state with its balances restated from its known liquidity (uniswapV4Source's rule). */
function restated(p: FollowedPoolV4): FollowedPoolV4 {
  const ticks = p.ticks.map(([t, net]) => [t, BigInt(net)] as const);
  const [b0, b1] = v4Balances(BigInt(p.sqrtPriceX96), p.tick, BigInt(p.liquidity), ticks);
  return { ...p, balance0: b0.toString(), balance1: b1.toString() };
}

/**
 * Whether a swap that paid `paid` of its input currency added to the PoolManager's protocolFeesAccrued for it
 * (Pool.swap: each step owes floor((amountIn + feeAmount) * protocolFee / 1e6), or the whole step fee when the LP fee
 * is 0, which is at least 1 when the step takes any input), or undefined when the event cannot tell (a small swap over
 * several steps). A step ends at an initialized tick or a bitmap word's edge: at most the known ticks between start and
 * end, the words spanned, and one more; some step took at least paid / steps, so paid * fee >= 1e6 * steps accrues.
 */
function accruesProtocolFee(p: SnapshotPoolV4, paid: bigint, zeroForOne: boolean, tickAfter: number): boolean | undefined {
  const fee = BigInt(protocolFeeOf(p.protocolFee, zeroForOne));
  if (fee === 0n || paid <= 0n) return false;
  if (p.lpFee === 0) return true;
  if (paid * fee < 1_000_000n) return false;
  const [lo, hi] = p.tick <= tickAfter ? [p.tick, tickAfter] : [tickAfter, p.tick];
  const word = (tick: number): number => Math.floor(Math.floor(tick / p.tickSpacing) / 256);
  const known = p.ticks.filter(([t]) => t >= lo && t <= hi).length;
  const steps = BigInt(known + word(hi) - word(lo) + 2);
  return paid * fee >= 1_000_000n * steps ? true : undefined;
}

/**
 * Applies one PoolManager log of the pool (topic1 its poolId) to its snapshot state. Swap: price, tick and liquidity
 * as the event states them, the fee-growth state (a fee paid to LPs when lpFee > 0); a tick whose window moves is a
 * re-read. ModifyLiquidity: v3's position change (both ticks inside the window, in-range liquidity). Donate: the fee
 * growth of each donated currency. ProtocolFeeUpdated: the protocol fee (turned on: a re-read, which reads protocolFeesAccrued). A Swap paying a
 * protocol fee makes protocolFeesAccruedSet's input side true (accruesProtocolFee; the follower's v4AccruedState spreads it to the
 * chain's other pools of the currency). Balances are restated from the liquidity
 * after each (the PoolManager holds no per-pool balance). The Swap's fee (Pool.swap's swapFee) confirms the followed
 * fee: one that differs from swapFee(lpFee, protocolFee, direction) is a re-read (a dynamic fee changed by its hook,
 * which emits no event; a priced dynamic-fee pool is also re-read at every block: v4DynamicFeeFollowed).
 */
export function applyV4Event(state: SnapshotPoolV4, log: PoolLog, context: EventContext): EventOutcome<SnapshotPoolV4> {
  const p = state as FollowedPoolV4;
  const topic = log.topics[0]?.toLowerCase();
  if (log.topics[1]?.toLowerCase() !== p.address) return reread('log of another pool');
  const fail = (): EventOutcome<SnapshotPoolV4> => reread(`malformed v4 log ${topic}`);
  switch (topic) {
    case V4_SWAP: {
      const w = logWords(log, 3, 6);
      if (!w) return fail();
      const tick = Number(signedWord(w[4]));
      if (w[2] >> 160n !== 0n || w[2] === 0n || w[3] > U128 || tick < MIN_TICK || tick > MAX_TICK) return fail();
      const window = tickWindow(tick, p.tickSpacing, context.tickWindowWords);
      if (window[0] !== p.bitmapWords[0] || window[1] !== p.bitmapWords[1]) return reread(`price left its tick window (tick ${tick})`);
      // The BalanceDelta is the swapper's: the currency paid in is the negative one.
      const amount0 = BigInt.asIntN(128, w[0]);
      const amount1 = BigInt.asIntN(128, w[1]);
      const inBit = amount0 < 0n ? 0 : 1;
      const paid = inBit === 0 ? amount0 < 0n : amount1 < 0n;
      const charged = swapFee(p.lpFee, p.protocolFee, inBit === 0);
      if (paid && w[5] !== BigInt(charged)) return reread(`swap fee ${w[5]} is not the followed fee ${charged}`);
      const growth = feeGrowthAfterSwap(p, tick, inBit, p.lpFee > 0 && paid);
      const accrued = p.protocolFeesAccruedSet;
      let protocolFees = {};
      if (accrued !== undefined && !accrued[inBit]) {
        const accrues = accruesProtocolFee(p, inBit === 0 ? -amount0 : -amount1, inBit === 0, tick);
        if (accrues === undefined) return reread('a small swap over several steps may or may not have accrued a protocol fee');
        if (accrues) protocolFees = { protocolFeesAccruedSet: inBit === 0 ? [true, accrued[1]] : [accrued[0], true] };
      }
      const moved = { ...p, ...growth, ...protocolFees, sqrtPriceX96: w[2].toString(), tick, liquidity: w[3].toString() };
      return { ok: true, state: restated(moved) };
    }
    case V4_MODIFY_LIQUIDITY: {
      const w = logWords(log, 3, 4);
      if (!w) return fail();
      const delta = signedWord(w[2]);
      const changed = modifyPosition(p, Number(signedWord(w[0])), Number(signedWord(w[1])), delta);
      return changed.ok ? { ok: true, state: restated(changed.state) } : changed;
    }
    case V4_DONATE: {
      const w = logWords(log, 3, 2);
      if (!w) return fail();
      const set = p.feeGrowthGlobalSet;
      if (set === undefined || BigInt(p.liquidity) === 0n) return { ok: true, state: p };
      return { ok: true, state: { ...p, feeGrowthGlobalSet: [set[0] || w[0] > 0n, set[1] || w[1] > 0n] } };
    }
    case V4_PROTOCOL_FEE_UPDATED: {
      const w = logWords(log, 2, 1);
      if (!w || w[0] >= 1n << 24n) return fail();
      const protocolFee = Number(w[0]);
      if (protocolFee === 0) {
        const { protocolFeesAccruedSet: _, ...rest } = p;
        return { ok: true, state: { ...rest, protocolFee } };
      }
      // The currencies' protocolFeesAccrued are read with a pool charging a protocol fee (uniswapV4Source).
      if (p.protocolFeesAccruedSet === undefined)
        return reread("a protocol fee was turned on: its currencies' protocolFeesAccrued are unread");
      return { ok: true, state: { ...p, protocolFee } };
    }
    default:
      return reread(`unexpected v4 event ${topic ?? '(no topic)'}`);
  }
}
