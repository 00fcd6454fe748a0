// Uniswap SwapRouter02 (swap-router-contracts) steps from buildTradeSteps, on Ethereum's catalogue: always
// multicall(deadline, bytes[]); v3 sections exactInputSingle / exactInput (packed path), v2 sections
// swapExactTokensForTokens(amountIn, amountOutMin, path, to); a section that is not a route's last pays
// ADDRESS_THIS (address(2)) and the next one swaps CONTRACT_BALANCE (amountIn 0); one route pays the recipient
// directly, several pay the router and sweepToken / unwrapWETH9 pays the sum with the minimum; refundETH after
// native input. Decoded with the compiled contract's ABI.
import t from 'tap';
import type { CatalogChain } from '../../../src/catalog/Catalog.ts';
import { loadCatalog } from '../../../src/catalog/loadCatalog.ts';
import { buildTradeSteps } from '../../../src/tx/buildTradeSteps.ts';
import { executorOf, routeOf, tokenOf, tradeOf } from '../../helpers/handTrades.ts';
import {
  ADDRESS_THIS,
  type DecodedCall,
  decode,
  decodeMulticall,
  ERC20_ABI,
  parsePackedPath,
  SWAP_ROUTER02_ABI,
} from '../../helpers/routerCalldata.ts';
import { APPROVE_LIMIT, swapLimit } from '../../helpers/stepGas.ts';

const chain = loadCatalog().chain('ethereum') as CatalogChain;
const ROUTER = '0x68b3465833fb72A70ecDF485E0e4C7bD8665Fc45';
const WALLET = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const RECIPIENT = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const [WETH, USDC, USDT, WBTC, DAI, LINK, AAVE] = ['WETH', 'USDC', 'USDT', 'WBTC', 'DAI', 'LINK', 'AAVE'].map(
  (s) => tokenOf(chain, s).address,
);
const router = executorOf(chain, 'SwapRouter02');
const params = { chain, recipient: RECIPIENT, wallet: WALLET, deadline: 1_900_000_000 };
const E18 = 10n ** 18n;

/** exactInputSingle / exactInput params with the packed path parsed. */
function view(call: DecodedCall): unknown {
  if (call.functionName !== 'exactInput' && call.functionName !== 'exactOutput') return call;
  const p = call.args[0] as { path: `0x${string}` };
  return { functionName: call.functionName, args: [{ ...p, path: parsePackedPath(p.path) }] };
}
const single = (tokenIn: string, tokenOut: string, fee: number, recipient: string, amountIn: bigint, amountOutMinimum: bigint) => ({
  functionName: 'exactInputSingle',
  args: [{ tokenIn, tokenOut, fee, recipient, amountIn, amountOutMinimum, sqrtPriceLimitX96: 0n }],
});
const multi = (tokens: string[], fees: number[], recipient: string, amountIn: bigint, amountOutMinimum: bigint) => ({
  functionName: 'exactInput',
  args: [{ path: { tokens, fees }, recipient, amountIn, amountOutMinimum }],
});
const v2 = (amountIn: bigint, amountOutMin: bigint, path: string[], to: string) => ({
  functionName: 'swapExactTokensForTokens',
  args: [amountIn, amountOutMin, path, to],
});

t.test('the executor is the catalogue SwapRouter02, which also swaps the Uniswap V2 pairs', async (t) => {
  t.strictSame([router.address, router.kind, router.name], [ROUTER, 'SwapRouter02', 'Uniswap V3 router']);
});

t.test('one pool: multicall(deadline, [exactInputSingle paying the recipient with the minimum])', async (t) => {
  const route = routeOf(chain, router, [
    {
      dex: 'uniswap/v3',
      fee: 500,
      from: 'USDC',
      to: 'WETH',
      amountIn: 2_500_000_000n,
      amountOut: 832_868_002_489_667_397n,
      ticksCrossed: 1,
    },
  ]);
  const steps = buildTradeSteps({
    ...params,
    trade: tradeOf([route]),
    tokenIn: tokenOf(chain, 'USDC'),
    tokenOut: tokenOf(chain, 'WETH'),
    amountOutMinimum: 828_703_662_477_219_060n,
  });
  t.strictSame(
    steps.map((s) => [s.message, s.to, s.amount, s.gasLimit]),
    [
      ['Approve 2500 USDC for Uniswap V3 router', USDC, '2500000000', APPROVE_LIMIT],
      ['Swap 2500 USDC for WETH on Uniswap V3', ROUTER, '2500000000', swapLimit('SwapRouter02', [route])],
    ],
  );
  t.strictSame(decode(ERC20_ABI, steps[0].data).args, [ROUTER, 2_500_000_000n]);
  const { deadline, calls } = decodeMulticall(SWAP_ROUTER02_ABI, steps[1].data);
  t.equal(deadline, 1_900_000_000n);
  t.strictSame(calls, [single(USDC, WETH, 500, RECIPIENT, 2_500_000_000n, 828_703_662_477_219_060n)]);
});

