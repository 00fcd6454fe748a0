// Uniswap v3 SwapRouter (v3-periphery) steps from buildTradeSteps, on devnet-b whose catalogue names the plain
// SwapRouter: exactInputSingle / exactInput (packed path) with the deadline in their params, a bare call when one
// route pays the recipient, otherwise multicall(bytes[]) with the swaps paying the router and sweepToken /
// unwrapWETH9 paying out; refundETH after native input. Decoded with the compiled contract's ABI.
import t from 'tap';
import type { CatalogChain } from '../../../src/catalog/Catalog.ts';
import { loadCatalog } from '../../../src/catalog/loadCatalog.ts';
import { buildTradeSteps } from '../../../src/tx/buildTradeSteps.ts';
import { executorOf, routeOf, tokenOf, tradeOf } from '../../helpers/handTrades.ts';
import { decode, decodeMulticall, ERC20_ABI, parsePackedPath, SWAP_ROUTER_ABI } from '../../helpers/routerCalldata.ts';
import { APPROVE_LIMIT, swapLimit } from '../../helpers/stepGas.ts';

const chain = loadCatalog().chain('devnet-b') as CatalogChain;
const ROUTER = '0x9A676e781A523b5d0C0e43731313A708CB607508';
const WALLET = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const RECIPIENT = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const [WETH, USDC, USDT, WBTC, LINK] = ['WETH', 'USDC', 'USDT', 'WBTC', 'LINK'].map((s) => tokenOf(chain, s).address);
const router = executorOf(chain, 'SwapRouter');
const params = { chain, recipient: RECIPIENT, wallet: WALLET, deadline: 1_900_000_000 };

t.test('the executor is the catalogue SwapRouter', async (t) => {
  t.strictSame([router.address, router.kind, router.name], [ROUTER, 'SwapRouter', 'Uniswap V3 router']);
});

t.test('one pool, ERC-20 in and out: the bare exactInputSingle paying the recipient with the minimum', async (t) => {
  const route = routeOf(chain, router, [
    { dex: 'uniswap/v3', fee: 500, from: 'USDC', to: 'WBTC', amountIn: 150_000_000_000n, amountOut: 249_000_000n, ticksCrossed: 3 },
  ]);
  const steps = buildTradeSteps({
    ...params,
    trade: tradeOf([route]),
    tokenIn: tokenOf(chain, 'USDC'),
    tokenOut: tokenOf(chain, 'WBTC'),
    amountOutMinimum: 247_755_000n,
  });
  t.strictSame(
    steps.map((s) => [s.message, s.to, s.amount, s.chainId, s.gasLimit, s.value]),
    [
      ['Approve 150000 USDC for Uniswap V3 router', USDC, '150000000000', 31338, APPROVE_LIMIT, undefined],
      ['Swap 150000 USDC for WBTC on Uniswap V3', ROUTER, '150000000000', 31338, swapLimit('SwapRouter', [route]), undefined],
    ],
  );
  t.strictSame(decode(ERC20_ABI, steps[0].data), { functionName: 'approve', args: [ROUTER, 150_000_000_000n] });
  t.strictSame(decode(SWAP_ROUTER_ABI, steps[1].data), {
    functionName: 'exactInputSingle',
    args: [
      {
        tokenIn: USDC,
        tokenOut: WBTC,
        fee: 500,
        recipient: RECIPIENT,
        deadline: 1_900_000_000n,
        amountIn: 150_000_000_000n,
        amountOutMinimum: 247_755_000n,
        sqrtPriceLimitX96: 0n,
      },
    ],
  });
});

