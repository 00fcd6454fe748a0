import { countAtOrBelow } from '../../amm/countAtOrBelow.ts';
import type { V3Pool } from '../../amm/v3Pool.ts';

/** What a v3 pool's state says about its fee-growth slots: which hold a value (undefined: unknown). */
export interface V3SlotState {
  /** feeGrowthGlobal0X128 ≠ 0, feeGrowthGlobal1X128 ≠ 0; undefined when the snapshot does not say. */
  readonly feeGrowthSet: readonly [boolean, boolean] | undefined;
  /** Per initialized tick, bit 0 feeGrowthOutside0X128 ≠ 0, bit 1 feeGrowthOutside1X128 ≠ 0 (absent: both zero). */
  readonly outsideSet: ReadonlyMap<number, number>;
}

/**
 * Storage slots of the pool that UniswapV3Pool.swap writes from zero, for a swap the tick walk ended at `tickAfter`
 * with `liquidityAfter`: the input side's feeGrowthGlobal while it is zero (the swap's fee makes it non-zero); at
 * each initialized tick crossed (zeroForOne: tickAfter < t ≤ tick; else tick < t ≤ tickAfter, as the walk crosses
 * them), each feeGrowthOutside that is zero while the matching global is not (Tick.cross writes global - outside);
 * the in-range liquidity when the swap starts where there is none. Unknown state counts every such write as cold.
 * The oracle write is never cold: Oracle.grow pre-fills every new observation slot (blockTimestamp = 1).
 */
export function v3ColdSlots(
  pool: V3Pool,
  slots: V3SlotState,
  zeroForOne: boolean,
  amountIn: bigint,
  tickAfter: number,
  liquidityAfter: bigint,
): number {
  const known = slots.feeGrowthSet;
  const inBit = zeroForOne ? 0 : 1;
  const accrues = pool.fee > 0 && amountIn > 0n;
  let cold = 0;
  if (accrues && !(known?.[inBit] ?? false)) cold++;
  const globalIn = known === undefined || known[inBit] || accrues;
  const globalOut = known === undefined || known[1 - inBit];
  // Two lets, not a destructured pair: an array per ladder amount.
  const low = zeroForOne ? tickAfter : pool.tick;
  const high = zeroForOne ? pool.tick : tickAfter;
  const ticks = pool.initializedTicks;
  for (let i = countAtOrBelow(ticks, low), end = countAtOrBelow(ticks, high); i < end; i++) {
    const set = known === undefined ? 0 : (slots.outsideSet.get(ticks[i]) ?? 0);
    if (globalIn && !((set >> inBit) & 1)) cold++;
    if (globalOut && !((set >> (1 - inBit)) & 1)) cold++;
  }
  if (pool.liquidity === 0n && liquidityAfter !== 0n) cold++;
  return cold;
}
