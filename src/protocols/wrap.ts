import type { LadderQuote, PoolBase, PoolProtocol } from './PoolProtocol.ts';

/** The chain's native asset and its wrapped token (WETH9 deposit/withdraw) as a 1:1 pool without fee or state. */
export interface WrapPool extends PoolBase {
  readonly kind: 'wrap';
}

/** Builds the wrap pseudo-pool of a chain: native ↔ wrapped at 1:1. */
export function createWrapPool(nativeToken: string, wrappedToken: string): WrapPool {
  const a = nativeToken.toLowerCase();
  const b = wrappedToken.toLowerCase();
  return Object.freeze({ kind: 'wrap', address: wrappedToken, dex: '', version: '', token0: a < b ? a : b, token1: a < b ? b : a, fee: 0 });
}

/** WETH9's deposit and withdraw: every amount converts 1:1, in any size. */
export const wrap: PoolProtocol<WrapPool> = {
  kind: 'wrap',
  stateless: true,
  /** Nothing per hop: a wrap is priced by its call (src/routing/gasModel.ts). */
  gas: { hop: 0n, tick: 0n, exactOutNextHop: 0n, coldSlot: 0n, tickMove: 0n },
  source: undefined,
  fromSnapshot() {
    throw new Error('wrap pools are not in snapshots');
  },
  quoteLadder(_pool, _zeroForOne, _tradeType, amounts) {
    return amounts.map(
      (amount): LadderQuote => ({ ok: true, amountIn: amount, amountOut: amount, ticksCrossed: 0, coldSlots: 0, movesTick: false }),
    );
  },
  midPrice() {
    return { num: 1n, den: 1n };
  },
  snapshotMidPrice() {
    return { num: 1n, den: 1n };
  },
  describe() {
    return { isActive: true, tickSpacing: 0 };
  },
  stateSize() {
    return 0;
  },
  checkSnapshot() {
    return undefined;
  },
  fileState(state) {
    return state;
  },
  eventTopics: [],
  applyEvent() {
    return { ok: false, reason: 'wrap pools keep no state' };
  },
};
