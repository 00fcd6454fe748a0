// buildTradeSteps over routers: parts through different routers become separate approvals and transactions in the
// order of their first split, each transaction enforcing its own minimum (partMinimums), wraps go to
// buildWrapSteps, gas limits add up to the trade's gas model, and malformed trades are refused. Calldata decoded
// with the compiled contracts' ABIs.
import t from 'tap';
import { decodeFunctionData } from 'viem';
import { BALANCER_ARTIFACT_PATHS } from '../../seeds/devnet/deployBalancer.ts';
import type { CatalogChain } from '../../src/catalog/Catalog.ts';
import { loadCatalog } from '../../src/catalog/loadCatalog.ts';
import { callGas, gasLimit, routeGas, transactionGas } from '../../src/routing/gasModel.ts';
import type { Leg, Route, Trade } from '../../src/routing/Trade.ts';
import { buildTradeSteps, partMaximums, partMinimums, type TradeStepsParams } from '../../src/tx/buildTradeSteps.ts';
import { buildWrapSteps } from '../../src/tx/buildWrapSteps.ts';
import { artifactAbi } from '../helpers/devnetWallet.ts';
import { executorOf, legOf, routeOf, tokenOf, tradeOf } from '../helpers/handTrades.ts';
import { decode, decodeMulticall, ERC20_ABI, SWAP_ROUTER02_ABI, V2_ROUTER_ABI } from '../helpers/routerCalldata.ts';
import { swapLimit } from '../helpers/stepGas.ts';

const chain = loadCatalog().chain('ethereum') as CatalogChain;
const WALLET = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const RECIPIENT = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const SR02 = '0x68b3465833fb72A70ecDF485E0e4C7bD8665Fc45';
const SUSHI = '0xd9e1cE17f2641f24aE83637ab66a2cca9C378B9F';
const UNI_V2 = '0x7a250d5630B4cF539739dF2C5dAcb4c659F2488D';
const [WETH, USDC, DAI] = ['WETH', 'USDC', 'DAI'].map((s) => tokenOf(chain, s).address);
const E18 = 10n ** 18n;
const sr02 = executorOf(chain, 'SwapRouter02');
const sushi = executorOf(chain, 'UniswapV2Router02', 'sushiswap');
const uniV2 = executorOf(chain, 'UniswapV2Router02', 'uniswap');

const v3Route = routeOf(chain, sr02, [
  { dex: 'uniswap/v3', fee: 500, from: 'WETH', to: 'USDC', amountIn: 600n * E18, amountOut: 1_780_000_000_000n, ticksCrossed: 5 },
]);
const sushiRoute = routeOf(chain, sushi, [
  { dex: 'sushiswap/v2', from: 'WETH', to: 'USDC', amountIn: 250n * E18, amountOut: 735_000_000_001n },
]);
const sushiTwoHop = routeOf(chain, sushi, [
  { dex: 'sushiswap/v2', from: 'WETH', to: 'DAI', amountIn: 150n * E18, amountOut: 440_000n * E18 },
  { dex: 'sushiswap/v2', from: 'DAI', to: 'USDC', amountIn: 440_000n * E18, amountOut: 438_000_000_000n },
]);
const base = (trade: Trade, over: Partial<TradeStepsParams> = {}): TradeStepsParams => ({
  chain,
  trade,
  tokenIn: tokenOf(chain, 'WETH'),
  tokenOut: tokenOf(chain, 'USDC'),
  amountOutMinimum: 2_935_000_000_000n,
  recipient: RECIPIENT,
  wallet: WALLET,
  deadline: 1_900_000_000,
  ...over,
});

