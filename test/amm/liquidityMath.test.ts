import t from 'tap';
import { addDelta } from '../../src/amm/liquidityMath.ts';
import { b, j, v3sdk } from './oracle.ts';

t.test('addDelta equals @uniswap/v3-sdk LiquidityMath.addDelta and reverts like LiquidityMath.sol', async (t) => {
  const cases: [bigint, bigint][] = [
    [1n, 0n],
    [1n, -1n],
    [1n, 1n],
    [(1n << 128n) - 15n, 14n],
    [10n ** 20n, -(10n ** 19n)],
  ];
  for (const [x, y] of cases) t.equal(addDelta(x, y), b(v3sdk.LiquidityMath.addDelta(j(x), j(y))), `${x} + ${y}`);
  // v3-core LiquidityMath.spec: 2^128 - 15 + 15 overflows ('LA'); 0 - 1 and 3 - 4 underflow ('LS').
  t.throws(() => addDelta((1n << 128n) - 15n, 15n), { code: 'LIQUIDITY_OVERFLOW' });
  t.throws(() => addDelta(0n, -1n), { code: 'LIQUIDITY_UNDERFLOW' });
  t.throws(() => addDelta(3n, -4n), { code: 'LIQUIDITY_UNDERFLOW' });
});
