// Native ETH v4 pools on the devnet (seeds/devnet/deployUniswapV4.ts: native ETH/USDC 0.05% beside the WETH/USDC
// 0.3% v4 pool and the v2/v3 WETH pools), routed and executed through the Universal Router without wrapping, and
// the wrap or unwrap taken only where a path crosses between an ETH pool and a WETH pool (src/routing/nativePools.ts).
// One devnet for the file; each case starts from the seeded state (evm_revert), asks bestTrade for the trade (the
// pools it may use steer it to the shape named, which is checked: `A -dex-> B | C -dex-> D` where the route wraps
// or unwraps between B and C), builds the steps and sends each exactly as returned, with its own gasLimit. The
// recipient must receive exactly amountOut (ether for a native output), the wallet spend exactly amountIn (native
// input: exactly amountIn plus gas; exact output refunds the unspent value in the same call), the UniversalRouter
// hold no token and no ether, and the PoolManager's balance of each currency move by exactly what its pools took in
// and paid out (nothing left in it); each case runs again, priced on the new state, from another account on the pools
// the first run traded, and its gas is held to the model as in universalRouter.devnet.test.ts (RECORD_GAS_FIXTURE=1:
// test/fixtures/gas/devnetUniversalRouterNativeGasUsed.json). Then routing: on the seeded state the native pool gives more than the WETH pool
// for ETH -> USDC and is chosen; after another account moves the native pool's price, the WETH pool gives more and is
// chosen; each chosen amount equals V4Quoter's on chain.
// The set-up and the runs are shared with universalRouter.devnet.test.ts (test/helpers/universalRouterDevnet.ts).
import t from 'tap';
import { type Address, type Hex, parseUnits, zeroAddress } from 'viem';
import { V4_ARTIFACT_PATHS } from '../../seeds/devnet/deployUniswapV4.ts';
import { NATIVE_TOKEN_ADDRESS } from '../../src/catalog/Catalog.ts';
import { ChainPoolIndex } from '../../src/graph/ChainPoolIndex.ts';
import { PoolGraph } from '../../src/graph/PoolGraph.ts';
import { artifactAbi, freshAddress } from '../helpers/devnetWallet.ts';
import { type RouterCase, startUniversalRouterDevnet } from '../helpers/universalRouterDevnet.ts';

const ur = await startUniversalRouterDevnet(t, {
  prefix: 'sqs-ur-native-',
  recipients: 'ur native',
  fixture: 'universalRouterNative',
  test: 'test/tx/universalRouterNative.devnet.test.ts',
});
const {
  catalog,
  chain,
  seedNow,
  v4: V4,
  pricing,
  wallet,
  router: ROUTER,
  mover,
  token,
  symbolOf,
  shape,
  tradeFor,
  stepsFor,
  send,
  freshState,
} = ur;
const POOL_MANAGER = V4.contracts.poolManager;
const V4_QUOTER_ABI = artifactAbi(V4_ARTIFACT_PATHS.V4Quoter);

/** A v4 currency's balance: ether for native ETH, else the token's. */
const currencyBalance = (currency: string, owner: Address): Promise<bigint> =>
  wallet.balanceOf(currency === zeroAddress ? NATIVE_TOKEN_ADDRESS : currency, owner);

const ETH_USDC = 'uniswap/v4 ETH/USDC 500';
const WETH_USDC_V4 = 'uniswap/v4 USDC/WETH 3000';
const USDC_USDT_V4 = 'uniswap/v4 USDC/USDT 100';