t.test('partMinimums: floor shares by output, the remainder to the largest part, never above a part output', async (t) => {
  t.strictSame(
    partMinimums(99n, [50n, 30n, 20n]),
    [50n, 30n, 19n],
    '49.5/29.7/19.8 floored to 49/29/19; the rest 2: +1 fills the 50, +1 to the 30',
  );
  t.strictSame(partMinimums(1_000n, [700n, 300n]), [700n, 300n], 'the whole output');
  t.strictSame(partMinimums(0n, [7n, 5n]), [0n, 0n]);
  t.strictSame(partMinimums(10n, [3n, 4n, 5n]), [2n, 3n, 5n], '2.5/3.33/4.17 floored to 2/3/4, the rest 1 to the 5');
  t.strictSame(partMinimums(12_345n, [20_000n]), [12_345n]);
  t.throws(() => partMinimums(13n, [5n, 7n]), {
    name: 'StepBuildError',
    message: 'amountOutMinimum: 13 cannot be shared over outputs 5, 7',
  });
});

t.test('partMaximums: each route its amountIn plus a floor share of the slack by input, the remainder to the largest', async (t) => {
  t.strictSame(partMaximums(1_005n, [700n, 300n]), [704n, 301n], 'slack 5 shared 3.5 / 1.5, floored to 3 / 1, the rest 1 to the 700');
  t.strictSame(partMaximums(100n, [60n, 40n]), [60n, 40n], 'no slack: each exactly its input');
  t.strictSame(partMaximums(12n, [3n, 4n, 5n]), [3n, 4n, 5n]);
  t.strictSame(partMaximums(13n, [3n, 4n, 5n]), [3n, 4n, 6n], 'slack 1 to the largest');
  t.strictSame(partMaximums(30n, [3n, 4n, 5n]), [7n, 10n, 13n], 'slack 18: 4.5 / 6 / 7.5 floored to 4 / 6 / 7, the rest 1 to the 5');
  t.throws(() => partMaximums(11n, [5n, 7n]), { name: 'StepBuildError', message: 'amountInMaximum: 11 is less than the inputs 5 + 7' });
});

t.test("exact output through two routers: approvals of each router's share of amountInMaximum, adding up to it", async (t) => {
  const v3Out = routeOf(
    chain,
    sr02,
    [{ dex: 'uniswap/v3', fee: 500, from: 'WETH', to: 'USDC', amountIn: 600n * E18, amountOut: 1_780_000_000_000n, ticksCrossed: 5 }],
    'exactOut',
  );
  const v2Out = routeOf(
    chain,
    uniV2,
    [{ dex: 'uniswap/v2', from: 'WETH', to: 'USDC', amountIn: 250n * E18, amountOut: 735_000_000_000n }],
    'exactOut',
  );
  const trade = tradeOf([v3Out, v2Out], 'exactOut');
  // 850 WETH at 50 bps: 854.25; the slack 4.25 shared 600:250 is 3 / 1.25.
  const steps = buildTradeSteps(base(trade, { amountOutMinimum: trade.amountOut, amountInMaximum: 854_250n * 10n ** 15n }));
  t.strictSame(
    steps.map((s) => [s.message, s.to, s.amount]),
    [
      ['Approve 603 WETH for Uniswap V3 router', WETH, '603000000000000000000'],
      ['Swap at most 603 WETH for 1780000 USDC on Uniswap V3', SR02, '603000000000000000000'],
      ['Approve 251.25 WETH for Uniswap V2 router', WETH, '251250000000000000000'],
      ['Swap at most 251.25 WETH for 735000 USDC on Uniswap V2', UNI_V2, '251250000000000000000'],
    ],
  );
  const gas = steps.reduce((s, x) => s + BigInt(x.gasLimit!), 0n);
  const model =
    callGas('SwapRouter02', 1, false, false, true, 'exactOut') +
    callGas('UniswapV2Router02', 1, false, false, true, 'exactOut') +
    routeGas(v3Out.legs, 'exactOut') +
    routeGas(v2Out.legs, 'exactOut');
  t.equal(
    gas,
    steps.reduce((s, _x) => s + gasLimit(0n), 0n) + (model * 5n) / 4n,
    'the step estimates add up to the gas model of the trade',
  );
});