t.test('three v3 pools: one exactInput with the packed path, paying the recipient', async (t) => {
  const route = routeOf(chain, router, [
    { dex: 'uniswap/v3', fee: 100, from: 'DAI', to: 'USDC', amountIn: 10_000n * E18, amountOut: 9_999_000_000n },
    { dex: 'uniswap/v3', fee: 500, from: 'USDC', to: 'WETH', amountIn: 9_999_000_000n, amountOut: 3_330_000_000_000_000_000n },
    { dex: 'uniswap/v3', fee: 3000, from: 'WETH', to: 'LINK', amountIn: 3_330_000_000_000_000_000n, amountOut: 660n * E18 },
  ]);
  const steps = buildTradeSteps({
    ...params,
    trade: tradeOf([route]),
    tokenIn: tokenOf(chain, 'DAI'),
    tokenOut: tokenOf(chain, 'LINK'),
    amountOutMinimum: 656_700_000_000_000_000_000n,
  });
  t.equal(steps[1].gasLimit, swapLimit('SwapRouter02', [route]));
  const { calls } = decodeMulticall(SWAP_ROUTER02_ABI, steps[1].data);
  t.strictSame(calls.map(view), [multi([DAI, USDC, WETH, LINK], [100, 500, 3000], RECIPIENT, 10_000n * E18, 656_700_000_000_000_000_000n)]);
});

t.test(
  'mixed v2 -> v3 (AAVE -v2-> LINK -v3-> WETH -v3-> USDC): the v2 section pays ADDRESS_THIS, the v3 section swaps CONTRACT_BALANCE',
  async (t) => {
    const route = routeOf(chain, router, [
      { dex: 'uniswap/v2', from: 'AAVE', to: 'LINK', amountIn: 200n * E18, amountOut: 1_300n * E18 },
      {
        dex: 'uniswap/v3',
        fee: 3000,
        from: 'LINK',
        to: 'WETH',
        amountIn: 1_300n * E18,
        amountOut: 6_400_000_000_000_000_000n,
        ticksCrossed: 2,
      },
      { dex: 'uniswap/v3', fee: 500, from: 'WETH', to: 'USDC', amountIn: 6_400_000_000_000_000_000n, amountOut: 19_100_000_000n },
    ]);
    const steps = buildTradeSteps({
      ...params,
      trade: tradeOf([route]),
      tokenIn: tokenOf(chain, 'AAVE'),
      tokenOut: tokenOf(chain, 'USDC'),
      amountOutMinimum: 19_004_500_000n,
    });
    t.strictSame(
      steps.map((s) => [s.message, s.amount, s.gasLimit]),
      [
        ['Approve 200 AAVE for Uniswap V3 router', '200000000000000000000', APPROVE_LIMIT],
        ['Swap 200 AAVE for USDC on Uniswap V2 + Uniswap V3', '200000000000000000000', swapLimit('SwapRouter02', [route])],
      ],
    );
    const { calls } = decodeMulticall(SWAP_ROUTER02_ABI, steps[1].data);
    t.strictSame(calls.map(view), [
      v2(200n * E18, 0n, [AAVE, LINK], ADDRESS_THIS),
      multi([LINK, WETH, USDC], [3000, 500], RECIPIENT, 0n, 19_004_500_000n),
    ]);
  },
);

t.test('mixed v3 -> v2 -> v3: three sections, the last two swapping CONTRACT_BALANCE', async (t) => {
  const route = routeOf(chain, router, [
    { dex: 'uniswap/v3', fee: 500, from: 'USDT', to: 'WETH', amountIn: 30_000_000_000n, amountOut: 10n * E18 },
    { dex: 'uniswap/v2', from: 'WETH', to: 'WBTC', amountIn: 10n * E18, amountOut: 49_000_000n },
    { dex: 'uniswap/v3', fee: 3000, from: 'WBTC', to: 'DAI', amountIn: 49_000_000n, amountOut: 29_500n * E18 },
  ]);
  const steps = buildTradeSteps({
    ...params,
    trade: tradeOf([route]),
    tokenIn: tokenOf(chain, 'USDT'),
    tokenOut: tokenOf(chain, 'DAI'),
    amountOutMinimum: 29_000n * E18,
  });
  t.strictSame(
    steps.map((s) => s.amount),
    ['0', '30000000000', '30000000000'],
    'Ethereum USDT (approvalReset): allowance reset to 0, approval, swap',
  );
  const { calls } = decodeMulticall(SWAP_ROUTER02_ABI, steps[steps.length - 1].data);
  t.strictSame(calls, [
    single(USDT, WETH, 500, ADDRESS_THIS, 30_000_000_000n, 0n),
    v2(0n, 0n, [WETH, WBTC], ADDRESS_THIS),
    single(WBTC, DAI, 3000, RECIPIENT, 0n, 29_000n * E18),
  ]);
});

