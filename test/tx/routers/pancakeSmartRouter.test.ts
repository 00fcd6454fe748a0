// PancakeSwap SmartRouter steps from buildTradeSteps on BNB Smart Chain's catalogue ("PancakeSwap V3"), checked
// against the SmartRouter's own ABI as @pancakeswap/smart-router ships it (SwapRouter.ABI), not src/tx/abis.ts: every
// transaction decodes with it into the expected calls, and re-encoding the decoded calls with it gives the same bytes.
// The catalogue's router, quoter, pool deployer and init code hash are PancakeSwap's SDK constants for chain 56.
import { createRequire } from 'node:module';
import type * as SmartRouter from '@pancakeswap/smart-router';
import type * as V3Sdk from '@pancakeswap/v3-sdk';
import t, { type Test } from 'tap';
import { type Abi, decodeFunctionData, encodeFunctionData, type Hex, keccak256 } from 'viem';
import { loadArtifact } from '../../../seeds/devnet/artifacts.ts';
import { PANCAKE_ARTIFACT_PATHS } from '../../../seeds/devnet/deployPancakeV3.ts';
import type { CatalogChain } from '../../../src/catalog/Catalog.ts';
import { loadCatalog } from '../../../src/catalog/loadCatalog.ts';
import { SWAP_ROUTER02_ADDRESS_THIS } from '../../../src/tx/abis.ts';
import { buildTradeSteps } from '../../../src/tx/buildTradeSteps.ts';
import { executorOf, routeOf, tokenOf, tradeOf } from '../../helpers/handTrades.ts';
import { parsePackedPath } from '../../helpers/routerCalldata.ts';
import { swapLimit } from '../../helpers/stepGas.ts';

// The SDKs' CommonJS builds (same packages, same constants): their ES builds pull in hundreds of modules, each through
// the TypeScript loader's hooks, which costs this file several CPU-seconds at start.
const require = createRequire(import.meta.url);
const { ADDRESS_THIS, SMART_ROUTER_ADDRESSES, SwapRouter, V3_QUOTER_ADDRESSES } =
  require('@pancakeswap/smart-router') as typeof SmartRouter;
const { DEPLOYER_ADDRESSES, FACTORY_ADDRESSES, POOL_INIT_CODE_HASHES } = require('@pancakeswap/v3-sdk') as typeof V3Sdk;
const SMART_ROUTER_ABI = SwapRouter.ABI as unknown as Abi;
const chain = loadCatalog().chain(56) as CatalogChain;
const dex = chain.dexes.find((d) => d.slug === 'pancakeswap' && d.version === 'v3')!;
const router = executorOf(chain, 'PancakeSmartRouter');
const WALLET = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const RECIPIENT = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const [WBNB, USDT, USDC, BTCB] = ['WBNB', 'USDT', 'USDC', 'BTCB'].map((s) => tokenOf(chain, s).address);
const params = { chain, recipient: RECIPIENT, wallet: WALLET, deadline: 1_900_000_000 };
const E18 = 10n ** 18n;

interface Call {
  readonly functionName: string;
  readonly args: readonly unknown[];
}

/** One call decoded with the SmartRouter ABI, after checking that the ABI re-encodes it to the same bytes. */
function decodeStrict(t: Test, data: Hex): Call {
  const { functionName, args } = decodeFunctionData({ abi: SMART_ROUTER_ABI, data });
  t.equal(
    encodeFunctionData({ abi: SMART_ROUTER_ABI, functionName, args } as Parameters<typeof encodeFunctionData>[0]),
    data,
    `${functionName} re-encodes`,
  );
  const call = { functionName, args: args ?? [] };
  if (functionName !== 'exactInput' && functionName !== 'exactOutput') return call;
  const p = call.args[0] as { path: Hex };
  return { functionName, args: [{ ...p, path: parsePackedPath(p.path) }] };
}

