import { type Address, parseAbi } from 'viem';
import { eventTopic, logWords, topicAddress, wordAddress } from '../logWords.ts';
import { type PoolSource, type ReadCall, viewCall } from '../PoolSource.ts';
import { type FollowedPoolV3, tickWindow } from './uniswapV3Events.ts';

const factoryAbi = parseAbi(['function getPool(address tokenA, address tokenB, uint24 fee) view returns (address pool)']);
const poolAbi = parseAbi([
  'function factory() view returns (address)',
  'function token0() view returns (address)',
  'function token1() view returns (address)',
  // feeProtocol: uint8 in Uniswap v3, uint32 in PancakeSwap v3 (two 16-bit shares); both are one ABI word, read as the wider.
  'function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16 observationIndex, uint16 observationCardinality, uint16 observationCardinalityNext, uint32 feeProtocol, bool unlocked)',
  'function liquidity() view returns (uint128)',
  'function fee() view returns (uint24)',
  'function tickSpacing() view returns (int24)',
  'function feeGrowthGlobal0X128() view returns (uint256)',
  'function feeGrowthGlobal1X128() view returns (uint256)',
  'function tickBitmap(int16 wordPosition) view returns (uint256)',
  'function ticks(int24 tick) view returns (uint128 liquidityGross, int128 liquidityNet, uint256 feeGrowthOutside0X128, uint256 feeGrowthOutside1X128, int56 tickCumulativeOutside, uint160 secondsPerLiquidityOutsideX128, uint32 secondsOutside, bool initialized)',
]);
const POOL_CREATED = eventTopic('PoolCreated(address,address,uint24,int24,address)');
/** A pool created before its price is set waits for Initialize (a v3 pool emits nothing before it). */
const INITIALIZE = eventTopic('Initialize(uint160,int24)');

type Slot0 = readonly [bigint, number, number, number, number, number, boolean];
type TickInfo = readonly [bigint, bigint, bigint, bigint, bigint, bigint, number, boolean];

/**
 * Uniswap v3 pools and their PancakeSwap v3 fork (docs/pancakeswap-v3.md: same pool reads and creation log, slot0's
 * feeProtocol wider) on a chain: found by the factory's getPool for each of the DEX's fee tiers, read in three phases
 * (slot0, liquidity, fee, tickSpacing, whether each fee growth is non-zero; the tick-bitmap words of the window,
 * current word ± tickWindowWords clamped; liquidityNet, liquidityGross and which fee-growth-outside values are
 * non-zero of every initialized tick in it), created by PoolCreated and priceable after
 * Initialize. The state keeps liquidityGross per tick for the follower (FollowedPoolV3).
 */
