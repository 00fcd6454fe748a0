// UniswapV2Router02 steps from buildTradeSteps: path arrays through the route's pairs (the wrapped token on a native
// side), one transaction per route under one approval, each with its own minimum. Decoded with the compiled
// contract's ABI.
import t from 'tap';
import { type CatalogChain, NATIVE_TOKEN_ADDRESS } from '../../../src/catalog/Catalog.ts';
import { loadCatalog } from '../../../src/catalog/loadCatalog.ts';
import { buildTradeSteps } from '../../../src/tx/buildTradeSteps.ts';
import { executorOf, routeOf, tokenOf, tradeOf } from '../../helpers/handTrades.ts';
import { decode, ERC20_ABI, V2_ROUTER_ABI } from '../../helpers/routerCalldata.ts';
import { APPROVE_LIMIT, swapLimit } from '../../helpers/stepGas.ts';

const chain = loadCatalog().chain('ethereum') as CatalogChain;
const ROUTER = '0x7a250d5630B4cF539739dF2C5dAcb4c659F2488D'; // Uniswap V2 Router02 on Ethereum
const SUSHI_ROUTER = '0xd9e1cE17f2641f24aE83637ab66a2cca9C378B9F';
const WALLET = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const RECIPIENT = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const DEADLINE = 1_900_000_000;
const [WETH, USDC, USDT, WBTC, DAI] = ['WETH', 'USDC', 'USDT', 'WBTC', 'DAI'].map((s) => tokenOf(chain, s).address);
const uni = executorOf(chain, 'UniswapV2Router02', 'uniswap');
const sushi = executorOf(chain, 'UniswapV2Router02', 'sushiswap');
const params = { chain, recipient: RECIPIENT.toLowerCase(), wallet: WALLET.toLowerCase(), deadline: DEADLINE };

t.test('the executors are the catalogue routers', async (t) => {
  t.strictSame([uni.address, uni.name, sushi.address, sushi.name], [ROUTER, 'Uniswap V2 router', SUSHI_ROUTER, 'SushiSwap V2 router']);
});

t.test('2 hops, ERC-20 in and out: approve amountIn, swapExactTokensForTokens along [USDC, WETH, WBTC]', async (t) => {
  const route = routeOf(chain, uni, [
    { dex: 'uniswap/v2', from: 'USDC', to: 'WETH', amountIn: 1_500_250_000n, amountOut: 480_000_000_000_000_000n },
    { dex: 'uniswap/v2', from: 'WETH', to: 'WBTC', amountIn: 480_000_000_000_000_000n, amountOut: 2_500_000n },
  ]);
  const steps = buildTradeSteps({
    ...params,
    trade: tradeOf([route]),
    tokenIn: tokenOf(chain, 'USDC'),
    tokenOut: tokenOf(chain, 'WBTC'),
    amountOutMinimum: 2_487_500n,
  });
  t.strictSame(
    steps.map((s) => ({ ...s, data: undefined })),
    [
      {
        message: 'Approve 1500.25 USDC for Uniswap V2 router',
        from: WALLET,
        to: USDC,
        data: undefined,
        amount: '1500250000',
        chainId: 1,
        spender: ROUTER,
        gasLimit: APPROVE_LIMIT,
      },
      {
        message: 'Swap 1500.25 USDC for WBTC on Uniswap V2',
        from: WALLET,
        to: ROUTER,
        data: undefined,
        amount: '1500250000',
        chainId: 1,
        gasLimit: swapLimit('UniswapV2Router02', [route]),
      },
    ],
  );
  t.strictSame(decode(ERC20_ABI, steps[0].data), { functionName: 'approve', args: [ROUTER, 1_500_250_000n] });
  t.strictSame(decode(V2_ROUTER_ABI, steps[1].data), {
    functionName: 'swapExactTokensForTokens',
    args: [1_500_250_000n, 2_487_500n, [USDC, WETH, WBTC], RECIPIENT, 1_900_000_000n],
  });
});

