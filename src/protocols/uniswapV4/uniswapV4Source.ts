import { type Address, encodeAbiParameters, getAddress, type Hex, keccak256, parseAbi, toHex } from 'viem';
import { eventTopic, logWords, signedWord, topicAddress, wordAddress } from '../logWords.ts';
import { isV4Key, type PoolSource, type ReadCall, viewCall } from '../PoolSource.ts';
import { tickWindow } from '../uniswapV3/uniswapV3Events.ts';
import { type FollowedPoolV4, V4_EVENT_TOPICS } from './uniswapV4Events.ts';
import { protocolFeesAccruedAbi } from './v4AccruedState.ts';
import { v4Balances } from './v4Balances.ts';

const rangeAbi = parseAbi(['function extsload(bytes32 startSlot, uint256 nSlots) view returns (bytes32[])']);
const slotsAbi = parseAbi(['function extsload(bytes32[] slots) view returns (bytes32[])']);

/** IPoolManager's Initialize: id, currency0, currency1 indexed; fee, tickSpacing, hooks, sqrtPriceX96, tick in data. */
const INITIALIZE = eventTopic('Initialize(bytes32,address,address,uint24,int24,address,uint160,int24)');

/** The PoolManager's events that name a pool in topic1: Initialize and every event applyV4Event follows. */
const V4_POOL_TOPICS: ReadonlySet<string> = new Set([INITIALIZE, ...V4_EVENT_TOPICS]);

/** StateLibrary's layout of PoolManager storage: the pools mapping's slot and each Pool.State field's offset. */
const POOLS_SLOT = 6n;
const TICKS_OFFSET = 4n;
const TICK_BITMAP_OFFSET = 5n;
/** Slots per extsload(bytes32[]) call (a tick takes three: liquidity word, feeGrowthOutside0, feeGrowthOutside1). */
const SLOTS_PER_CALL = 240;

const U128 = (1n << 128n) - 1n;
const word = (x: bigint): Hex => toHex(BigInt.asUintN(256, x), { size: 32 });
/** keccak256(abi.encodePacked(key, mappingSlot)) for a 32-byte key: a Solidity mapping entry's slot. */
const entrySlot = (key: bigint, mapping: bigint): bigint =>
  BigInt(keccak256(encodeAbiParameters([{ type: 'bytes32' }, { type: 'bytes32' }], [word(key), word(mapping)])));

/** The slot of a pool's Pool.State (StateLibrary._getPoolStateSlot): slot0; +1, +2 fee growth; +3 liquidity. */
export function v4PoolStateSlot(poolId: Hex): bigint {
  return entrySlot(BigInt(poolId), POOLS_SLOT);
}

/**
 * Uniswap v4 pools: created by the PoolManager's Initialize log (the pool is priceable from it, its key's tick
 * spacing and hooks come from it), read from the PoolManager's storage through its extsload in three phases (slot0,
 * fee growth and liquidity in one ranged read; the tick-bitmap words of the window; each initialized tick's
 * liquidity word and fee growth outside), StateLibrary's layout, the reads StateView makes. A pool's `address` is its
 * poolId. No factory lookup exists (a poolId needs the whole key): discovery() names the catalogue's PoolManager
 * with no fees, so a v4 entry finds pools by logs only (from its factoryDeploymentBlock).
 */
