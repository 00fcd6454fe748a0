import { type Address, parseAbi } from 'viem';
import { eventTopic, logWords, topicAddress, wordAddress } from '../logWords.ts';
import { type PoolSource, viewCall } from '../PoolSource.ts';
import type { SnapshotPoolV2 } from './SnapshotPoolV2.ts';

const factoryAbi = parseAbi(['function getPair(address tokenA, address tokenB) view returns (address pair)']);
const pairAbi = parseAbi([
  'function getReserves() view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast)',
  'function price0CumulativeLast() view returns (uint256)',
]);
const PAIR_CREATED = eventTopic('PairCreated(address,address,address,uint256)');

type Reserves = readonly [bigint, bigint, number];

/**
 * Uniswap v2-style pairs on a chain: found by the DEX's factory getPair (its one fee is the catalogue's feeBps), read
 * by getReserves and price0CumulativeLast (whether a swap writes its accumulators from zero), created by PairCreated.
 */
export const uniswapV2Source: PoolSource<SnapshotPoolV2> = {
  version: 'v2',
  discovery: (dex) =>
    dex.v2FactoryAddress ? { factory: dex.v2FactoryAddress, fees: [dex.feeBps * 100], fromBlock: dex.factoryDeploymentBlock } : undefined,
  findPool: (factory, token0, token1) => viewCall<Address>(factory, factoryAbi, 'getPair', [token0, token1]),
  creationTopic: PAIR_CREATED,
  discoveryTopics: [PAIR_CREATED],
  created(log) {
    const w = log.topics[0]?.toLowerCase() === PAIR_CREATED ? logWords(log, 3, 2) : undefined;
    return w && { address: wordAddress(w[0]), token0: topicAddress(log.topics[1]), token1: topicAddress(log.topics[2]) };
  },
  readState(pool) {
    let reserves: Reserves | undefined;
    let cumulative: bigint | undefined;
    return {
      calls: (phase) =>
        phase === 'state' ? [viewCall(pool.address, pairAbi, 'getReserves'), viewCall(pool.address, pairAbi, 'price0CumulativeLast')] : [],
      take(phase, results) {
        if (phase !== 'state') return;
        reserves = results[0] as Reserves | undefined;
        cumulative = results[1] as bigint | undefined;
      },
      finish(balance0, balance1) {
        if (reserves === undefined) return { ok: false, reason: 'state reads failed' };
        const { address, dex, token0, token1, fee } = pool;
        const state: SnapshotPoolV2 = {
          address,
          dex,
          version: 'v2',
          token0,
          token1,
          fee,
          balance0: balance0.toString(),
          balance1: balance1.toString(),
          reserve0: reserves[0].toString(),
          reserve1: reserves[1].toString(),
          // A pair without the accumulator (a fork that dropped it) is left unknown: charged as cold.
          ...(cumulative === undefined ? {} : { priceCumulativeSet: cumulative !== 0n }),
        };
        return { ok: true, state };
      },
    };
  },
};