t.test('native in through 2 pairs: no approval, swapExactETHForTokens with value along [WETH, USDC, USDT]', async (t) => {
  const route = routeOf(chain, uni, [
    { dex: 'uniswap/v2', from: 'WETH', to: 'USDC', amountIn: 10n ** 18n, amountOut: 2_990_000_000n },
    { dex: 'uniswap/v2', from: 'USDC', to: 'USDT', amountIn: 2_990_000_000n, amountOut: 2_985_000_000n },
  ]);
  const steps = buildTradeSteps({
    ...params,
    trade: tradeOf([route], 'exactIn', { in: true }),
    tokenIn: tokenOf(chain, 'ETH'),
    tokenOut: tokenOf(chain, 'USDT'),
    amountOutMinimum: 2_970_000_000n,
  });
  t.equal(steps.length, 1);
  t.strictSame(
    { ...steps[0], data: undefined },
    {
      message: 'Swap 1 ETH for USDT on Uniswap V2',
      from: WALLET,
      to: ROUTER,
      data: undefined,
      amount: '1000000000000000000',
      chainId: 1,
      value: '1000000000000000000',
      gasLimit: swapLimit('UniswapV2Router02', [route], { nativeIn: true }),
    },
  );
  t.strictSame(decode(V2_ROUTER_ABI, steps[0].data), {
    functionName: 'swapExactETHForTokens',
    args: [2_970_000_000n, [WETH, USDC, USDT], RECIPIENT, 1_900_000_000n],
  });
});

t.test('native out through 2 pairs: swapExactTokensForETH along [DAI, USDC, WETH]', async (t) => {
  const route = routeOf(chain, uni, [
    { dex: 'uniswap/v2', from: 'DAI', to: 'USDC', amountIn: 5_000n * 10n ** 18n, amountOut: 4_980_000_000n },
    { dex: 'uniswap/v2', from: 'USDC', to: 'WETH', amountIn: 4_980_000_000n, amountOut: 1_650_000_000_000_000_000n },
  ]);
  const steps = buildTradeSteps({
    ...params,
    trade: tradeOf([route], 'exactIn', { out: true }),
    tokenIn: tokenOf(chain, 'DAI'),
    tokenOut: tokenOf(chain, 'ETH'),
    amountOutMinimum: 1_640_000_000_000_000_000n,
  });
  t.strictSame(
    steps.map((s) => s.message),
    ['Approve 5000 DAI for Uniswap V2 router', 'Swap 5000 DAI for ETH on Uniswap V2'],
  );
  t.strictSame(decode(ERC20_ABI, steps[0].data), { functionName: 'approve', args: [ROUTER, 5_000n * 10n ** 18n] });
  t.notOk('value' in steps[1]);
  t.equal(steps[1].gasLimit, swapLimit('UniswapV2Router02', [route], { nativeOut: true }));
  t.strictSame(decode(V2_ROUTER_ABI, steps[1].data), {
    functionName: 'swapExactTokensForETH',
    args: [5_000n * 10n ** 18n, 1_640_000_000_000_000_000n, [DAI, USDC, WETH], RECIPIENT, 1_900_000_000n],
  });
});