t.test('two pools: the bare exactInput with the packed path LINK 3000 WETH 500 USDC', async (t) => {
  const route = routeOf(chain, router, [
    {
      dex: 'uniswap/v3',
      fee: 3000,
      from: 'LINK',
      to: 'WETH',
      amountIn: 5_000n * 10n ** 18n,
      amountOut: 24_900_000_000_000_000_000n,
      ticksCrossed: 1,
    },
    {
      dex: 'uniswap/v3',
      fee: 500,
      from: 'WETH',
      to: 'USDC',
      amountIn: 24_900_000_000_000_000_000n,
      amountOut: 74_600_000_000n,
      ticksCrossed: 0,
    },
  ]);
  const steps = buildTradeSteps({
    ...params,
    trade: tradeOf([route]),
    tokenIn: tokenOf(chain, 'LINK'),
    tokenOut: tokenOf(chain, 'USDC'),
    amountOutMinimum: 74_227_000_000n,
  });
  t.equal(steps.length, 2);
  t.equal(steps[1].gasLimit, swapLimit('SwapRouter', [route]));
  const swap = decode(SWAP_ROUTER_ABI, steps[1].data);
  t.equal(swap.functionName, 'exactInput');
  const p = swap.args[0] as { path: `0x${string}`; recipient: string; deadline: bigint; amountIn: bigint; amountOutMinimum: bigint };
  t.strictSame(parsePackedPath(p.path), { tokens: [LINK, WETH, USDC], fees: [3000, 500] });
  t.strictSame(
    { ...p, path: undefined },
    { path: undefined, recipient: RECIPIENT, deadline: 1_900_000_000n, amountIn: 5_000n * 10n ** 18n, amountOutMinimum: 74_227_000_000n },
  );
});

t.test('native in through two pools: multicall([exactInput paying the recipient, refundETH]) with value', async (t) => {
  const route = routeOf(chain, router, [
    { dex: 'uniswap/v3', fee: 3000, from: 'WETH', to: 'USDC', amountIn: 2n * 10n ** 18n, amountOut: 5_990_000_000n },
    { dex: 'uniswap/v3', fee: 100, from: 'USDC', to: 'USDT', amountIn: 5_990_000_000n, amountOut: 5_989_000_000n },
  ]);
  const steps = buildTradeSteps({
    ...params,
    trade: tradeOf([route], 'exactIn', { in: true }),
    tokenIn: tokenOf(chain, 'ETH'),
    tokenOut: tokenOf(chain, 'USDT'),
    amountOutMinimum: 5_959_055_000n,
  });
  t.strictSame(
    steps.map((s) => [s.message, s.to, s.amount, s.value, s.gasLimit]),
    [
      [
        'Swap 2 ETH for USDT on Uniswap V3',
        ROUTER,
        '2000000000000000000',
        '2000000000000000000',
        swapLimit('SwapRouter', [route], { nativeIn: true }),
      ],
    ],
  );
  const { deadline, calls } = decodeMulticall(SWAP_ROUTER_ABI, steps[0].data);
  t.equal(deadline, undefined, 'multicall(bytes[]) has no deadline');
  t.strictSame(
    calls.map((c) => c.functionName),
    ['exactInput', 'refundETH'],
  );
  const p = calls[0].args[0] as { path: `0x${string}` };
  t.strictSame(parsePackedPath(p.path), { tokens: [WETH, USDC, USDT], fees: [3000, 100] });
  t.strictSame(
    { ...p, path: undefined },
    { path: undefined, recipient: RECIPIENT, deadline: 1_900_000_000n, amountIn: 2n * 10n ** 18n, amountOutMinimum: 5_959_055_000n },
  );
  t.strictSame(calls[1].args, []);
});

t.test('native out through two pools: the swap pays the router, unwrapWETH9(minimum, recipient)', async (t) => {
  const route = routeOf(chain, router, [
    { dex: 'uniswap/v3', fee: 100, from: 'USDT', to: 'USDC', amountIn: 3_000_000_000n, amountOut: 2_999_000_000n },
    { dex: 'uniswap/v3', fee: 500, from: 'USDC', to: 'WETH', amountIn: 2_999_000_000n, amountOut: 990_000_000_000_000_000n },
  ]);
  const steps = buildTradeSteps({
    ...params,
    trade: tradeOf([route], 'exactIn', { out: true }),
    tokenIn: tokenOf(chain, 'USDT'),
    tokenOut: tokenOf(chain, 'ETH'),
    amountOutMinimum: 985_050_000_000_000_000n,
  });
  t.strictSame(
    steps.map((s) => s.message),
    ['Approve 3000 USDT for Uniswap V3 router', 'Swap 3000 USDT for ETH on Uniswap V3'],
  );
  t.equal(steps[1].gasLimit, swapLimit('SwapRouter', [route], { nativeOut: true }));
  const { calls } = decodeMulticall(SWAP_ROUTER_ABI, steps[1].data);
  t.strictSame(
    calls.map((c) => c.functionName),
    ['exactInput', 'unwrapWETH9'],
  );
  const p = calls[0].args[0] as { path: `0x${string}` };
  t.strictSame(parsePackedPath(p.path), { tokens: [USDT, USDC, WETH], fees: [100, 500] });
  t.strictSame(
    { ...p, path: undefined },
    { path: undefined, recipient: ROUTER, deadline: 1_900_000_000n, amountIn: 3_000_000_000n, amountOutMinimum: 0n },
  );
  t.strictSame(calls[1].args, [985_050_000_000_000_000n, RECIPIENT]);
});