t.test('a v2 + v3 split with native output: each route runs to its end at the router, then unwrapWETH9 of the sum', async (t) => {
  const viaV2 = routeOf(chain, router, [
    { dex: 'uniswap/v2', from: 'DAI', to: 'USDC', amountIn: 40_000n * E18, amountOut: 39_900_000_000n },
    { dex: 'uniswap/v3', fee: 500, from: 'USDC', to: 'WETH', amountIn: 39_900_000_000n, amountOut: 13_200_000_000_000_000_000n },
  ]);
  const viaV3 = routeOf(chain, router, [
    {
      dex: 'uniswap/v3',
      fee: 3000,
      from: 'DAI',
      to: 'WETH',
      amountIn: 60_000n * E18,
      amountOut: 19_700_000_000_000_000_000n,
      ticksCrossed: 4,
    },
  ]);
  const steps = buildTradeSteps({
    ...params,
    trade: tradeOf([viaV3, viaV2], 'exactIn', { out: true }),
    tokenIn: tokenOf(chain, 'DAI'),
    tokenOut: tokenOf(chain, 'ETH'),
    amountOutMinimum: 32_735_500_000_000_000_000n,
  });
  t.strictSame(
    steps.map((s) => [s.message, s.amount, s.gasLimit]),
    [
      ['Approve 100000 DAI for Uniswap V3 router', '100000000000000000000000', APPROVE_LIMIT],
      [
        'Swap 100000 DAI for ETH on Uniswap V3 + Uniswap V2',
        '100000000000000000000000',
        swapLimit('SwapRouter02', [viaV3, viaV2], { nativeOut: true }),
      ],
    ],
  );
  t.strictSame(decode(ERC20_ABI, steps[0].data).args, [ROUTER, 100_000n * E18]);
  const { calls } = decodeMulticall(SWAP_ROUTER02_ABI, steps[1].data);
  t.strictSame(calls, [
    single(DAI, WETH, 3000, ADDRESS_THIS, 60_000n * E18, 0n),
    v2(40_000n * E18, 0n, [DAI, USDC], ADDRESS_THIS),
    single(USDC, WETH, 500, ADDRESS_THIS, 0n, 0n),
    { functionName: 'unwrapWETH9', args: [32_735_500_000_000_000_000n, RECIPIENT] },
  ]);
});

t.test('a native-in split over v2 and v3: value = the sum, sweepToken of the sum, refundETH last', async (t) => {
  const a = routeOf(chain, router, [
    { dex: 'uniswap/v3', fee: 500, from: 'WETH', to: 'USDC', amountIn: 800n * E18, amountOut: 2_380_000_000_000n, ticksCrossed: 6 },
  ]);
  const b = routeOf(chain, router, [{ dex: 'uniswap/v2', from: 'WETH', to: 'USDC', amountIn: 200n * E18, amountOut: 590_000_000_000n }]);
  const steps = buildTradeSteps({
    ...params,
    trade: tradeOf([a, b], 'exactIn', { in: true }),
    tokenIn: tokenOf(chain, 'ETH'),
    tokenOut: tokenOf(chain, 'USDC'),
    amountOutMinimum: 2_955_150_000_000n,
  });
  t.strictSame(
    steps.map((s) => [s.message, s.amount, s.value, s.gasLimit]),
    [
      [
        'Swap 1000 ETH for USDC on Uniswap V3 + Uniswap V2',
        '1000000000000000000000',
        '1000000000000000000000',
        swapLimit('SwapRouter02', [a, b], { nativeIn: true }),
      ],
    ],
  );
  const { calls } = decodeMulticall(SWAP_ROUTER02_ABI, steps[0].data);
  t.strictSame(calls, [
    single(WETH, USDC, 500, ADDRESS_THIS, 800n * E18, 0n),
    v2(200n * E18, 0n, [WETH, USDC], ADDRESS_THIS),
    { functionName: 'sweepToken', args: [USDC, 2_955_150_000_000n, RECIPIENT] },
    { functionName: 'refundETH', args: [] },
  ]);
  t.equal(steps[0].data.slice(0, 10), '0x5ae401dc', 'multicall(uint256,bytes[])');
});