t.test('two routes through one Router02: one approval of the sum, one transaction per route, minimums adding up', async (t) => {
  const direct = routeOf(chain, uni, [{ dex: 'uniswap/v2', from: 'WBTC', to: 'USDC', amountIn: 70_000_000n, amountOut: 41_000_000_000n }]);
  const twoHop = routeOf(chain, uni, [
    { dex: 'uniswap/v2', from: 'WBTC', to: 'WETH', amountIn: 30_000_000n, amountOut: 6_000_000_000_000_000_000n },
    { dex: 'uniswap/v2', from: 'WETH', to: 'USDC', amountIn: 6_000_000_000_000_000_000n, amountOut: 17_700_000_001n },
  ]);
  // 58,700,000,001 out in total; a minimum of 58,406,499,999 is shared 41:17.7, floored, the remainder to the larger part.
  const steps = buildTradeSteps({
    ...params,
    trade: tradeOf([direct, twoHop]),
    tokenIn: tokenOf(chain, 'WBTC'),
    tokenOut: tokenOf(chain, 'USDC'),
    amountOutMinimum: 58_406_499_999n,
  });
  t.strictSame(
    steps.map((s) => [s.message, s.amount, s.gasLimit]),
    [
      ['Approve 1 WBTC for Uniswap V2 router', '100000000', APPROVE_LIMIT],
      ['Swap 0.7 WBTC for USDC on Uniswap V2', '70000000', swapLimit('UniswapV2Router02', [direct])],
      ['Swap 0.3 WBTC for USDC on Uniswap V2', '30000000', swapLimit('UniswapV2Router02', [twoHop])],
    ],
  );
  t.strictSame(decode(ERC20_ABI, steps[0].data).args, [ROUTER, 100_000_000n]);
  const first = decode(V2_ROUTER_ABI, steps[1].data);
  const second = decode(V2_ROUTER_ABI, steps[2].data);
  // Shares: 58,406,499,999 x 41,000,000,000 / 58,700,000,001 = 40,794,999,998.6 and x 17,700,000,001 / … =
  // 17,611,500,000.4, floored; the remainder 1 goes to the larger part.
  t.strictSame(first, {
    functionName: 'swapExactTokensForTokens',
    args: [70_000_000n, 40_794_999_999n, [WBTC, USDC], RECIPIENT, 1_900_000_000n],
  });
  t.strictSame(second, {
    functionName: 'swapExactTokensForTokens',
    args: [30_000_000n, 17_611_500_000n, [WBTC, WETH, USDC], RECIPIENT, 1_900_000_000n],
  });
  t.equal((first.args[1] as bigint) + (second.args[1] as bigint), 58_406_499_999n, 'the minimums add up to amountOutMinimum');
  t.equal(NATIVE_TOKEN_ADDRESS, tokenOf(chain, 'ETH').address);
});

// Exact output: swapTokensForExactTokens / swapTokensForExactETH with each route's share of amountInMaximum,
// swapETHForExactTokens with value = that share (the router refunds the rest itself).
t.test(
  'exact output, two routes: one approval of amountInMaximum, each transaction exactly its amountOut with its share of the maximum',
  async (t) => {
    const direct = routeOf(
      chain,
      uni,
      [{ dex: 'uniswap/v2', from: 'WBTC', to: 'USDC', amountIn: 70_000_001n, amountOut: 41_000_000_000n }],
      'exactOut',
    );
    const twoHop = routeOf(
      chain,
      uni,
      [
        { dex: 'uniswap/v2', from: 'WBTC', to: 'WETH', amountIn: 30_000_000n, amountOut: 6_000_000_000_000_000_000n },
        { dex: 'uniswap/v2', from: 'WETH', to: 'USDC', amountIn: 6_000_000_000_000_000_000n, amountOut: 17_700_000_000n },
      ],
      'exactOut',
    );
    // amountIn 100,000,001; at 50 bps the maximum is ceil(100,500,001.005) = 100,500,002. The slack 500,001 shared
    // 70,000,001 : 30,000,000 is 350,000.69... / 150,000.29..., floored to 350,000 / 150,000, the remainder 1 to the larger.
    const steps = buildTradeSteps({
      ...params,
      trade: tradeOf([direct, twoHop], 'exactOut'),
      tokenIn: tokenOf(chain, 'WBTC'),
      tokenOut: tokenOf(chain, 'USDC'),
      amountOutMinimum: 58_700_000_000n,
      amountInMaximum: 100_500_002n,
    });
    t.strictSame(
      steps.map((s) => [s.message, s.amount, s.gasLimit]),
      [
        ['Approve 1.00500002 WBTC for Uniswap V2 router', '100500002', APPROVE_LIMIT],
        [
          'Swap at most 0.70350002 WBTC for 41000 USDC on Uniswap V2',
          '70350002',
          swapLimit('UniswapV2Router02', [direct], { tradeType: 'exactOut' }),
        ],
        [
          'Swap at most 0.3015 WBTC for 17700 USDC on Uniswap V2',
          '30150000',
          swapLimit('UniswapV2Router02', [twoHop], { tradeType: 'exactOut' }),
        ],
      ],
    );
    t.strictSame(decode(ERC20_ABI, steps[0].data).args, [ROUTER, 100_500_002n]);
    t.strictSame(decode(V2_ROUTER_ABI, steps[1].data), {
      functionName: 'swapTokensForExactTokens',
      args: [41_000_000_000n, 70_350_002n, [WBTC, USDC], RECIPIENT, 1_900_000_000n],
    });
    t.strictSame(decode(V2_ROUTER_ABI, steps[2].data), {
      functionName: 'swapTokensForExactTokens',
      args: [17_700_000_000n, 30_150_000n, [WBTC, WETH, USDC], RECIPIENT, 1_900_000_000n],
    });
  },
);