t.test('SwapRouter02 and the SushiSwap Router02: each approved for what it pulls, minimums per transaction adding up', async (t) => {
  const trade = tradeOf([v3Route, sushiRoute, sushiTwoHop]);
  t.equal(trade.amountOut, 2_953_000_000_001n);
  const steps = buildTradeSteps(base(trade));
  t.strictSame(
    steps.map((s) => [s.message, s.to, s.amount, s.spender]),
    [
      ['Approve 600 WETH for Uniswap V3 router', WETH, '600000000000000000000', SR02],
      ['Swap 600 WETH for USDC on Uniswap V3', SR02, '600000000000000000000', undefined],
      ['Approve 400 WETH for SushiSwap V2 router', WETH, '400000000000000000000', SUSHI],
      ['Swap 250 WETH for USDC on SushiSwap V2', SUSHI, '250000000000000000000', undefined],
      ['Swap 150 WETH for USDC on SushiSwap V2', SUSHI, '150000000000000000000', undefined],
    ],
  );
  t.strictSame(decode(ERC20_ABI, steps[0].data).args, [SR02, 600n * E18]);
  t.strictSame(decode(ERC20_ABI, steps[2].data).args, [SUSHI, 400n * E18]);
  // 2,935,000,000,000 shared 1,780,000,000,000 : 735,000,000,001 : 438,000,000,000 of 2,953,000,000,001 is
  // 1,769,150,016,931.3 / 730,519,810,363.1 / 435,330,172,705.6, floored; the remainder 1 to the largest part.
  const { calls } = decodeMulticall(SWAP_ROUTER02_ABI, steps[1].data);
  t.strictSame(calls, [
    {
      functionName: 'exactInputSingle',
      args: [
        {
          tokenIn: WETH,
          tokenOut: USDC,
          fee: 500,
          recipient: RECIPIENT,
          amountIn: 600n * E18,
          amountOutMinimum: 1_769_150_016_932n,
          sqrtPriceLimitX96: 0n,
        },
      ],
    },
  ]);
  t.strictSame(decode(V2_ROUTER_ABI, steps[3].data), {
    functionName: 'swapExactTokensForTokens',
    args: [250n * E18, 730_519_810_363n, [WETH, USDC], RECIPIENT, 1_900_000_000n],
  });
  t.strictSame(decode(V2_ROUTER_ABI, steps[4].data), {
    functionName: 'swapExactTokensForTokens',
    args: [150n * E18, 435_330_172_705n, [WETH, DAI, USDC], RECIPIENT, 1_900_000_000n],
  });
  t.equal(1_769_150_016_932n + 730_519_810_363n + 435_330_172_705n, 2_935_000_000_000n, 'the minimums add up to amountOutMinimum');

  // The step estimates add up to what the gas model charges the trade (bestTrade's gasEstimate).
  // One approval's estimate, as the model charges it to a trade with an ERC-20 input.
  const approve = callGas('SwapRouter02', 1, false, false, true) - callGas('SwapRouter02', 1, false, false, false);
  const estimates = [
    approve,
    transactionGas('SwapRouter02', [v3Route.legs], false, false),
    approve,
    transactionGas('UniswapV2Router02', [sushiRoute.legs], false, false),
    transactionGas('UniswapV2Router02', [sushiTwoHop.legs], false, false),
  ];
  t.strictSame(
    steps.map((s) => s.gasLimit),
    estimates.map((e) => gasLimit(e).toString()),
  );
  const modelled =
    callGas('SwapRouter02', 1, false, false, true) +
    callGas('UniswapV2Router02', 2, false, false, true) +
    [v3Route, sushiRoute, sushiTwoHop].reduce((s, r) => s + routeGas(r.legs), 0n);
  t.equal(
    estimates.reduce((s, e) => s + e, 0n),
    modelled,
  );
});

t.test('allowances per router: a router whose allowance covers its pull gets no approval, the others theirs', async (t) => {
  const trade = tradeOf([v3Route, sushiRoute, sushiTwoHop]);
  const allowances = new Map([
    [SR02.toLowerCase(), 600n * E18],
    [SUSHI.toLowerCase(), 400n * E18 - 1n],
  ]);
  t.strictSame(
    buildTradeSteps(base(trade, { allowances })).map((s) => [s.message, s.spender]),
    [
      ['Swap 600 WETH for USDC on Uniswap V3', undefined],
      ['Approve 400 WETH for SushiSwap V2 router', SUSHI],
      ['Swap 250 WETH for USDC on SushiSwap V2', undefined],
      ['Swap 150 WETH for USDC on SushiSwap V2', undefined],
    ],
  );
});

