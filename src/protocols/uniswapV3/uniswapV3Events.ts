import { MAX_TICK, MIN_TICK } from '../../amm/tickMath.ts';
import { eventTopic, logWords, type PoolLog, signedWord } from '../logWords.ts';
import type { EventContext, EventOutcome } from '../PoolProtocol.ts';
import type { SnapshotPoolV3 } from './SnapshotPoolV3.ts';

/**
 * v3 snapshot state as a follower keeps it: the snapshot pool plus, per initialized tick of the window, its
 * liquidityGross (decimal string, keyed by tick). liquidityGross says when a Burn empties a tick (its bitmap bit
 * clears and a fresh seed no longer lists it); liquidityNet alone cannot (a tick can hold net 0 and stay
 * initialized). It is follower-side only: snapshot files do not carry it, and a Burn on a listed tick whose gross
 * is unknown (state started from a snapshot file) re-reads the pool once, which fills it.
 */
export type FollowedPoolV3 = SnapshotPoolV3 & { readonly grossByTick?: Readonly<Record<string, string>> };

/** The tick state v3 and v4 pools share (v4's state keeps the same fields), as a follower keeps it. */
export type TickedPool = Pick<
  SnapshotPoolV3,
  'tickSpacing' | 'bitmapWords' | 'ticks' | 'tick' | 'liquidity' | 'feeGrowthGlobalSet' | 'feeGrowthOutsideSet'
> & { readonly grossByTick?: Readonly<Record<string, string>> };

export const V3_SWAP = eventTopic('Swap(address,address,int256,int256,uint160,uint128,int24)');
/** PancakeSwap v3's Swap: Uniswap's fields, then protocolFeesToken0 and protocolFeesToken1 (uint128), so another topic. */
export const PANCAKE_V3_SWAP = eventTopic('Swap(address,address,int256,int256,uint160,uint128,int24,uint128,uint128)');
export const V3_MINT = eventTopic('Mint(address,address,int24,int24,uint128,uint256,uint256)');
export const V3_BURN = eventTopic('Burn(address,int24,int24,uint128,uint256,uint256)');
export const V3_COLLECT = eventTopic('Collect(address,address,int24,int24,uint128,uint128)');
export const V3_FLASH = eventTopic('Flash(address,address,uint256,uint256,uint256,uint256)');
export const V3_COLLECT_PROTOCOL = eventTopic('CollectProtocol(address,address,uint128,uint128)');

/** Every v3 pool event that changes state a snapshot records (PancakeSwap v3's other events have Uniswap's topics). */
export const V3_EVENT_TOPICS: readonly string[] = [V3_SWAP, PANCAKE_V3_SWAP, V3_MINT, V3_BURN, V3_COLLECT, V3_FLASH, V3_COLLECT_PROTOCOL];

/** A v3 pool as a snapshot file holds it: without the follower-side grossByTick. */
export function snapshotPoolV3(p: FollowedPoolV3): SnapshotPoolV3 {
  if (p.grossByTick === undefined) return p;
  const { grossByTick: _gross, ...rest } = p;
  return rest;
}

/** Compressed tick's bitmap word (TickBitmap.position: (tick / tickSpacing, rounded down) >> 8). */
export function bitmapWord(tick: number, tickSpacing: number): number {
  return Math.floor(tick / tickSpacing) >> 8;
}

/** The tick-bitmap words a seed reads around `tick`: the current word ± halfWidth, clamped to the valid ticks. */
export function tickWindow(tick: number, tickSpacing: number, halfWidth: number): [number, number] {
  const w = bitmapWord(tick, tickSpacing);
  return [Math.max(w - halfWidth, bitmapWord(MIN_TICK, tickSpacing)), Math.min(w + halfWidth, bitmapWord(MAX_TICK, tickSpacing))];
}

const U128 = (1n << 128n) - 1n;
type Outcome = EventOutcome<SnapshotPoolV3>;
const reread = (reason: string): Outcome => ({ ok: false, reason });

/** Token balances moved by `d0` / `d1`; a balance that would go negative means state was already wrong. */
function moveBalances(p: FollowedPoolV3, d0: bigint, d1: bigint): FollowedPoolV3 | undefined {
  const b0 = BigInt(p.balance0) + d0;
  const b1 = BigInt(p.balance1) + d1;
  if (b0 < 0n || b1 < 0n) return undefined;
  return { ...p, balance0: b0.toString(), balance1: b1.toString() };
}

/**
 * Adds `delta` liquidity to one tick boundary (`netSign` +1 lower, -1 upper), as Tick.update does, when the tick is
 * inside the window; outside it the tick is unknown and stays so. Returns undefined when the gross is unknown and
 * the change could empty the tick.
 */
