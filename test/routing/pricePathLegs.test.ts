// pricePath's legs (src/routing/priceRoutes.ts): a v4 pool's leg carries its PoolKey beyond its currencies (Leg.poolKey:
// the Universal Router's V4 actions encode it) as the leg's last field, the fee, tick spacing and hooks of the pool's
// key as the snapshot states them; a v3 pool's leg has no such field. Amounts: each pool's own ladder (quoteLadder).
import t from 'tap';
import type { PoolEntry } from '../../src/graph/ChainPoolIndex.ts';
import type { Pool } from '../../src/protocols/registry.ts';
import { uniswapV3 } from '../../src/protocols/uniswapV3/uniswapV3.ts';
import type { SnapshotPoolV4 } from '../../src/protocols/uniswapV4/SnapshotPoolV4.ts';
import { uniswapV4 } from '../../src/protocols/uniswapV4/uniswapV4.ts';
import { POOL_NATIVE } from '../../src/routing/nativePools.ts';
import { legsOf, type PathHops, type PricedPath, pricePath, pricePathHops } from '../../src/routing/priceRoutes.ts';

const WETH = '0x1111111111111111111111111111111111111111';
const DAI = '0x3333333333333333333333333333333333333333';
const L = 10n ** 24n;
const state = {
  dex: 'uniswap',
  balance0: '0',
  balance1: '0',
  sqrtPriceX96: (2n << 96n).toString(),
  tick: 13862,
  liquidity: L.toString(),
  bitmapWords: [-58, 57] as [number, number],
  ticks: [
    [-887220, L.toString()],
    [887220, (-L).toString()],
  ] as [number, string][],
};
/** ETH/DAI, fee 0.05% on a tick spacing of 60 (free in v4), hookless. */
const v4Snapshot: SnapshotPoolV4 = {
  ...state,
  version: 'v4',
  address: `0x${'ab'.repeat(32)}`,
  token0: POOL_NATIVE,
  token1: DAI,
  fee: 500,
  poolManager: '0x000000000004444c5dc75cB358380D2e3dE08A90',
  hooks: '0x0000000000000000000000000000000000000000',
  tickSpacing: 60,
  lpFee: 500,
  protocolFee: 0,
};
const v4 = uniswapV4.fromSnapshot(v4Snapshot) as Pool;
/** WETH/DAI as a v3 pool of the same state, fee 0.3%. */
const v3 = uniswapV3.fromSnapshot({
  ...state,
  version: 'v3',
  address: '0x4444444444444444444444444444444444444444',
  token0: WETH,
  token1: DAI,
  fee: 3000,
  tickSpacing: 60,
}) as Pool;
const path = (pools: Pool[], tokens: string[]): PricedPath => ({ path: { pools: pools.map(() => ({}) as PoolEntry), tokens }, pools });
const amounts = [10n ** 15n, 2n * 10n ** 15n, 3n * 10n ** 15n];

t.test('a v4 leg ends with its PoolKey: fee, tick spacing, hooks of the pool key', async (t) => {
  const quotes = pricePath(path([v4], [WETH, DAI]), 'exactIn', amounts);
  const ladder = uniswapV4.quoteLadder(v4 as never, true, 'exactIn', amounts);
  t.equal(quotes.length, 3);
  for (const [i, q] of quotes.entries()) {
    if (!q.ok || !ladder[i].ok) throw new Error('refused');
    const leg = q.legs[0];
    t.strictSame(leg.poolKey, { fee: 500, tickSpacing: 60, hooks: '0x0000000000000000000000000000000000000000' });
    t.equal(Object.keys(leg).at(-1), 'poolKey', 'the key is the last field');
    t.strictSame([leg.tokenIn, leg.tokenOut, leg.amountIn, leg.amountOut], [POOL_NATIVE, DAI, amounts[i], ladder[i].amountOut]);
  }
});

t.test('a v3 leg has no PoolKey; a path through both carries it on its v4 leg only', async (t) => {
  const quotes = pricePath(path([v3, v4], [WETH, DAI, WETH]), 'exactIn', amounts);
  for (const q of quotes) {
    if (!q.ok) throw new Error('refused');
    t.notOk('poolKey' in q.legs[0], 'v3 leg');
    t.strictSame(q.legs[1].poolKey, { fee: 500, tickSpacing: 60, hooks: '0x0000000000000000000000000000000000000000' });
    t.strictSame([q.legs[1].tokenIn, q.legs[1].tokenOut], [DAI, POOL_NATIVE]);
    t.equal(q.legs[1].amountIn, q.legs[0].amountOut);
  }
});

t.test("legsOf makes a priced amount's legs as pricePath does: the v4 leg's PoolKey last, none on the v3 leg", async (t) => {
  const through = path([v3, v4], [WETH, DAI, WETH]);
  const quotes = pricePath(through, 'exactIn', amounts);
  const hops = pricePathHops(through, 'exactIn', amounts, -1);
  for (const [i, q] of quotes.entries()) {
    if (!q.ok || !Array.isArray(hops[i])) throw new Error('refused');
    const legs = legsOf(through, hops[i] as PathHops);
    t.strictSame(legs, q.legs);
    t.equal(Object.keys(legs[1]).at(-1), 'poolKey', 'the key is the last field');
    t.notOk('poolKey' in legs[0], 'v3 leg');
  }
});