t.test('routers follow the order of their first split; a Uniswap V2 route may be carried by its own Router02', async (t) => {
  const uniRoute = routeOf(chain, uniV2, [
    { dex: 'uniswap/v2', from: 'WETH', to: 'USDC', amountIn: 100n * E18, amountOut: 290_000_000_000n },
  ]);
  const trade = tradeOf([sushiRoute, v3Route, uniRoute]);
  const steps = buildTradeSteps(base(trade, { amountOutMinimum: 0n }));
  t.strictSame(
    steps.map((s) => [s.to, s.message]),
    [
      [WETH, 'Approve 250 WETH for SushiSwap V2 router'],
      [SUSHI, 'Swap 250 WETH for USDC on SushiSwap V2'],
      [WETH, 'Approve 600 WETH for Uniswap V3 router'],
      [SR02, 'Swap 600 WETH for USDC on Uniswap V3'],
      [WETH, 'Approve 100 WETH for Uniswap V2 router'],
      [UNI_V2, 'Swap 100 WETH for USDC on Uniswap V2'],
    ],
  );
});

t.test('native input through two routers: each swap step carries its own value, no approvals', async (t) => {
  const trade = tradeOf([v3Route, sushiRoute], 'exactIn', { in: true });
  const steps = buildTradeSteps(base(trade, { tokenIn: tokenOf(chain, 'ETH'), amountOutMinimum: 2_500_000_000_000n }));
  t.strictSame(
    steps.map((s) => [s.message, s.value, s.gasLimit]),
    [
      ['Swap 600 ETH for USDC on Uniswap V3', '600000000000000000000', swapLimit('SwapRouter02', [v3Route], { nativeIn: true })],
      ['Swap 250 ETH for USDC on SushiSwap V2', '250000000000000000000', swapLimit('UniswapV2Router02', [sushiRoute], { nativeIn: true })],
    ],
  );
  // 2,500,000,000,000 x 1,780,000,000,000 / 2,515,000,000,001 = 1,769,383,697,812.4 and the other share
  // 730,616,302,187.6, floored; the remainder 1 to the larger part.
  const { calls } = decodeMulticall(SWAP_ROUTER02_ABI, steps[0].data);
  t.strictSame(
    calls.map((c) => c.functionName),
    ['exactInputSingle', 'refundETH'],
  );
  t.equal((calls[0].args[0] as { amountOutMinimum: bigint }).amountOutMinimum, 1_769_383_697_813n);
  t.strictSame(decode(V2_ROUTER_ABI, steps[1].data), {
    functionName: 'swapExactETHForTokens',
    args: [730_616_302_187n, [WETH, USDC], RECIPIENT, 1_900_000_000n],
  });
});

t.test('a bare wrap or unwrap is buildWrapSteps', async (t) => {
  const bare = (tokenIn: string, tokenOut: string, wrapping: boolean): Trade => ({
    tradeType: 'exactIn',
    tokenIn: tokenOf(chain, tokenIn).address.toLowerCase(),
    tokenOut: tokenOf(chain, tokenOut).address.toLowerCase(),
    nativeIn: wrapping ? 'wrapped' : 'none',
    nativeOut: wrapping ? 'none' : 'wrapped',
    amountIn: 3n * E18,
    amountOut: 3n * E18,
    splits: [],
    gasEstimate: 0n,
    gasPriceWei: 0n,
    gasCost: { tokenIn: null, tokenOut: null },
    priceImpactBps: 0,
    fees: 0n,
  });
  const wrap = bare('ETH', 'WETH', true);
  const params = { chainId: 1, wrappedNativeToken: WETH, amount: 3n * E18, recipient: RECIPIENT, wallet: WALLET };
  t.strictSame(
    buildTradeSteps(base(wrap, { tokenIn: tokenOf(chain, 'ETH'), tokenOut: tokenOf(chain, 'WETH'), amountOutMinimum: 3n * E18 })),
    buildWrapSteps({ ...params, tokenIn: tokenOf(chain, 'ETH'), tokenOut: tokenOf(chain, 'WETH') }),
  );
  const unwrap = bare('WETH', 'ETH', false);
  const steps = buildTradeSteps(
    base(unwrap, { tokenIn: tokenOf(chain, 'WETH'), tokenOut: tokenOf(chain, 'ETH'), amountOutMinimum: 3n * E18 }),
  );
  t.strictSame(
    steps.map((s) => s.message),
    ['Unwrap 3 WETH into ETH', `Send 3 ETH to ${RECIPIENT}`],
  );
  t.strictSame(steps, buildWrapSteps({ ...params, tokenIn: tokenOf(chain, 'WETH'), tokenOut: tokenOf(chain, 'ETH') }));
});