t.test('native in and one route: the swap pays the recipient with the minimum, then refundETH', async (t) => {
  const route = routeOf(chain, router, [
    { dex: 'uniswap/v2', from: 'WETH', to: 'USDT', amountIn: E18, amountOut: 2_950_000_000n },
    { dex: 'uniswap/v3', fee: 100, from: 'USDT', to: 'USDC', amountIn: 2_950_000_000n, amountOut: 2_949_000_000n },
  ]);
  const steps = buildTradeSteps({
    ...params,
    trade: tradeOf([route], 'exactIn', { in: true }),
    tokenIn: tokenOf(chain, 'ETH'),
    tokenOut: tokenOf(chain, 'USDC'),
    amountOutMinimum: 2_934_255_000n,
  });
  const { calls } = decodeMulticall(SWAP_ROUTER02_ABI, steps[0].data);
  t.strictSame(calls, [
    v2(E18, 0n, [WETH, USDT], ADDRESS_THIS),
    single(USDT, USDC, 100, RECIPIENT, 0n, 2_934_255_000n),
    { functionName: 'refundETH', args: [] },
  ]);
  t.equal(steps[0].value, E18.toString());
});

// Exact output through SwapRouter02: v3 routes only, exactOutputSingle / exactOutput (reversed path, no deadline in the
// params), paid by the caller; each route pays the recipient its exact share (ERC-20 output) or the router
// (ADDRESS_THIS) before one unwrapWETH9 of the sum (native output).
const outSingle = (tokenIn: string, tokenOut: string, fee: number, recipient: string, amountOut: bigint, amountInMaximum: bigint) => ({
  functionName: 'exactOutputSingle',
  args: [{ tokenIn, tokenOut, fee, recipient, amountOut, amountInMaximum, sqrtPriceLimitX96: 0n }],
});

t.test('exact output, two fee tiers, ERC-20 out: one approval of amountInMaximum, each route pays the recipient, no sweep', async (t) => {
  const a = routeOf(
    chain,
    router,
    [{ dex: 'uniswap/v3', fee: 500, from: 'WETH', to: 'USDC', amountIn: 234n * E18, amountOut: 700_000_000_000n, ticksCrossed: 2 }],
    'exactOut',
  );
  const b = routeOf(
    chain,
    router,
    [{ dex: 'uniswap/v3', fee: 3000, from: 'WETH', to: 'USDC', amountIn: 67n * E18, amountOut: 200_000_000_000n, ticksCrossed: 1 }],
    'exactOut',
  );
  // 301 WETH at 100 bps: 304.01 WETH; the slack 3.01 shared 234:67 is 2.34 / 0.67.
  const steps = buildTradeSteps({
    ...params,
    trade: tradeOf([a, b], 'exactOut'),
    tokenIn: tokenOf(chain, 'WETH'),
    tokenOut: tokenOf(chain, 'USDC'),
    amountOutMinimum: 900_000_000_000n,
    amountInMaximum: 304_010_000_000_000_000_000n,
  });
  t.strictSame(
    steps.map((s) => [s.message, s.amount, s.gasLimit]),
    [
      ['Approve 304.01 WETH for Uniswap V3 router', '304010000000000000000', APPROVE_LIMIT],
      [
        'Swap at most 304.01 WETH for 900000 USDC on Uniswap V3',
        '304010000000000000000',
        swapLimit('SwapRouter02', [a, b], { tradeType: 'exactOut' }),
      ],
    ],
  );
  t.strictSame(decodeMulticall(SWAP_ROUTER02_ABI, steps[1].data).calls, [
    outSingle(WETH, USDC, 500, RECIPIENT, 700_000_000_000n, 236_340_000_000_000_000_000n),
    outSingle(WETH, USDC, 3000, RECIPIENT, 200_000_000_000n, 67_670_000_000_000_000_000n),
  ]);
});