const CASES: readonly RouterCase[] = [
  {
    name: 'native in, exact in: the native ETH pool paid from the value, nothing wrapped',
    tokenIn: 'ETH',
    tokenOut: 'USDC',
    amount: '20',
    maxHops: 1,
    pools: [ETH_USDC],
    shape: ['UniversalRouter: ETH -uniswap/v4 500-> USDC'],
  },
  {
    name: 'native out, exact in: the recipient receives ether from the native ETH pool',
    tokenIn: 'USDC',
    tokenOut: 'ETH',
    amount: '40000',
    maxHops: 1,
    pools: [ETH_USDC],
    shape: ['UniversalRouter: USDC -uniswap/v4 500-> ETH'],
  },
  {
    name: 'native in, exact out: the unspent value is refunded',
    tokenIn: 'ETH',
    tokenOut: 'USDC',
    tradeType: 'exactOut',
    amount: '30000',
    maxHops: 1,
    pools: [ETH_USDC],
    shape: ['UniversalRouter: ETH -uniswap/v4 500-> USDC'],
  },
  {
    name: 'native out, exact out',
    tokenIn: 'USDC',
    tokenOut: 'ETH',
    tradeType: 'exactOut',
    amount: '10',
    maxHops: 1,
    pools: [ETH_USDC],
    shape: ['UniversalRouter: USDC -uniswap/v4 500-> ETH'],
  },
  {
    name: 'a path crossing WETH -> ETH: v3 WETH pool, unwrap, v4 native pool',
    tokenIn: 'LINK',
    tokenOut: 'USDC',
    amount: '3000',
    pools: ['uniswap/v3 LINK/WETH 3000', ETH_USDC],
    shape: ['UniversalRouter: LINK -uniswap/v3 3000-> WETH | ETH -uniswap/v4 500-> USDC'],
  },
  {
    name: 'a path crossing ETH -> WETH: v4 native pool, wrap, v3 WETH pool',
    tokenIn: 'USDC',
    tokenOut: 'LINK',
    amount: '5000',
    pools: ['uniswap/v3 LINK/WETH 3000', ETH_USDC],
    shape: ['UniversalRouter: USDC -uniswap/v4 500-> ETH | WETH -uniswap/v3 3000-> LINK'],
  },
  {
    name: 'native in, split over the native ETH pool and a WETH pool (wrapped)',
    tokenIn: 'ETH',
    tokenOut: 'USDC',
    amount: '600',
    maxHops: 1,
    maxSplits: 2,
    pools: [ETH_USDC, 'uniswap/v3 USDC/WETH 500'],
    shape: ['UniversalRouter: WETH -uniswap/v3 500-> USDC', 'UniversalRouter: ETH -uniswap/v4 500-> USDC'],
  },
  {
    name: 'native out, exact out, split over the native ETH pool and a WETH pool (unwrapped)',
    tokenIn: 'USDC',
    tokenOut: 'ETH',
    tradeType: 'exactOut',
    amount: '600',
    maxHops: 1,
    maxSplits: 2,
    pools: [ETH_USDC, WETH_USDC_V4],
    shape: ['UniversalRouter: USDC -uniswap/v4 500-> ETH', 'UniversalRouter: USDC -uniswap/v4 3000-> WETH'],
  },
  {
    name: 'native in, v4 two pools: the native ETH pool then a token pool',
    tokenIn: 'ETH',
    tokenOut: 'USDT',
    amount: '20',
    pools: [ETH_USDC, USDC_USDT_V4],
    shape: ['UniversalRouter: ETH -uniswap/v4 500-> USDC -uniswap/v4 100-> USDT'],
  },
  {
    name: 'native out, v4 two pools: a token pool then the native ETH pool',
    tokenIn: 'USDT',
    tokenOut: 'ETH',
    amount: '40000',
    pools: [ETH_USDC, USDC_USDT_V4],
    shape: ['UniversalRouter: USDT -uniswap/v4 100-> USDC -uniswap/v4 500-> ETH'],
  },
  {
    name: 'native out, v4 two pools, exact out',
    tokenIn: 'USDT',
    tokenOut: 'ETH',
    tradeType: 'exactOut',
    amount: '10',
    pools: [ETH_USDC, USDC_USDT_V4],
    shape: ['UniversalRouter: USDT -uniswap/v4 100-> USDC -uniswap/v4 500-> ETH'],
  },
  {
    name: 'a path crossing WETH -> ETH: v2 WETH pair, unwrap, v4 native pool',
    tokenIn: 'DAI',
    tokenOut: 'USDC',
    amount: '30000',
    pools: ['uniswap/v2 DAI/WETH', ETH_USDC],
    shape: ['UniversalRouter: DAI -uniswap/v2-> WETH | ETH -uniswap/v4 500-> USDC'],
  },
  {
    name: 'a path crossing ETH -> WETH: v4 native pool, wrap, v2 WETH pair',
    tokenIn: 'USDC',
    tokenOut: 'DAI',
    amount: '30000',
    pools: ['uniswap/v2 DAI/WETH', ETH_USDC],
    shape: ['UniversalRouter: USDC -uniswap/v4 500-> ETH | WETH -uniswap/v2-> DAI'],
  },
  {
    name: 'native out, exact in, approvalMode permit2',
    tokenIn: 'USDC',
    tokenOut: 'ETH',
    amount: '40000',
    maxHops: 1,
    pools: [ETH_USDC],
    shape: ['UniversalRouter: USDC -uniswap/v4 500-> ETH'],
    approvalMode: 'permit2',
  },
  {
    name: 'a path crossing WETH -> ETH, approvalMode permit2',
    tokenIn: 'LINK',
    tokenOut: 'USDC',
    amount: '3000',
    pools: ['uniswap/v3 LINK/WETH 3000', ETH_USDC],
    shape: ['UniversalRouter: LINK -uniswap/v3 3000-> WETH | ETH -uniswap/v4 500-> USDC'],
    approvalMode: 'permit2',
  },
  {
    name: 'a path crossing ETH -> WETH, approvalMode permit2',
    tokenIn: 'USDC',
    tokenOut: 'LINK',
    amount: '5000',
    pools: ['uniswap/v3 LINK/WETH 3000', ETH_USDC],
    shape: ['UniversalRouter: USDC -uniswap/v4 500-> ETH | WETH -uniswap/v3 3000-> LINK'],
    approvalMode: 'permit2',
  },
];