t.test('refuses trades the quote layer must never produce', async (t) => {
  const ok = tradeOf([v3Route, sushiRoute]);
  const base0 = (trade: Trade, over: Partial<TradeStepsParams> = {}): TradeStepsParams => base(trade, { amountOutMinimum: 0n, ...over });
  const cases: [TradeStepsParams, string][] = [
    [
      base0({ ...ok, tradeType: 'exactOut' }),
      `amountOutMinimum: an exact-output trade delivers exactly its amountOut ${ok.amountOut}, not 0`,
    ],
    [base0({ ...ok, tradeType: 'exactOut' }, { amountOutMinimum: ok.amountOut }), 'amountInMaximum: required for an exact-output trade'],
    [
      base0({ ...ok, tradeType: 'exactOut' }, { amountOutMinimum: ok.amountOut, amountInMaximum: ok.amountIn - 1n }),
      `amountInMaximum: ${ok.amountIn - 1n} is less than the inputs ${v3Route.amountIn} + ${sushiRoute.amountIn}`,
    ],
    [
      base0(ok, { amountInMaximum: ok.amountIn }),
      'amountInMaximum: only for exact-output trades (an exact-input trade spends exactly its amountIn)',
    ],
    [base0(ok, { tokenOut: tokenOf(chain, 'DAI') }), `trade: swaps ${WETH.toLowerCase()} -> ${USDC.toLowerCase()}, not ${WETH} -> ${DAI}`],
    [
      base0(ok, { amountOutMinimum: ok.amountOut + 1n }),
      `amountOutMinimum: ${ok.amountOut + 1n} is more than the trade's amountOut ${ok.amountOut}`,
    ],
    [base0(ok, { amountOutMinimum: -1n }), 'amountOutMinimum: must be a non-negative uint256, got -1'],
    [base0(ok, { deadline: 0 }), 'deadline: must be a positive integer of Unix seconds, got 0'],
    [base0(ok, { recipient: '0x1234' }), 'recipient: "0x1234" is not a valid EVM address'],
    [base0({ ...ok, amountIn: ok.amountIn + 1n }), 'trade.splits: their amountIn do not add up to trade.amountIn'],
    [base0({ ...ok, splits: [] }), 'trade: a trade without splits is a wrap or unwrap, whose amountIn is its amountOut'],
    [
      base0({ ...ok, splits: [], amountOut: ok.amountIn }, { amountOutMinimum: 0n }),
      `tokenIn/tokenOut: ${WETH} -> ${USDC} is not a wrap or unwrap of ${WETH}`,
    ],
    [base0({ ...ok, nativeIn: 'wrapped' }), `trade: native ends wrapped -> none do not fit ${WETH} -> ${USDC}`],
    [
      base0(tradeOf([{ ...sushiRoute, executor: sr02 }])),
      'trade.splits[0].route.executor: Uniswap V3 router does not swap sushiswap v2 pool 0x000000000000000000000000000000000000dEaD',
    ],
    [
      base0(tradeOf([{ ...v3Route, executor: { ...sr02, address: UNI_V2 } }])),
      `trade.splits[0].route.executor: SwapRouter02 ${UNI_V2} is not a router of ethereum`,
    ],
    [
      base0({
        ...tradeOf([sushiTwoHop]),
        splits: [{ percent: 100, route: { ...sushiTwoHop, legs: [sushiTwoHop.legs[1], sushiTwoHop.legs[0]] } }],
      }),
      `trade.splits[0].route.legs[0]: starts at ${DAI.toLowerCase()}, not ${WETH.toLowerCase()}`,
    ],
    [
      base0(
        { ...tradeOf([v3Route], 'exactIn', { in: true }), tokenOut: WETH.toLowerCase() },
        {
          tokenIn: tokenOf(chain, 'ETH'),
          tokenOut: tokenOf(chain, 'WETH'),
        },
      ),
      `trade.splits[0].route: ends at ${USDC.toLowerCase()}, not ${WETH.toLowerCase()}`,
    ],
  ];
  const v4Route = routeOf(chain, executorOf(chain, 'UniversalRouter'), [
    { dex: 'uniswap/v4', fee: 500, from: 'WETH', to: 'USDC', amountIn: 600n * E18, amountOut: 1_780_000_000_000n },
  ]);
  cases.push([
    base0(tradeOf([v4Route]), { amountOutMinimum: 1_780_000_000_000n }),
    // The Universal Router names a v4 pool by its PoolKey, which routing puts on the leg (PoolProtocol.legKey).
    'v4 pool 0x000000000000000000000000000000000000dEaD: the leg carries no PoolKey (fee, tickSpacing, hooks)',
  ]);
  for (const [params, message] of cases) {
    t.throws(() => buildTradeSteps(params), { name: 'StepBuildError', code: 'STEP_BUILD_FAILED', status: 500, message }, message);
  }
});