t.test(
  'exact output, three pools, native out: exactOutput with the path reversed paying ADDRESS_THIS, then unwrapWETH9(amountOut)',
  async (t) => {
    const route = routeOf(
      chain,
      router,
      [
        { dex: 'uniswap/v3', fee: 100, from: 'DAI', to: 'USDC', amountIn: 20_010n * E18, amountOut: 20_000_000_000n },
        { dex: 'uniswap/v3', fee: 500, from: 'USDC', to: 'WBTC', amountIn: 20_000_000_000n, amountOut: 33_000_000n },
        { dex: 'uniswap/v3', fee: 3000, from: 'WBTC', to: 'WETH', amountIn: 33_000_000n, amountOut: 6n * E18 },
      ],
      'exactOut',
    );
    const steps = buildTradeSteps({
      ...params,
      trade: tradeOf([route], 'exactOut', { out: true }),
      tokenIn: tokenOf(chain, 'DAI'),
      tokenOut: tokenOf(chain, 'ETH'),
      amountOutMinimum: 6n * E18,
      amountInMaximum: 20_110_050n * 10n ** 15n,
    });
    t.equal(steps[1].message, 'Swap at most 20110.05 DAI for 6 ETH on Uniswap V3');
    const { calls } = decodeMulticall(SWAP_ROUTER02_ABI, steps[1].data);
    t.strictSame(calls.map(view), [
      {
        functionName: 'exactOutput',
        args: [
          {
            path: { tokens: [WETH, WBTC, USDC, DAI], fees: [3000, 500, 100] },
            recipient: ADDRESS_THIS,
            amountOut: 6n * E18,
            amountInMaximum: 20_110_050n * 10n ** 15n,
          },
        ],
      },
      { functionName: 'unwrapWETH9', args: [6n * E18, RECIPIENT] },
    ]);
  },
);

t.test('exact output, native in, one pool: value = amountInMaximum, exactOutputSingle paying the recipient, refundETH', async (t) => {
  const route = routeOf(
    chain,
    router,
    [{ dex: 'uniswap/v3', fee: 500, from: 'WETH', to: 'USDC', amountIn: 33n * E18, amountOut: 100_000_000_000n }],
    'exactOut',
  );
  const steps = buildTradeSteps({
    ...params,
    trade: tradeOf([route], 'exactOut', { in: true }),
    tokenIn: tokenOf(chain, 'ETH'),
    tokenOut: tokenOf(chain, 'USDC'),
    amountOutMinimum: 100_000_000_000n,
    amountInMaximum: 33_165n * 10n ** 15n,
  });
  t.strictSame(
    steps.map((s) => [s.message, s.amount, s.value]),
    [['Swap at most 33.165 ETH for 100000 USDC on Uniswap V3', '33165000000000000000', '33165000000000000000']],
  );
  t.strictSame(decodeMulticall(SWAP_ROUTER02_ABI, steps[0].data).calls, [
    outSingle(WETH, USDC, 500, RECIPIENT, 100_000_000_000n, 33_165n * 10n ** 15n),
    { functionName: 'refundETH', args: [] },
  ]);
});

t.test('exact output refuses what SwapRouter02 cannot execute exactly: v2 pools, mixed paths', async (t) => {
  const v2Route = routeOf(
    chain,
    router,
    [{ dex: 'uniswap/v2', from: 'WETH', to: 'USDC', amountIn: E18, amountOut: 3_000_000_000n }],
    'exactOut',
  );
  t.throws(
    () =>
      buildTradeSteps({
        ...params,
        trade: tradeOf([v2Route], 'exactOut'),
        tokenIn: tokenOf(chain, 'WETH'),
        tokenOut: tokenOf(chain, 'USDC'),
        amountOutMinimum: 3_000_000_000n,
        amountInMaximum: E18,
      }),
    { name: 'StepBuildError', message: 'trade.splits[0].route.executor: Uniswap V3 router cannot execute this route for an exact output' },
  );
  const mixed = routeOf(
    chain,
    router,
    [
      { dex: 'uniswap/v2', from: 'AAVE', to: 'LINK', amountIn: 200n * E18, amountOut: 1_300n * E18 },
      { dex: 'uniswap/v3', fee: 3000, from: 'LINK', to: 'WETH', amountIn: 1_300n * E18, amountOut: 6n * E18 },
    ],
    'exactOut',
  );
  t.throws(
    () =>
      buildTradeSteps({
        ...params,
        trade: tradeOf([mixed], 'exactOut'),
        tokenIn: tokenOf(chain, 'AAVE'),
        tokenOut: tokenOf(chain, 'WETH'),
        amountOutMinimum: 6n * E18,
        amountInMaximum: 201n * E18,
      }),
    { name: 'StepBuildError', message: 'trade.splits[0].route.executor: Uniswap V3 router cannot execute this route for an exact output' },
  );
});