function updateTick(
  ticks: [number, string][],
  gross: Record<string, string> | undefined,
  p: TickedPool,
  tick: number,
  delta: bigint,
  netSign: 1n | -1n,
): Record<string, string> | undefined | false {
  const word = bitmapWord(tick, p.tickSpacing);
  if (word < p.bitmapWords[0] || word > p.bitmapWords[1]) return gross;
  let lo = 0;
  let hi = ticks.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ticks[mid][0] < tick) lo = mid + 1;
    else hi = mid;
  }
  const present = lo < ticks.length && ticks[lo][0] === tick;
  const known = present ? gross?.[tick] : '0';
  if (known === undefined) {
    if (delta < 0n) return false;
    ticks[lo] = [tick, (BigInt(ticks[lo][1]) + netSign * delta).toString()];
    return gross;
  }
  const newGross = BigInt(known) + delta;
  if (newGross < 0n || newGross > U128) return false;
  const next = { ...gross };
  if (newGross === 0n) {
    if (present) ticks.splice(lo, 1);
    delete next[tick];
    return next;
  }
  const net = (present ? BigInt(ticks[lo][1]) : 0n) + netSign * delta;
  if (present) ticks[lo] = [tick, net.toString()];
  else ticks.splice(lo, 0, [tick, net.toString()]);
  next[tick] = newGross.toString();
  return next;
}

/** Whether `tick` is in the ascending tick list. */
function listed(ticks: ReadonlyArray<readonly [number, string]>, tick: number): boolean {
  let lo = 0;
  let hi = ticks.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ticks[mid][0] < tick) lo = mid + 1;
    else hi = mid;
  }
  return lo < ticks.length && ticks[lo][0] === tick;
}

/** The fee growths as a bit mask (bit 0 token0, bit 1 token1), as feeGrowthOutsideSet holds a tick's. */
const growthMask = (set: readonly [boolean, boolean]): number => (set[0] ? 1 : 0) | (set[1] ? 2 : 0);

/**
 * A tick's fee-growth-outside after a position change: Tick.update sets a newly initialized tick's outside values to
 * the global ones when tick ≤ the current tick (else 0); a tick that is cleared loses them; others keep theirs.
 */
function outsideAfterPosition(
  before: TickedPool,
  ticks: ReadonlyArray<readonly [number, string]>,
  changed: readonly number[],
): Pick<SnapshotPoolV3, 'feeGrowthOutsideSet'> {
  const global = before.feeGrowthGlobalSet;
  if (global === undefined) return {};
  const outside: Record<string, number> = { ...before.feeGrowthOutsideSet };
  for (const tick of changed) {
    const was = listed(before.ticks, tick);
    const is = listed(ticks, tick);
    if (was && !is) delete outside[tick];
    else if (!was && is) {
      const set = tick <= before.tick ? growthMask(global) : 0;
      if (set === 0) delete outside[tick];
      else outside[tick] = set;
    }
  }
  return { feeGrowthOutsideSet: outside };
}

/**
 * The fee-growth state after a Swap from `p.tick` to `tick` taking `amountIn` of token `inBit`: the input's global
 * fee growth is non-zero once a fee was paid (a swap with input pays one to in-range liquidity, when the pool
 * charges one); each initialized tick crossed (tick list, inside the window) gets outside = global - outside
 * (Tick.cross), non-zero where its outside was zero and the global is not. An outside that was non-zero is taken to
 * stay so: it would become zero only if no fee of that token accrued since the tick's last crossing.
 */
export function feeGrowthAfterSwap(
  p: TickedPool,
  tick: number,
  inBit: 0 | 1,
  feePaid: boolean,
): Pick<SnapshotPoolV3, 'feeGrowthGlobalSet' | 'feeGrowthOutsideSet'> {
  const before = p.feeGrowthGlobalSet;
  if (before === undefined) return {};
  const global: [boolean, boolean] = [before[0], before[1]];
  if (feePaid) global[inBit] = true;
  const mask = growthMask(global);
  const [low, high] = inBit === 0 ? [tick, p.tick] : [p.tick, tick];
  let outside: Record<string, number> | undefined;
  for (const [t] of p.ticks) {
    if (t <= low || t > high) continue;
    const set = (p.feeGrowthOutsideSet?.[t] ?? 0) | mask;
    if (set !== (p.feeGrowthOutsideSet?.[t] ?? 0)) {
      outside ??= { ...p.feeGrowthOutsideSet };
      outside[t] = set;
    }
  }
  return { feeGrowthGlobalSet: global, ...(outside ? { feeGrowthOutsideSet: outside } : {}) };
}

/** A Mint (+amount) or Burn (-amount) of a position: both ticks, and the in-range liquidity when it straddles the price. */
export function modifyPosition<P extends TickedPool>(p: P, tickLower: number, tickUpper: number, delta: bigint): EventOutcome<P> {
  if (delta === 0n) return { ok: true, state: p };
  if (tickLower >= tickUpper || tickLower % p.tickSpacing !== 0 || tickUpper % p.tickSpacing !== 0)
    return { ok: false, reason: 'position with invalid ticks' };
  const ticks = p.ticks.map((t) => [t[0], t[1]] as [number, string]);
  const afterLower = updateTick(ticks, p.grossByTick as Record<string, string> | undefined, p, tickLower, delta, 1n);
  if (afterLower === false) return { ok: false, reason: `liquidityGross of tick ${tickLower} unknown or out of range` };
  const afterUpper = updateTick(ticks, afterLower, p, tickUpper, delta, -1n);
  if (afterUpper === false) return { ok: false, reason: `liquidityGross of tick ${tickUpper} unknown or out of range` };
  let liquidity = BigInt(p.liquidity);
  if (tickLower <= p.tick && p.tick < tickUpper) liquidity += delta;
  if (liquidity < 0n || liquidity > U128) return { ok: false, reason: 'in-range liquidity out of range' };
  const state: P = {
    ...p,
    ticks,
    liquidity: liquidity.toString(),
    ...outsideAfterPosition(p, ticks, [tickLower, tickUpper]),
    ...(afterUpper ? { grossByTick: afterUpper } : {}),
  };
  return { ok: true, state };
}