export const uniswapV3Source: PoolSource<FollowedPoolV3> = {
  version: 'v3',
  discovery: (dex) =>
    dex.v3FactoryAddress ? { factory: dex.v3FactoryAddress, fees: dex.feeTiers, fromBlock: dex.factoryDeploymentBlock } : undefined,
  findPool: (factory, token0, token1, fee) => viewCall<Address>(factory, factoryAbi, 'getPool', [token0, token1, fee]),
  creationTopic: POOL_CREATED,
  discoveryTopics: [POOL_CREATED, INITIALIZE],
  created(log) {
    const w = log.topics[0]?.toLowerCase() === POOL_CREATED ? logWords(log, 4, 2) : undefined;
    return (
      w && {
        address: wordAddress(w[1]),
        token0: topicAddress(log.topics[1]),
        token1: topicAddress(log.topics[2]),
        fee: Number(BigInt(log.topics[3])),
      }
    );
  },
  identify: {
    topic: INITIALIZE,
    calls: (pool) => (['factory', 'token0', 'token1', 'fee'] as const).map((name) => viewCall(pool, poolAbi, name)),
    decode(pool, results) {
      const [factory, token0, token1, fee] = results as [Address?, Address?, Address?, number?];
      if (factory === undefined || token0 === undefined || token1 === undefined || fee === undefined) return undefined;
      return { address: pool, factory, token0, token1, fee };
    },
  },
  readState(pool, tickWindowWords) {
    const { address } = pool;
    let basics:
      | { slot0: Slot0; liquidity: bigint; fee: number; tickSpacing: number; words: [number, number]; feeGrowth: [boolean, boolean] }
      | undefined;
    let dropped: { reason: string; pending?: boolean } | undefined;
    const initialized: number[] = [];
    const ticks: [number, string][] = [];
    const gross: Record<string, string> = {};
    const outside: Record<string, number> = {};
    return {
      calls(phase): ReadCall<unknown>[] {
        if (phase === 'state')
          return (['slot0', 'liquidity', 'fee', 'tickSpacing', 'feeGrowthGlobal0X128', 'feeGrowthGlobal1X128'] as const).map((name) =>
            viewCall(address, poolAbi, name),
          );
        if (!basics) return [];
        if (phase === 'bitmap') {
          const calls: ReadCall<unknown>[] = [];
          for (let word = basics.words[0]; word <= basics.words[1]; word++) calls.push(viewCall(address, poolAbi, 'tickBitmap', [word]));
          return calls;
        }
        return initialized.map((tick) => viewCall(address, poolAbi, 'ticks', [tick]));
      },
      take(phase, results) {
        if (phase === 'state') {
          const [slot0, liquidity, fee, tickSpacing, growth0, growth1] = results as [Slot0?, bigint?, number?, number?, bigint?, bigint?];
          if (
            slot0 === undefined ||
            liquidity === undefined ||
            fee === undefined ||
            tickSpacing === undefined ||
            growth0 === undefined ||
            growth1 === undefined
          )
            dropped = { reason: 'state reads failed' };
          else if (slot0[0] === 0n) dropped = { reason: 'not initialized (sqrtPriceX96 = 0)', pending: true };
          else
            basics = {
              slot0,
              liquidity,
              fee,
              tickSpacing,
              words: tickWindow(slot0[1], tickSpacing, tickWindowWords),
              feeGrowth: [growth0 !== 0n, growth1 !== 0n],
            };
        } else if (phase === 'bitmap' && basics) {
          const { words, tickSpacing } = basics;
          results.forEach((value, i) => {
            const word = words[0] + i;
            if (value === undefined) throw new Error(`tickBitmap(${word}) of ${address} failed`);
            const bits = value as bigint;
            for (let bit = 0; bits !== 0n && bit < 256; bit++)
              if ((bits >> BigInt(bit)) & 1n) initialized.push((word * 256 + bit) * tickSpacing);
          });
        } else if (phase === 'ticks') {
          results.forEach((value, i) => {
            const tick = initialized[i];
            if (value === undefined) throw new Error(`ticks(${tick}) of ${address} failed`);
            const info = value as TickInfo;
            ticks.push([tick, info[1].toString()]);
            gross[tick] = info[0].toString();
            const set = (info[2] !== 0n ? 1 : 0) | (info[3] !== 0n ? 2 : 0);
            if (set !== 0) outside[tick] = set;
          });
        }
      },
      finish(balance0, balance1) {
        if (!basics) return { ok: false, ...(dropped ?? { reason: 'state reads failed' }) };
        const { dex, token0, token1 } = pool;
        const state: FollowedPoolV3 = {
          address,
          dex,
          version: 'v3',
          token0,
          token1,
          fee: basics.fee,
          balance0: balance0.toString(),
          balance1: balance1.toString(),
          sqrtPriceX96: basics.slot0[0].toString(),
          tick: basics.slot0[1],
          liquidity: basics.liquidity.toString(),
          tickSpacing: basics.tickSpacing,
          bitmapWords: basics.words,
          ticks: ticks.sort((a, b) => a[0] - b[0]),
          feeGrowthGlobalSet: basics.feeGrowth,
          feeGrowthOutsideSet: outside,
          grossByTick: gross,
        };
        return { ok: true, state };
      },
    };
  },
};
