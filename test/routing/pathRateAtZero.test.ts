// pathRateAtZero (the first bound bestOtherPath ranks and cuts the paths beyond the steered ones by) takes each pool in
// the direction the path goes through it: a native ETH v4 pool joined to the wrapped token's node holds ETH there.
import t from 'tap';
import type { PoolEntry } from '../../src/graph/ChainPoolIndex.ts';
import type { Pool } from '../../src/protocols/registry.ts';
import type { SnapshotPoolV4 } from '../../src/protocols/uniswapV4/SnapshotPoolV4.ts';
import { uniswapV4 } from '../../src/protocols/uniswapV4/uniswapV4.ts';
import { POOL_NATIVE } from '../../src/routing/nativePools.ts';
import { pathRateAtZero } from '../../src/routing/pathCurve.ts';
import type { PricedPath } from '../../src/routing/priceRoutes.ts';

const WETH = '0x1111111111111111111111111111111111111111';
const DAI = '0x3333333333333333333333333333333333333333';
const L = 10n ** 24n;

/**
 * ETH/DAI, hookless, fee 0.3%, price 4 DAI units per wei (sqrtPriceX96 = 2 * 2^96), one full-range position: the
 * marginal rate at zero is 4 * 0.997 = 3.988 for ETH in, 0.25 * 0.997 = 0.24925 for DAI in.
 */
const snapshot: SnapshotPoolV4 = {
  version: 'v4',
  address: `0x${'ab'.repeat(32)}`,
  dex: 'uniswap',
  token0: POOL_NATIVE,
  token1: DAI,
  fee: 3000,
  balance0: '0',
  balance1: '0',
  poolManager: '0x000000000004444c5dc75cB358380D2e3dE08A90',
  hooks: '0x0000000000000000000000000000000000000000',
  tickSpacing: 60,
  lpFee: 3000,
  protocolFee: 0,
  sqrtPriceX96: (2n << 96n).toString(),
  tick: 13862,
  liquidity: L.toString(),
  bitmapWords: [-58, 57],
  ticks: [
    [-887220, L.toString()],
    [887220, (-L).toString()],
  ],
};
const pool = uniswapV4.fromSnapshot(snapshot) as Pool;

/** A one-pool path through `pool` between the nodes `tokens` (the pool entry is not read by pathRateAtZero). */
function path(tokens: [string, string]): PricedPath {
  return { path: { pools: [{} as PoolEntry], tokens }, pools: [pool] };
}

t.test('a native ETH pool entered at the wrapped token node is taken ETH in (zeroForOne)', async (t) => {
  t.ok(
    Math.abs(pathRateAtZero(path([WETH, DAI]), 'exactIn') / 3.988 - 1) < 1e-9,
    `${pathRateAtZero(path([WETH, DAI]), 'exactIn')} ≈ 3.988`,
  );
});

t.test('and left at that node, DAI in', async (t) => {
  t.ok(
    Math.abs(pathRateAtZero(path([DAI, WETH]), 'exactIn') / 0.24925 - 1) < 1e-9,
    `${pathRateAtZero(path([DAI, WETH]), 'exactIn')} ≈ 0.24925`,
  );
});