/**
 * Applies one Uniswap v3 (or PancakeSwap v3) pool log to snapshot state. Swap (either fork's event): sqrtPriceX96, tick and liquidity as the event states
 * them, balances by the signed amounts, the fee-growth state (feeGrowthAfterSwap); a tick whose bitmap word moves
 * the window a fresh seed would read is a re-read. Mint / Burn: both ticks' liquidityNet and liquidityGross inside the window (a tick appears or disappears
 * with its bitmap bit, its fee-growth-outside state as Tick.update sets it), in-range liquidity when tickLower ≤
 * tick < tickUpper; Mint adds amount0/amount1 to the
 * balances, Burn moves no token (Collect does). Collect / CollectProtocol: balances out. Flash: balances in by the
 * fees paid, and the fee growth of each token paid non-zero. Token transfers to the pool by anyone else (donations) emit no pool event and are invisible.
 */
export function applyV3Event(state: SnapshotPoolV3, log: PoolLog, context: EventContext): Outcome {
  const p = state as FollowedPoolV3;
  const topic = log.topics[0]?.toLowerCase();
  const fail = (): Outcome => reread(`malformed v3 log ${topic}`);
  switch (topic) {
    case V3_SWAP:
    case PANCAKE_V3_SWAP: {
      // PancakeSwap's two more words (the protocol's share of the fee) move nothing the state keeps: it stays in the
      // pool's balances until CollectProtocol.
      const pancake = topic === PANCAKE_V3_SWAP;
      const w = logWords(log, 3, pancake ? 7 : 5);
      if (!w) return fail();
      const tick = Number(signedWord(w[4]));
      if (w[2] >> 160n !== 0n || w[3] > U128 || tick < MIN_TICK || tick > MAX_TICK) return fail();
      if (pancake && (w[5] > U128 || w[6] > U128)) return fail();
      const moved = moveBalances(p, signedWord(w[0]), signedWord(w[1]));
      if (!moved) return reread('Swap moves a balance below zero');
      const window = tickWindow(tick, p.tickSpacing, context.tickWindowWords);
      if (window[0] !== p.bitmapWords[0] || window[1] !== p.bitmapWords[1]) return reread(`price left its tick window (tick ${tick})`);
      const amount0 = signedWord(w[0]);
      const [inBit, amountIn] = amount0 > 0n ? ([0, amount0] as const) : ([1, signedWord(w[1])] as const);
      const growth = feeGrowthAfterSwap(p, tick, inBit, p.fee > 0 && amountIn > 0n);
      return { ok: true, state: { ...moved, ...growth, sqrtPriceX96: w[2].toString(), tick, liquidity: w[3].toString() } };
    }
    case V3_MINT: {
      const w = logWords(log, 4, 4);
      if (!w || w[1] > U128) return fail();
      const moved = moveBalances(p, w[2], w[3]);
      if (!moved) return fail();
      return modifyPosition(moved, Number(signedWord(log.topics[2])), Number(signedWord(log.topics[3])), w[1]);
    }
    case V3_BURN: {
      const w = logWords(log, 4, 3);
      if (!w || w[0] > U128) return fail();
      return modifyPosition(p, Number(signedWord(log.topics[2])), Number(signedWord(log.topics[3])), -w[0]);
    }
    case V3_COLLECT: {
      const w = logWords(log, 4, 3);
      const moved = w && moveBalances(p, -w[1], -w[2]);
      return moved ? { ok: true, state: moved } : fail();
    }
    case V3_FLASH: {
      const w = logWords(log, 3, 4);
      const moved = w && moveBalances(p, w[2], w[3]);
      if (!moved) return fail();
      // Flash adds the fees paid (less the protocol's share, never all of it) to the global fee growth.
      const set = p.feeGrowthGlobalSet;
      if (set === undefined) return { ok: true, state: moved };
      return { ok: true, state: { ...moved, feeGrowthGlobalSet: [set[0] || w[2] > 0n, set[1] || w[3] > 0n] } };
    }
    case V3_COLLECT_PROTOCOL: {
      const w = logWords(log, 3, 2);
      const moved = w && moveBalances(p, -w[0], -w[1]);
      return moved ? { ok: true, state: moved } : fail();
    }
    default:
      return reread(`unexpected v3 event ${topic ?? '(no topic)'}`);
  }
}