t.test(
  'a split over two fee tiers: one approval of the sum, both swaps pay the router, sweepToken(USDC, minimum, recipient)',
  async (t) => {
    const a = routeOf(chain, router, [
      { dex: 'uniswap/v3', fee: 500, from: 'WETH', to: 'USDC', amountIn: 70n * 10n ** 18n, amountOut: 208_000_000_000n, ticksCrossed: 2 },
    ]);
    const b = routeOf(chain, router, [
      { dex: 'uniswap/v3', fee: 3000, from: 'WETH', to: 'USDC', amountIn: 30n * 10n ** 18n, amountOut: 89_000_000_000n, ticksCrossed: 1 },
    ]);
    const steps = buildTradeSteps({
      ...params,
      trade: tradeOf([a, b]),
      tokenIn: tokenOf(chain, 'WETH'),
      tokenOut: tokenOf(chain, 'USDC'),
      amountOutMinimum: 295_515_000_000n,
    });
    t.strictSame(
      steps.map((s) => [s.message, s.amount, s.gasLimit]),
      [
        ['Approve 100 WETH for Uniswap V3 router', '100000000000000000000', APPROVE_LIMIT],
        ['Swap 100 WETH for USDC on Uniswap V3', '100000000000000000000', swapLimit('SwapRouter', [a, b])],
      ],
    );
    t.strictSame(decode(ERC20_ABI, steps[0].data).args, [ROUTER, 100n * 10n ** 18n]);
    const { calls } = decodeMulticall(SWAP_ROUTER_ABI, steps[1].data);
    const single = (fee: number, amountIn: bigint) => ({
      functionName: 'exactInputSingle',
      args: [
        {
          tokenIn: WETH,
          tokenOut: USDC,
          fee,
          recipient: ROUTER,
          deadline: 1_900_000_000n,
          amountIn,
          amountOutMinimum: 0n,
          sqrtPriceLimitX96: 0n,
        },
      ],
    });
    t.strictSame(calls, [
      single(500, 70n * 10n ** 18n),
      single(3000, 30n * 10n ** 18n),
      { functionName: 'sweepToken', args: [USDC, 295_515_000_000n, RECIPIENT] },
    ]);
  },
);

t.test('a native-in split: value = the sum, swaps pay the router, sweepToken, then refundETH', async (t) => {
  const a = routeOf(chain, router, [
    { dex: 'uniswap/v3', fee: 3000, from: 'WETH', to: 'WBTC', amountIn: 6n * 10n ** 18n, amountOut: 29_900_000n },
  ]);
  const b = routeOf(chain, router, [
    { dex: 'uniswap/v3', fee: 500, from: 'WETH', to: 'USDC', amountIn: 4n * 10n ** 18n, amountOut: 11_950_000_000n },
    { dex: 'uniswap/v3', fee: 500, from: 'USDC', to: 'WBTC', amountIn: 11_950_000_000n, amountOut: 19_900_000n },
  ]);
  const steps = buildTradeSteps({
    ...params,
    trade: tradeOf([a, b], 'exactIn', { in: true }),
    tokenIn: tokenOf(chain, 'ETH'),
    tokenOut: tokenOf(chain, 'WBTC'),
    amountOutMinimum: 49_551_000n,
  });
  t.strictSame(
    steps.map((s) => [s.message, s.amount, s.value, s.gasLimit]),
    [
      [
        'Swap 10 ETH for WBTC on Uniswap V3',
        '10000000000000000000',
        '10000000000000000000',
        swapLimit('SwapRouter', [a, b], { nativeIn: true }),
      ],
    ],
  );
  const { calls } = decodeMulticall(SWAP_ROUTER_ABI, steps[0].data);
  t.strictSame(
    calls.map((c) => c.functionName),
    ['exactInputSingle', 'exactInput', 'sweepToken', 'refundETH'],
  );
  t.strictSame(calls[0].args, [
    {
      tokenIn: WETH,
      tokenOut: WBTC,
      fee: 3000,
      recipient: ROUTER,
      deadline: 1_900_000_000n,
      amountIn: 6n * 10n ** 18n,
      amountOutMinimum: 0n,
      sqrtPriceLimitX96: 0n,
    },
  ]);
  const p = calls[1].args[0] as { path: `0x${string}` };
  t.strictSame(parsePackedPath(p.path), { tokens: [WETH, USDC, WBTC], fees: [500, 500] });
  t.strictSame(
    { ...p, path: undefined },
    { path: undefined, recipient: ROUTER, deadline: 1_900_000_000n, amountIn: 4n * 10n ** 18n, amountOutMinimum: 0n },
  );
  t.strictSame(calls[2].args, [WBTC, 49_551_000n, RECIPIENT]);
});