t.test('exact output, native in: swapETHForExactTokens with value = amountInMaximum', async (t) => {
  const route = routeOf(
    chain,
    uni,
    [
      { dex: 'uniswap/v2', from: 'WETH', to: 'USDC', amountIn: 10n ** 18n, amountOut: 2_990_000_000n },
      { dex: 'uniswap/v2', from: 'USDC', to: 'USDT', amountIn: 2_990_000_000n, amountOut: 2_985_000_000n },
    ],
    'exactOut',
  );
  const steps = buildTradeSteps({
    ...params,
    trade: tradeOf([route], 'exactOut', { in: true }),
    tokenIn: tokenOf(chain, 'ETH'),
    tokenOut: tokenOf(chain, 'USDT'),
    amountOutMinimum: 2_985_000_000n,
    amountInMaximum: 1_005_000_000_000_000_000n,
  });
  t.strictSame(
    steps.map((s) => [s.message, s.amount, s.value, s.gasLimit]),
    [
      [
        'Swap at most 1.005 ETH for 2985 USDT on Uniswap V2',
        '1005000000000000000',
        '1005000000000000000',
        swapLimit('UniswapV2Router02', [route], { nativeIn: true, tradeType: 'exactOut' }),
      ],
    ],
  );
  t.strictSame(decode(V2_ROUTER_ABI, steps[0].data), {
    functionName: 'swapETHForExactTokens',
    args: [2_985_000_000n, [WETH, USDC, USDT], RECIPIENT, 1_900_000_000n],
  });
});

t.test('exact output, native out: swapTokensForExactETH(amountOut, amountInMax, [DAI, USDC, WETH])', async (t) => {
  const route = routeOf(
    chain,
    sushi,
    [
      { dex: 'sushiswap/v2', from: 'DAI', to: 'USDC', amountIn: 5_000n * 10n ** 18n, amountOut: 4_980_000_000n },
      { dex: 'sushiswap/v2', from: 'USDC', to: 'WETH', amountIn: 4_980_000_000n, amountOut: 1_650_000_000_000_000_000n },
    ],
    'exactOut',
  );
  const steps = buildTradeSteps({
    ...params,
    trade: tradeOf([route], 'exactOut', { out: true }),
    tokenIn: tokenOf(chain, 'DAI'),
    tokenOut: tokenOf(chain, 'ETH'),
    amountOutMinimum: 1_650_000_000_000_000_000n,
    amountInMaximum: 5_025n * 10n ** 18n,
  });
  t.strictSame(
    steps.map((s) => [s.message, s.to]),
    [
      ['Approve 5025 DAI for SushiSwap V2 router', DAI],
      ['Swap at most 5025 DAI for 1.65 ETH on SushiSwap V2', SUSHI_ROUTER],
    ],
  );
  t.strictSame(decode(V2_ROUTER_ABI, steps[1].data), {
    functionName: 'swapTokensForExactETH',
    args: [1_650_000_000_000_000_000n, 5_025n * 10n ** 18n, [DAI, USDC, WETH], RECIPIENT, 1_900_000_000n],
  });
});