// Beside the shape and the amounts: the swap's target and value, then nothing left in the router and the PoolManager's
// balances moved by exactly what its pools took in and paid out.
ur.testCases(t, CASES, async (t, { trade, nativeIn, most, steps }) => {
  const swap = steps[steps.length - 1];
  t.equal(swap.to, ROUTER, 'the swap goes to the Universal Router');
  if (nativeIn) {
    t.equal(steps.length, 1, 'native input: no approval, the swap alone');
    t.equal(swap.value, most.toString(), 'native input: the swap sends its most as value');
  } else t.equal(swap.value, undefined, 'ERC-20 input: no value');
  // The PoolManager's balance of every currency its pools touch, before.
  const v4Legs = trade.splits.flatMap((s) => s.route.legs).filter((l) => l.kind === 'uniswapV4');
  const currencies = [...new Set(v4Legs.flatMap((l) => [l.tokenIn, l.tokenOut]))];
  const pmBefore = await Promise.all(currencies.map((x) => currencyBalance(x, POOL_MANAGER)));
  return async () => {
    for (const x of chain.tokens) {
      if (x.address === NATIVE_TOKEN_ADDRESS) continue;
      t.equal(await wallet.balanceOf(x.address, ROUTER), 0n, `no ${x.symbol} is left in the UniversalRouter`);
    }
    t.equal(await wallet.client.getBalance({ address: ROUTER }), 0n, 'no ether is left in the UniversalRouter');
    for (const [i, x] of currencies.entries()) {
      const delta =
        v4Legs.reduce((s, l) => s + (l.tokenIn === x ? l.amountIn : 0n) - (l.tokenOut === x ? l.amountOut : 0n), 0n) + pmBefore[i];
      t.equal(await currencyBalance(x, POOL_MANAGER), delta, `the PoolManager's ${symbolOf(x)} moves by exactly its pools' amounts`);
    }
  };
});

ur.testGas(t, CASES);

/** V4Quoter's exact-input quote of one pool of the devnet plan, at the devnet's head. */
async function v4Quote(currency0: Address, currency1: Address, fee: number, zeroForOne: boolean, amount: bigint): Promise<bigint> {
  const pool = V4.pools.find((p) => p.currency0 === currency0 && p.currency1 === currency1 && p.fee === fee && BigInt(p.hooks) === 0n)!;
  const [out] = (await wallet.client.readContract({
    address: V4.contracts.v4Quoter,
    abi: V4_QUOTER_ABI,
    functionName: 'quoteExactInputSingle',
    args: [
      {
        poolKey: { currency0, currency1, fee, tickSpacing: pool.tickSpacing, hooks: pool.hooks },
        zeroForOne,
        exactAmount: amount,
        hookData: '0x' as Hex,
      },
    ],
  })) as readonly [bigint, bigint];
  return out;
}