/** A SmartRouter transaction: multicall(deadline, bytes[]) and its calls, each decoded strictly. */
function decodeTx(t: Test, data: Hex): { deadline: bigint; calls: Call[] } {
  const outer = decodeStrict(t, data);
  t.equal(outer.functionName, 'multicall');
  t.equal(outer.args.length, 2, 'multicall(uint256 deadline, bytes[] data)');
  return { deadline: outer.args[0] as bigint, calls: (outer.args[1] as Hex[]).map((c) => decodeStrict(t, c)) };
}

t.test("the catalogue's PancakeSwap V3 is PancakeSwap's chain-56 deployment as its SDKs state it", async (t) => {
  t.strictSame(
    [dex.v3FactoryAddress, dex.v3PoolDeployerAddress, dex.poolInitCodeHash, dex.v3RouterAddress, dex.v3RouterKind, dex.v3QuoterAddress],
    [
      FACTORY_ADDRESSES[56],
      DEPLOYER_ADDRESSES[56],
      POOL_INIT_CODE_HASHES[56],
      SMART_ROUTER_ADDRESSES[56],
      'PancakeSmartRouter',
      V3_QUOTER_ADDRESSES[56],
    ],
  );
  t.strictSame(dex.feeTiers, [100, 500, 2500, 10000]);
  t.equal(
    dex.poolInitCodeHash,
    keccak256(loadArtifact(PANCAKE_ARTIFACT_PATHS.PancakeV3Pool).bytecode),
    'keccak256 of the npm pool creation code',
  );
  t.strictSame([router.address, router.name], [SMART_ROUTER_ADDRESSES[56], 'PancakeSwap V3 router']);
  t.equal(SWAP_ROUTER02_ADDRESS_THIS, ADDRESS_THIS, "the router's ADDRESS_THIS");
});

t.test('one pool on the 2500 tier: multicall(deadline, [exactInputSingle paying the recipient with the minimum])', async (t) => {
  const route = routeOf(chain, router, [
    { dex: 'pancakeswap/v3', fee: 2500, from: 'USDT', to: 'WBNB', amountIn: 600n * E18, amountOut: E18 },
  ]);
  const steps = buildTradeSteps({
    ...params,
    trade: tradeOf([route]),
    tokenIn: tokenOf(chain, 'USDT'),
    tokenOut: tokenOf(chain, 'WBNB'),
    amountOutMinimum: 995n * 10n ** 15n,
  });
  t.strictSame(
    steps.map((s) => [s.message, s.to, s.value ?? '0', s.gasLimit]),
    [
      ['Approve 600 USDT for PancakeSwap V3 router', USDT, '0', steps[0].gasLimit],
      ['Swap 600 USDT for WBNB on PancakeSwap V3', router.address, '0', swapLimit('PancakeSmartRouter', [route])],
    ],
  );
  t.strictSame(decodeTx(t, steps[1].data as Hex), {
    deadline: 1_900_000_000n,
    calls: [
      {
        functionName: 'exactInputSingle',
        args: [
          {
            tokenIn: USDT,
            tokenOut: WBNB,
            fee: 2500,
            recipient: RECIPIENT,
            amountIn: 600n * E18,
            amountOutMinimum: 995n * 10n ** 15n,
            sqrtPriceLimitX96: 0n,
          },
        ],
      },
    ],
  });
});