export const uniswapV4Source: PoolSource<FollowedPoolV4> = {
  version: 'v4',
  // No fees to look pools up by: a poolId needs the whole key, so only the PoolManager's Initialize logs find them.
  discovery: (dex) =>
    dex.version === 'v4' && dex.v4PoolManagerAddress
      ? {
          factory: dex.v4PoolManagerAddress,
          fees: [],
          ...(dex.factoryDeploymentBlock === undefined ? {} : { fromBlock: dex.factoryDeploymentBlock }),
        }
      : undefined,
  findPool() {
    throw new Error('v4 pools are found by Initialize logs only (a poolId needs the whole PoolKey)');
  },
  creationTopic: INITIALIZE,
  discoveryTopics: [INITIALIZE],
  created(log) {
    const w = log.topics[0]?.toLowerCase() === INITIALIZE ? logWords(log, 4, 5) : undefined;
    if (!w || w[0] > 0xffffffn) return undefined;
    const tickSpacing = Number(signedWord(w[1]));
    return {
      address: log.topics[1].toLowerCase() as Address,
      token0: topicAddress(log.topics[2]),
      token1: topicAddress(log.topics[3]),
      fee: Number(w[0]),
      key: { poolManager: getAddress(log.address), tickSpacing, hooks: wordAddress(w[2]) },
    };
  },
  loggedPool(log) {
    return V4_POOL_TOPICS.has(log.topics[0]?.toLowerCase() ?? '') && log.topics[1] ? log.topics[1].toLowerCase() : undefined;
  },
  keyOf: (state) => ({ poolManager: getAddress(state.poolManager), tickSpacing: state.tickSpacing, hooks: getAddress(state.hooks) }),
  ownBalances: false,
  readState(pool, tickWindowWords) {
    const key = isV4Key(pool.key) ? pool.key : undefined;
    const poolId = pool.address as Hex;
    const stateSlot = v4PoolStateSlot(poolId);
    let basics: { slot0: bigint; liquidity: bigint; words: [number, number]; feeGrowth: [boolean, boolean] } | undefined;
    let dropped: { reason: string; pending?: boolean } | undefined = key
      ? undefined
      : { reason: 'no PoolKey (tick spacing, hooks) from an Initialize log' };
    const initialized: number[] = [];
    /** protocolFeesAccrued of currency0 and currency1 ≠ 0: read (with the bitmap) only for a pool charging a protocol fee. */
    let accrued: [boolean, boolean] | undefined;
    const chargesProtocolFee = (): boolean => basics !== undefined && ((basics.slot0 >> 184n) & 0xffffffn) !== 0n;
    const ticks: [number, bigint][] = [];
    const outside: Record<string, number> = {};
    const gross: Record<string, string> = {};
    const slotCalls = (slots: bigint[]): ReadCall<unknown>[] => {
      const calls: ReadCall<unknown>[] = [];
      for (let i = 0; i < slots.length; i += SLOTS_PER_CALL)
        calls.push(viewCall(key!.poolManager, slotsAbi, 'extsload', [slots.slice(i, i + SLOTS_PER_CALL).map(word)]));
      return calls;
    };
    const values = (results: readonly unknown[], what: string): bigint[] =>
      results.flatMap((r) => {
        if (r === undefined) throw new Error(`extsload of ${what} of v4 pool ${poolId} failed`);
        return (r as readonly Hex[]).map((x) => BigInt(x));
      });
    const tickSlot = (tick: number): bigint => entrySlot(BigInt(tick), stateSlot + TICKS_OFFSET);
    return {
      calls(phase) {
        if (!key) return [];
        if (phase === 'state') return [viewCall(key.poolManager, rangeAbi, 'extsload', [word(stateSlot), 4n])];
        if (!basics) return [];
        if (phase === 'bitmap') {
          const slots: bigint[] = [];
          for (let w = basics.words[0]; w <= basics.words[1]; w++) slots.push(entrySlot(BigInt(w), stateSlot + TICK_BITMAP_OFFSET));
          const accruedCalls = chargesProtocolFee()
            ? [pool.token0, pool.token1].map((c) =>
                viewCall(key.poolManager, protocolFeesAccruedAbi, 'protocolFeesAccrued', [getAddress(c)]),
              )
            : [];
          return [...slotCalls(slots), ...accruedCalls];
        }
        return slotCalls(initialized.flatMap((t) => [tickSlot(t), tickSlot(t) + 1n, tickSlot(t) + 2n]));
      },
      take(phase, results) {
        if (!key) return;
        if (phase === 'state') {
          const got = results[0] as readonly Hex[] | undefined;
          if (got?.length !== 4) dropped = { reason: 'state reads failed' };
          else {
            const [slot0, growth0, growth1, liquidity] = got.map((x) => BigInt(x));
            const sqrtPriceX96 = slot0 & ((1n << 160n) - 1n);
            if (sqrtPriceX96 === 0n) dropped = { reason: 'not initialized (sqrtPriceX96 = 0)', pending: true };
            else {
              const tick = Number(BigInt.asIntN(24, slot0 >> 160n));
              const words = tickWindow(tick, key.tickSpacing, tickWindowWords);
              basics = { slot0, liquidity: liquidity & U128, words, feeGrowth: [growth0 !== 0n, growth1 !== 0n] };
            }
          }
        } else if (phase === 'bitmap' && basics) {
          const fees = chargesProtocolFee() ? results.slice(-2) : [];
          if (fees.length > 0) {
            if (fees.some((r) => typeof r !== 'bigint')) throw new Error(`protocolFeesAccrued of v4 pool ${poolId}'s currencies failed`);
            accrued = [fees[0] !== 0n, fees[1] !== 0n];
          }
          values(results.slice(0, results.length - fees.length), 'the tick bitmap').forEach((bits, i) => {
            const w = basics!.words[0] + i;
            for (let bit = 0; bits !== 0n && bit < 256; bit++)
              if ((bits >> BigInt(bit)) & 1n) initialized.push((w * 256 + bit) * key.tickSpacing);
          });
        } else if (phase === 'ticks' && basics) {
          const got = values(results, 'ticks');
          initialized.forEach((tick, i) => {
            ticks.push([tick, BigInt.asIntN(128, got[3 * i] >> 128n)]);
            gross[tick] = (got[3 * i] & U128).toString();
            const set = (got[3 * i + 1] !== 0n ? 1 : 0) | (got[3 * i + 2] !== 0n ? 2 : 0);
            if (set !== 0) outside[tick] = set;
          });
        }
      },
      finish() {
        if (!basics || !key) return { ok: false, ...(dropped ?? { reason: 'state reads failed' }) };
        const { slot0, liquidity } = basics;
        const sqrtPriceX96 = slot0 & ((1n << 160n) - 1n);
        const tick = Number(BigInt.asIntN(24, slot0 >> 160n));
        ticks.sort((a, b) => a[0] - b[0]);
        const [balance0, balance1] = v4Balances(sqrtPriceX96, tick, liquidity, ticks);
        const state: FollowedPoolV4 = {
          address: poolId.toLowerCase(),
          dex: pool.dex,
          version: 'v4',
          token0: pool.token0,
          token1: pool.token1,
          fee: pool.fee,
          balance0: balance0.toString(),
          balance1: balance1.toString(),
          poolManager: key.poolManager,
          hooks: key.hooks,
          tickSpacing: key.tickSpacing,
          lpFee: Number((slot0 >> 208n) & 0xffffffn),
          protocolFee: Number((slot0 >> 184n) & 0xffffffn),
          sqrtPriceX96: sqrtPriceX96.toString(),
          tick,
          liquidity: liquidity.toString(),
          bitmapWords: basics.words,
          ticks: ticks.map(([t, net]) => [t, net.toString()] as const),
          feeGrowthGlobalSet: basics.feeGrowth,
          feeGrowthOutsideSet: outside,
          ...(accrued ? { protocolFeesAccruedSet: accrued } : {}),
          grossByTick: gross,
        };
        return { ok: true, state };
      },
    };
  },
};