// Exact output: exactOutputSingle / exactOutput with the path reversed (tokenOut first), exactly the route's amountOut,
// at most its share of amountInMaximum.
const outSingle = (tokenIn: string, tokenOut: string, fee: number, recipient: string, amountOut: bigint, amountInMaximum: bigint) => ({
  functionName: 'exactOutputSingle',
  args: [{ tokenIn, tokenOut, fee, recipient, deadline: 1_900_000_000n, amountOut, amountInMaximum, sqrtPriceLimitX96: 0n }],
});

t.test('exact output, one pool: approve amountInMaximum, the bare exactOutputSingle paying the recipient exactly amountOut', async (t) => {
  const route = routeOf(
    chain,
    router,
    [{ dex: 'uniswap/v3', fee: 500, from: 'USDC', to: 'WBTC', amountIn: 150_000_000_000n, amountOut: 249_000_000n, ticksCrossed: 3 }],
    'exactOut',
  );
  const steps = buildTradeSteps({
    ...params,
    trade: tradeOf([route], 'exactOut'),
    tokenIn: tokenOf(chain, 'USDC'),
    tokenOut: tokenOf(chain, 'WBTC'),
    amountOutMinimum: 249_000_000n,
    amountInMaximum: 150_750_000_000n,
  });
  t.strictSame(
    steps.map((s) => [s.message, s.to, s.amount, s.gasLimit, s.value]),
    [
      ['Approve 150750 USDC for Uniswap V3 router', USDC, '150750000000', APPROVE_LIMIT, undefined],
      [
        'Swap at most 150750 USDC for 2.49 WBTC on Uniswap V3',
        ROUTER,
        '150750000000',
        swapLimit('SwapRouter', [route], { tradeType: 'exactOut' }),
        undefined,
      ],
    ],
  );
  t.strictSame(decode(ERC20_ABI, steps[0].data), { functionName: 'approve', args: [ROUTER, 150_750_000_000n] });
  t.strictSame(decode(SWAP_ROUTER_ABI, steps[1].data), outSingle(USDC, WBTC, 500, RECIPIENT, 249_000_000n, 150_750_000_000n));
});

t.test('exact output, two pools: exactOutput with the reversed path USDC 500 WETH 3000 LINK', async (t) => {
  const route = routeOf(
    chain,
    router,
    [
      { dex: 'uniswap/v3', fee: 3000, from: 'LINK', to: 'WETH', amountIn: 334n * 10n ** 18n, amountOut: 1_666_000_000_000_000_000n },
      { dex: 'uniswap/v3', fee: 500, from: 'WETH', to: 'USDC', amountIn: 1_666_000_000_000_000_000n, amountOut: 5_000_000_000n },
    ],
    'exactOut',
  );
  const steps = buildTradeSteps({
    ...params,
    trade: tradeOf([route], 'exactOut'),
    tokenIn: tokenOf(chain, 'LINK'),
    tokenOut: tokenOf(chain, 'USDC'),
    amountOutMinimum: 5_000_000_000n,
    amountInMaximum: 335_670_000_000_000_000_000n,
  });
  t.equal(steps[1].gasLimit, swapLimit('SwapRouter', [route], { tradeType: 'exactOut' }));
  const call = decode(SWAP_ROUTER_ABI, steps[1].data);
  const p = call.args[0] as { path: `0x${string}` };
  t.strictSame(
    { functionName: call.functionName, args: [{ ...p, path: parsePackedPath(p.path) }] },
    {
      functionName: 'exactOutput',
      args: [
        {
          path: { tokens: [USDC, WETH, LINK], fees: [500, 3000] },
          recipient: RECIPIENT,
          deadline: 1_900_000_000n,
          amountOut: 5_000_000_000n,
          amountInMaximum: 335_670_000_000_000_000_000n,
        },
      ],
    },
  );
});