t.test('a route of stages: per stage its approval and swap, each paying the next exactly its minimum; refusals', async (t) => {
  const vault = executorOf(chain, 'BalancerVault');
  const POOL_ID = `0x${'ab'.repeat(32)}`;
  const uni = legOf(chain, { dex: 'uniswap/v3', from: 'WETH', to: 'USDC', amountIn: E18, amountOut: 3_000_000_000n, ticksCrossed: 1 });
  // Priced at the first stage's minimum (1% below its 3000 USDC), as the search prices a hand-over.
  const bal: Leg = {
    ...legOf(chain, { dex: 'uniswap/v3', from: 'USDC', to: 'DAI', amountIn: 2_970_000_000n, amountOut: 2_969_000n * 10n ** 15n }),
    pool: POOL_ID,
    kind: 'balancerStable',
    dex: 'balancer',
    version: 'balancerV2',
    fee: 100,
    movesTick: false,
  };
  const stages = [
    { executor: sr02, legs: 1, amountOutMinimum: 2_970_000_000n },
    { executor: vault, legs: 1, amountOutMinimum: bal.amountOut },
  ];
  const route: Route = { legs: [uni, bal], amountIn: E18, amountOut: bal.amountOut, executor: sr02, stages, gas: 0n };
  const DAI_TOKEN = tokenOf(chain, 'DAI');
  const least = 2_950n * E18;
  const steps = buildTradeSteps(base(tradeOf([route]), { tokenOut: DAI_TOKEN, amountOutMinimum: least }));
  t.strictSame(
    steps.map((s) => [s.message, s.to, s.amount, s.spender]),
    [
      [`Approve 1 WETH for Uniswap V3 router`, WETH, E18.toString(), SR02],
      [
        'Swap 1 WETH for USDC on Uniswap V3 (at least 2970 USDC, expected 3000, to the wallet: the next step spends 2970, the rest stays with the wallet)',
        SR02,
        E18.toString(),
        undefined,
      ],
      ['Approve 2970 USDC for Balancer V2 Vault', USDC, '2970000000', vault.address],
      ['Swap 2970 USDC for DAI on Balancer V2', vault.address, '2970000000', undefined],
    ],
  );
  const first = decodeMulticall(SWAP_ROUTER02_ABI, steps[1].data).calls[0];
  t.match(
    first.args[0],
    { tokenIn: WETH, tokenOut: USDC, recipient: WALLET, amountIn: E18, amountOutMinimum: 2_970_000_000n },
    'the first pays the wallet, its minimum enforced',
  );
  const [single, funds, limit] = decodeFunctionData({ abi: artifactAbi(BALANCER_ARTIFACT_PATHS.Vault), data: steps[3].data }).args as [
    { poolId: string; amount: bigint; assetIn: string; assetOut: string },
    { sender: string; recipient: string },
    bigint,
  ];
  t.match(single, { poolId: POOL_ID, amount: 2_970_000_000n, assetIn: USDC, assetOut: DAI }, 'the second spends exactly the first minimum');
  t.match(funds, { sender: WALLET, recipient: RECIPIENT }, 'from the wallet to the recipient');
  t.equal(limit, least, "the trade's minimum on the last");
  t.strictSame(
    steps.filter((s) => s.spender === undefined).map((s) => s.gasLimit),
    [
      gasLimit(transactionGas('SwapRouter02', [[uni]], false, false)).toString(),
      gasLimit(transactionGas('BalancerVault', [[bal]], false, false)).toString(),
    ],
    "each swap's gasLimit is its own call's",
  );
  const wrong = { ...route, stages: [{ ...stages[0], amountOutMinimum: 2_969_999_999n }, stages[1]] };
  t.throws(() => buildTradeSteps(base(tradeOf([wrong]), { tokenOut: DAI_TOKEN, amountOutMinimum: least })), {
    message: "trade.splits[0].route.stages[0]: the next stage spends 2970000000, not this stage's minimum 2969999999",
  });
  t.throws(() => buildTradeSteps(base(tradeOf([route]), { tokenOut: DAI_TOKEN, amountOutMinimum: least, approvalMode: 'permit2' })), {
    message: 'approvalMode: "permit2" is not offered for a route of stages',
  });
  const foreign = { ...route, stages: [stages[0], { ...stages[1], executor: sr02 }] };
  t.throws(() => buildTradeSteps(base(tradeOf([foreign]), { tokenOut: DAI_TOKEN, amountOutMinimum: least })), {
    message: 'trade.splits[0].route.stages[1].executor: Uniswap V3 router does not swap every pool of the stage',
  });

  // One part of a split: the other route's call first (the larger share), then the stages; the minimum shared by the
  // routes' outputs (8900 DAI over 5990 and 2969: floor 5950.55.. and 2949.44.., the remainder wei to the larger), the
  // stages' last call enforcing the staged route's share; read allowances are not used (two calls approve the router).
  const direct: Route = {
    legs: [legOf(chain, { dex: 'uniswap/v3', from: 'WETH', to: 'DAI', amountIn: 2n * E18, amountOut: 5_990n * E18 })],
    amountIn: 2n * E18,
    amountOut: 5_990n * E18,
    executor: sr02,
    gas: 0n,
  };
  const split = buildTradeSteps(
    base(tradeOf([direct, route]), {
      tokenOut: DAI_TOKEN,
      amountOutMinimum: 8_900n * E18,
      allowances: new Map([[SR02.toLowerCase(), 10n * E18]]),
    }),
  );
  t.strictSame(
    split.map((s) => [s.message, s.to, s.amount]),
    [
      ['Approve 2 WETH for Uniswap V3 router', WETH, (2n * E18).toString()],
      ['Swap 2 WETH for DAI on Uniswap V3', SR02, (2n * E18).toString()],
      ...steps.map((s) => [s.message, s.to, s.amount]),
    ],
    'split: the direct route, then the stages, each call with its own approval',
  );
  t.match(
    decodeMulticall(SWAP_ROUTER02_ABI, split[1].data).calls[0].args[0],
    { tokenIn: WETH, tokenOut: DAI, recipient: RECIPIENT, amountIn: 2n * E18, amountOutMinimum: 5_950_552_517_021_989_061_280n },
    "split: the direct route's call enforces its share",
  );
  const splitLimit = decodeFunctionData({ abi: artifactAbi(BALANCER_ARTIFACT_PATHS.Vault), data: split[5].data }).args?.[2];
  t.equal(splitLimit, 2_949_447_482_978_010_938_720n, "split: the stages' last call enforces the staged route's share");
});