t.test('bestTrade picks the native ETH pool when it gives more, the WETH pool when that does (V4Quoter)', async (t) => {
  await freshState();
  const usdc = token('USDC').address as Address;
  const weth = token('WETH').address as Address;
  const [w0, w1] = BigInt(weth) < BigInt(usdc) ? [weth, usdc] : [usdc, weth];
  const amount = parseUnits('1', 18);
  const quotes = async () => ({
    native: await v4Quote(zeroAddress, usdc, 500, true, amount),
    wrapped: await v4Quote(w0, w1, 3000, w0 === weth, amount),
  });
  const c: RouterCase = {
    name: 'ETH -> USDC',
    tokenIn: 'ETH',
    tokenOut: 'USDC',
    amount: '1',
    maxHops: 1,
    pools: [ETH_USDC, WETH_USDC_V4],
    shape: [],
  };

  const before = await quotes();
  t.ok(before.native > before.wrapped, `seeded: the native pool gives more (${before.native} > ${before.wrapped})`);
  const first = tradeFor(c);
  t.strictSame(shape(first), ['UniversalRouter: ETH -uniswap/v4 500-> USDC'], 'the native ETH pool is chosen');
  t.equal(first.amountOut, before.native, "its amountOut is V4Quoter's for the native pool");

  // Another account sells ether into the native pool until the WETH pool gives more for 1 ETH.
  const move: RouterCase = { name: 'move', tokenIn: 'ETH', tokenOut: 'USDC', amount: '100', maxHops: 1, pools: [ETH_USDC], shape: [] };
  let after = before;
  for (let i = 0; i < 20 && after.native >= after.wrapped; i++) {
    const moved = tradeFor(move, pricing(await seedNow()));
    await send(await stepsFor(move, moved, mover, freshAddress(`mover ${i}`)), mover);
    after = await quotes();
  }
  t.ok(after.wrapped > after.native, `moved: the WETH pool gives more (${after.wrapped} > ${after.native})`);
  const second = tradeFor(c, pricing(await seedNow()));
  t.strictSame(shape(second), ['UniversalRouter: WETH -uniswap/v4 3000-> USDC'], 'the WETH pool is chosen (wrapped)');
  t.equal(second.amountOut, after.wrapped, "its amountOut is V4Quoter's for the WETH pool");
});

t.test('a hook with swap permissions: refused as today, priced as V4Quoter prices it once the catalogue lists it', async (t) => {
  await freshState();
  const snapshot = await seedNow();
  const hooked = V4.pools.find((p) => p.currency0 === zeroAddress && p.fee === 3000 && BigInt(p.hooks) !== 0n)!;
  const c: RouterCase = {
    name: 'hooked',
    tokenIn: 'ETH',
    tokenOut: 'USDC',
    amount: '1',
    maxHops: 1,
    pools: [`${ETH_USDC.replace(' 500', ' 3000')} hooked`],
    shape: [],
  };
  const unlisted = pricing(snapshot);
  const entry = unlisted.pairPools(zeroAddress, hooked.currency1.toLowerCase()).find((e) => e.address === hooked.poolId.toLowerCase())!;
  t.equal(
    (unlisted.pool(entry) as { refusal?: string }).refusal,
    `v4 pool ${hooked.poolId.toLowerCase()} has a hook that can change swap amounts`,
    'unlisted: the refusal reason of today',
  );
  t.throws(() => tradeFor(c, unlisted), { message: 'no trade: INSUFFICIENT_LIQUIDITY' }, 'unlisted: never priced');
  const listing = {
    ...unlisted.chain,
    dexes: unlisted.chain.dexes.map((d) => (d.version === 'v4' ? { ...d, allowedHooks: [hooked.hooks] } : d)),
  };
  const listed = new ChainPoolIndex(listing, new PoolGraph([snapshot], catalog).pools(chain.chainId));
  const trade = tradeFor(c, listed);
  t.strictSame(shape(trade), ['UniversalRouter: ETH -uniswap/v4 3000-> USDC']);
  const [out] = (await wallet.client.readContract({
    address: V4.contracts.v4Quoter,
    abi: V4_QUOTER_ABI,
    functionName: 'quoteExactInputSingle',
    args: [
      {
        poolKey: {
          currency0: hooked.currency0,
          currency1: hooked.currency1,
          fee: hooked.fee,
          tickSpacing: hooked.tickSpacing,
          hooks: hooked.hooks,
        },
        zeroForOne: true,
        exactAmount: parseUnits('1', 18),
        hookData: '0x' as Hex,
      },
    ],
  })) as readonly [bigint, bigint];
  t.equal(trade.amountOut, out, "listed: its amountOut is V4Quoter's for the hooked pool");
});

t.test('a WETH (ERC-20) input never starts at the native ETH pool', async (t) => {
  const c: RouterCase = { name: 'WETH -> USDC', tokenIn: 'WETH', tokenOut: 'USDC', amount: '1', maxHops: 1, pools: [ETH_USDC], shape: [] };
  t.throws(() => tradeFor(c), { message: 'no trade: NO_ROUTE' });
});
