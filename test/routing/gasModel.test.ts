// The gas model's arithmetic: the margin of a step's gasLimit, and per-transaction estimates (what each step gets)
// adding up to what the model charges a trade (callGas + routeGas, as bestTrade sums them).
import t from 'tap';
import type { ExecutorKind } from '../../src/routing/executors.ts';
import { callGas, GAS, gasLimit, routeGas, transactionGas, wrapGas } from '../../src/routing/gasModel.ts';
import type { Leg } from '../../src/routing/Trade.ts';

const leg = (kind: Leg['kind'], ticksCrossed = 0): Leg => ({
  pool: '0x0',
  kind,
  dex: 'uniswap',
  version: kind === 'uniswapV2' ? 'v2' : 'v3',
  fee: 500,
  tokenIn: 'a',
  tokenOut: 'b',
  amountIn: 1n,
  amountOut: 1n,
  ticksCrossed,
});

t.test('gasLimit: the estimate plus a quarter (rounded up) plus 50,000', async (t) => {
  t.equal(gasLimit(100_000n), 175_000n);
  t.equal(gasLimit(46_001n), 107_502n, '57,501.25 rounds up to 57,502');
  t.equal(gasLimit(0n), 50_000n);
});

t.test('routeGas: a hop by protocol and each tick crossed', async (t) => {
  t.equal(routeGas([leg('uniswapV3', 3), leg('uniswapV2')]), GAS.hop.uniswapV3 + 3n * GAS.tick + GAS.hop.uniswapV2);
});

t.test('transactionGas of each step adds up to callGas + routeGas for every router kind, native side and trade type', async (t) => {
  const routes = [[leg('uniswapV3', 2)], [leg('uniswapV2'), leg('uniswapV3')], [leg('uniswapV3'), leg('uniswapV3', 1)]];
  for (const tradeType of ['exactIn', 'exactOut'] as const) {
    for (const kind of ['UniswapV2Router02', 'SwapRouter', 'SwapRouter02'] as const satisfies readonly ExecutorKind[]) {
      for (const [nativeIn, nativeOut] of [
        [false, false],
        [true, false],
        [false, true],
      ] as const) {
        for (const n of [1, 2, 3]) {
          const some = routes.slice(0, n);
          // Router02 sends one transaction per route; the others one for all.
          const txs =
            kind === 'UniswapV2Router02'
              ? some.map((r) => transactionGas(kind, [r], nativeIn, nativeOut, tradeType))
              : [transactionGas(kind, some, nativeIn, nativeOut, tradeType)];
          const steps = (nativeIn ? 0n : GAS.approve) + txs.reduce((s, x) => s + x, 0n);
          const model = callGas(kind, n, nativeIn, nativeOut, !nativeIn, tradeType) + some.reduce((s, r) => s + routeGas(r, tradeType), 0n);
          t.equal(steps, model, `${tradeType}, ${kind}, ${n} route(s), native in ${nativeIn}, out ${nativeOut}`);
        }
      }
    }
  }
  t.equal(
    transactionGas('SwapRouter02', routes.slice(0, 2), false, true),
    GAS.call.SwapRouter02 + GAS.unwrapOut + GAS.sweep + 2n * GAS.hop.uniswapV3 + 2n * GAS.tick + GAS.hop.uniswapV2,
  );
});

t.test(
  'exact output: no sweep of an ERC-20 output (each route pays the recipient), the pull or the refund per transaction, v3 hops after the first cheaper',
  async (t) => {
    const twoV3 = [leg('uniswapV3'), leg('uniswapV3', 1)];
    t.equal(routeGas(twoV3, 'exactOut'), 2n * GAS.hop.uniswapV3 + GAS.tick - GAS.exactOut.nextHop.uniswapV3);
    t.equal(routeGas(twoV3, 'exactIn'), 2n * GAS.hop.uniswapV3 + GAS.tick);
    t.equal(
      routeGas([leg('uniswapV2'), leg('uniswapV2')], 'exactOut'),
      2n * GAS.hop.uniswapV2,
      'v2 pairs pay the next pair directly either way',
    );
    const split = [[leg('uniswapV3')], [leg('uniswapV3')]];
    t.equal(
      transactionGas('SwapRouter02', split, false, false, 'exactOut'),
      GAS.call.SwapRouter02 + GAS.exactOut.erc20Pull + 2n * GAS.hop.uniswapV3,
    );
    t.equal(
      transactionGas('SwapRouter02', split, false, true, 'exactOut'),
      GAS.call.SwapRouter02 + GAS.exactOut.erc20Pull + GAS.unwrapOut + GAS.sweep + 2n * GAS.hop.uniswapV3,
      'native output: unwrapped together',
    );
    t.equal(
      transactionGas('SwapRouter', split, true, false, 'exactOut'),
      GAS.call.SwapRouter + GAS.wrapIn + GAS.exactOut.refund + 2n * GAS.hop.uniswapV3,
      'native input: the refund',
    );
    t.equal(
      callGas('UniswapV2Router02', 2, false, false, true, 'exactOut'),
      GAS.approve + 2n * (GAS.call.UniswapV2Router02 + GAS.exactOut.erc20Pull),
    );
  },
);

t.test('approvalReset: each router pulling an ERC-20 input is charged two approve steps (the reset to 0, then the amount)', async (t) => {
  t.equal(
    callGas('SwapRouter02', 1, false, false, true, 'exactIn', true) - callGas('SwapRouter02', 1, false, false, true, 'exactIn'),
    GAS.approve,
  );
  t.equal(
    callGas('UniswapV2Router02', 2, false, false, true, 'exactIn', true),
    2n * GAS.approve + 2n * GAS.call.UniswapV2Router02,
    'one approval pair covers both transactions',
  );
  t.equal(
    callGas('SwapRouter', 1, false, true, false, 'exactIn', true),
    callGas('SwapRouter', 1, false, true, false),
    'no ERC-20 input: no approval',
  );
});

t.test('WETH9: a wrap and an unwrap are priced apart, without approval', async (t) => {
  t.equal(wrapGas(true), GAS.weth9.call + GAS.weth9.deposit);
  t.equal(wrapGas(false), GAS.weth9.call + GAS.weth9.withdraw);
});