t.test('two routes, native in: exactInputSingle and exactInput paying the router, sweepToken the sum, refundETH', async (t) => {
  const a = routeOf(chain, router, [
    { dex: 'pancakeswap/v3', fee: 500, from: 'WBNB', to: 'USDT', amountIn: 2n * E18, amountOut: 1200n * E18 },
  ]);
  const b = routeOf(chain, router, [
    { dex: 'pancakeswap/v3', fee: 2500, from: 'WBNB', to: 'USDC', amountIn: E18, amountOut: 600n * E18 },
    { dex: 'pancakeswap/v3', fee: 100, from: 'USDC', to: 'USDT', amountIn: 600n * E18, amountOut: 599n * E18 },
  ]);
  const steps = buildTradeSteps({
    ...params,
    trade: tradeOf([a, b], 'exactIn', { in: true }),
    tokenIn: tokenOf(chain, 'BNB'),
    tokenOut: tokenOf(chain, 'USDT'),
    amountOutMinimum: 1790n * E18,
  });
  t.strictSame(
    steps.map((s) => [s.message, s.to, s.value, s.gasLimit]),
    [
      [
        'Swap 3 BNB for USDT on PancakeSwap V3',
        router.address,
        (3n * E18).toString(),
        swapLimit('PancakeSmartRouter', [a, b], { nativeIn: true }),
      ],
    ],
  );
  t.strictSame(decodeTx(t, steps[0].data as Hex).calls, [
    {
      functionName: 'exactInputSingle',
      args: [
        {
          tokenIn: WBNB,
          tokenOut: USDT,
          fee: 500,
          recipient: ADDRESS_THIS,
          amountIn: 2n * E18,
          amountOutMinimum: 0n,
          sqrtPriceLimitX96: 0n,
        },
      ],
    },
    {
      functionName: 'exactInput',
      args: [{ path: { tokens: [WBNB, USDC, USDT], fees: [2500, 100] }, recipient: ADDRESS_THIS, amountIn: E18, amountOutMinimum: 0n }],
    },
    { functionName: 'sweepToken', args: [USDT, 1790n * E18, RECIPIENT] },
    { functionName: 'refundETH', args: [] },
  ]);
});

t.test('exact output, native out, two pools: exactOutput with the reversed path to the router, unwrapWETH9', async (t) => {
  const route = routeOf(
    chain,
    router,
    [
      { dex: 'pancakeswap/v3', fee: 2500, from: 'BTCB', to: 'USDT', amountIn: 10n ** 16n, amountOut: 950n * E18 },
      { dex: 'pancakeswap/v3', fee: 500, from: 'USDT', to: 'WBNB', amountIn: 950n * E18, amountOut: 15n * 10n ** 17n },
    ],
    'exactOut',
  );
  const steps = buildTradeSteps({
    ...params,
    trade: tradeOf([route], 'exactOut', { out: true }),
    tokenIn: tokenOf(chain, 'BTCB'),
    tokenOut: tokenOf(chain, 'BNB'),
    amountOutMinimum: 15n * 10n ** 17n,
    amountInMaximum: 101n * 10n ** 14n,
  });
  t.equal(steps.length, 2);
  t.strictSame(decodeTx(t, steps[1].data as Hex).calls, [
    {
      functionName: 'exactOutput',
      args: [
        {
          path: { tokens: [WBNB, USDT, BTCB], fees: [500, 2500] },
          recipient: ADDRESS_THIS,
          amountOut: 15n * 10n ** 17n,
          amountInMaximum: 101n * 10n ** 14n,
        },
      ],
    },
    { functionName: 'unwrapWETH9', args: [15n * 10n ** 17n, RECIPIENT] },
  ]);
});

t.test('exact output, one pool, ERC-20 out: exactOutputSingle paying the recipient', async (t) => {
  const route = routeOf(
    chain,
    router,
    [{ dex: 'pancakeswap/v3', fee: 100, from: 'USDC', to: 'USDT', amountIn: 1001n * E18, amountOut: 1000n * E18 }],
    'exactOut',
  );
  const steps = buildTradeSteps({
    ...params,
    trade: tradeOf([route], 'exactOut'),
    tokenIn: tokenOf(chain, 'USDC'),
    tokenOut: tokenOf(chain, 'USDT'),
    amountOutMinimum: 1000n * E18,
    amountInMaximum: 1002n * E18,
  });
  t.strictSame(decodeTx(t, steps[1].data as Hex).calls, [
    {
      functionName: 'exactOutputSingle',
      args: [
        {
          tokenIn: USDC,
          tokenOut: USDT,
          fee: 100,
          recipient: RECIPIENT,
          amountOut: 1000n * E18,
          amountInMaximum: 1002n * E18,
          sqrtPriceLimitX96: 0n,
        },
      ],
    },
  ]);
});