t.test('exact output, native in, two fee tiers: value = amountInMaximum, each swap pays the recipient its share, refundETH', async (t) => {
  const E18 = 10n ** 18n;
  const a = routeOf(
    chain,
    router,
    [{ dex: 'uniswap/v3', fee: 500, from: 'WETH', to: 'USDC', amountIn: 230n * E18, amountOut: 700_000_000_000n, ticksCrossed: 2 }],
    'exactOut',
  );
  const b = routeOf(
    chain,
    router,
    [{ dex: 'uniswap/v3', fee: 3000, from: 'WETH', to: 'USDC', amountIn: 70n * E18, amountOut: 200_000_000_000n, ticksCrossed: 1 }],
    'exactOut',
  );
  // 300 ETH at 50 bps: 301.5 ETH, 1.5 ETH of slack shared 230:70 (1.15 / 0.35).
  const steps = buildTradeSteps({
    ...params,
    trade: tradeOf([a, b], 'exactOut', { in: true }),
    tokenIn: tokenOf(chain, 'ETH'),
    tokenOut: tokenOf(chain, 'USDC'),
    amountOutMinimum: 900_000_000_000n,
    amountInMaximum: 301_500_000_000_000_000_000n,
  });
  t.strictSame(
    steps.map((s) => [s.message, s.amount, s.value, s.gasLimit]),
    [
      [
        'Swap at most 301.5 ETH for 900000 USDC on Uniswap V3',
        '301500000000000000000',
        '301500000000000000000',
        swapLimit('SwapRouter', [a, b], { nativeIn: true, tradeType: 'exactOut' }),
      ],
    ],
  );
  t.strictSame(decodeMulticall(SWAP_ROUTER_ABI, steps[0].data).calls, [
    outSingle(WETH, USDC, 500, RECIPIENT, 700_000_000_000n, 231_150_000_000_000_000_000n),
    outSingle(WETH, USDC, 3000, RECIPIENT, 200_000_000_000n, 70_350_000_000_000_000_000n),
    { functionName: 'refundETH', args: [] },
  ]);
});

t.test('exact output, native out: the swaps pay the router, unwrapWETH9(amountOut, recipient)', async (t) => {
  const route = routeOf(
    chain,
    router,
    [
      { dex: 'uniswap/v3', fee: 100, from: 'USDT', to: 'USDC', amountIn: 18_100_000_000n, amountOut: 18_090_000_000n },
      { dex: 'uniswap/v3', fee: 500, from: 'USDC', to: 'WETH', amountIn: 18_090_000_000n, amountOut: 6n * 10n ** 18n },
    ],
    'exactOut',
  );
  const steps = buildTradeSteps({
    ...params,
    trade: tradeOf([route], 'exactOut', { out: true }),
    tokenIn: tokenOf(chain, 'USDT'),
    tokenOut: tokenOf(chain, 'ETH'),
    amountOutMinimum: 6n * 10n ** 18n,
    amountInMaximum: 18_190_500_000n,
  });
  const { calls } = decodeMulticall(SWAP_ROUTER_ABI, steps[1].data);
  const p = calls[0].args[0] as { path: `0x${string}` };
  t.strictSame(
    [{ ...calls[0], args: [{ ...p, path: parsePackedPath(p.path) }] }, calls[1]],
    [
      {
        functionName: 'exactOutput',
        args: [
          {
            path: { tokens: [WETH, USDC, USDT], fees: [500, 100] },
            recipient: ROUTER,
            deadline: 1_900_000_000n,
            amountOut: 6n * 10n ** 18n,
            amountInMaximum: 18_190_500_000n,
          },
        ],
      },
      { functionName: 'unwrapWETH9', args: [6n * 10n ** 18n, RECIPIENT] },
    ],
  );
});
