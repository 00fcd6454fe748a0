// Balancer v2 Vault calldata (src/tx/routers/balancerVault.ts) decoded with the Vault ABI of
// @balancer-labs/v2-deployments: swap for one hop, batchSwap for several hops or routes (exact output: each route's
// steps from its last pool back), limits per asset as the Vault's deltas count, native ETH as asset 0; and the
// executor a catalogue balancerV2 DEX gives (src/routing/executors.ts). Executed on the devnet by
// balancerVault.devnet.test.ts.
import t from 'tap';
import { type Address, decodeFunctionData, encodeFunctionData, type Hex, zeroAddress } from 'viem';
import { BALANCER_ARTIFACT_PATHS } from '../../../seeds/devnet/deployBalancer.ts';
import type { CatalogChain, CatalogDex } from '../../../src/catalog/Catalog.ts';
import { chainExecutors, executorsFor } from '../../../src/routing/executors.ts';
import type { Leg, Route } from '../../../src/routing/Trade.ts';
import { balancerVault } from '../../../src/tx/routers/balancerVault.ts';
import type { RouterContext, RouterTransaction } from '../../../src/tx/routers/RouterEncoder.ts';
import { StepBuildError } from '../../../src/tx/StepBuildError.ts';
import { artifactAbi } from '../../helpers/devnetWallet.ts';

const VAULT_ABI = artifactAbi(BALANCER_ARTIFACT_PATHS.Vault);
const VAULT: Address = '0xBA12222222228d8Ba445958a75a0704d566BF2C8';
const WALLET: Address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const RECIPIENT: Address = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const WETH: Address = '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2';
const A: Address = '0x1000000000000000000000000000000000000001';
const B: Address = '0x2000000000000000000000000000000000000002';
const C: Address = '0x3000000000000000000000000000000000000003';
const DEADLINE = 1_900_000_000n;
const poolId = (n: number): Hex => `0x${n.toString(16).padStart(40, '0')}0002${'0'.repeat(19)}${n}` as Hex;

function leg(pool: Hex, tokenIn: Address, tokenOut: Address, amountIn: bigint, amountOut: bigint): Leg {
  return {
    pool,
    kind: 'balancerWeighted',
    dex: 'balancer',
    version: 'balancerV2',
    fee: 3000,
    tokenIn: tokenIn.toLowerCase(),
    tokenOut: tokenOut.toLowerCase(),
    amountIn,
    amountOut,
    ticksCrossed: 0,
    coldSlots: 0,
    movesTick: false,
  };
}
const executor = { kind: 'BalancerVault' as const, address: VAULT, name: 'Balancer V2 Vault' };
const route = (...legs: Leg[]): Route => ({
  legs,
  amountIn: legs[0].amountIn,
  amountOut: legs[legs.length - 1].amountOut,
  executor,
  gas: 0n,
});
const ctx = (nativeIn = false, nativeOut = false): RouterContext => ({
  router: VAULT,
  nativeIn,
  nativeOut,
  poolTokenOut: C,
  recipient: RECIPIENT,
  sender: WALLET,
  deadline: DEADLINE,
});
const funds = { sender: WALLET, fromInternalBalance: false, recipient: RECIPIENT, toInternalBalance: false };

/** Decoded with the Vault's own ABI; re-encoding gives the same bytes. */
function decoded(data: Hex): { functionName: string; args: readonly unknown[] } {
  const { functionName, args } = decodeFunctionData({ abi: VAULT_ABI, data });
  t.equal(encodeFunctionData({ abi: VAULT_ABI, functionName, args }), data, `${functionName} re-encodes to the same bytes`);
  return { functionName, args: args ?? [] };
}

t.test('one hop: swap, GIVEN_IN with the minimum as limit, GIVEN_OUT with the maximum', async (t) => {
  const r = route(leg(poolId(1), A, B, 1000n, 990n));
  const exactIn: RouterTransaction = { tradeType: 'exactIn', routes: [r], amountOutMinimum: 985n, amountInMaximums: [1000n] };
  t.strictSame(decoded(balancerVault.encode(ctx(), exactIn)), {
    functionName: 'swap',
    args: [{ poolId: poolId(1), kind: 0, assetIn: A, assetOut: B, amount: 1000n, userData: '0x' }, funds, 985n, DEADLINE],
  });
  const exactOut: RouterTransaction = { tradeType: 'exactOut', routes: [r], amountOutMinimum: 990n, amountInMaximums: [1005n] };
  t.strictSame(decoded(balancerVault.encode(ctx(), exactOut)), {
    functionName: 'swap',
    args: [{ poolId: poolId(1), kind: 1, assetIn: A, assetOut: B, amount: 990n, userData: '0x' }, funds, 1005n, DEADLINE],
  });
});

t.test('native ETH: asset 0 in (the Vault wraps the value) or out (it unwraps to the recipient)', async (t) => {
  const inRoute = route(leg(poolId(1), WETH, B, 10n ** 18n, 3000n));
  const tx: RouterTransaction = { tradeType: 'exactIn', routes: [inRoute], amountOutMinimum: 2990n, amountInMaximums: [10n ** 18n] };
  t.match(decoded(balancerVault.encode(ctx(true), tx)).args[0], { assetIn: zeroAddress, assetOut: B });
  const outRoute = route(leg(poolId(1), A, B, 5n, 6n), leg(poolId(2), B, WETH, 6n, 7n));
  const tx2: RouterTransaction = { tradeType: 'exactIn', routes: [outRoute], amountOutMinimum: 7n, amountInMaximums: [5n] };
  const { args } = decoded(balancerVault.encode(ctx(false, true), tx2));
  t.strictSame(args[2], [A, B, zeroAddress]);
  t.strictSame(args[4], [5n, 0n, -7n]);
});

t.test('several hops: batchSwap, chained amounts 0; exact output from the last pool back', async (t) => {
  const r = route(leg(poolId(1), A, B, 100n, 200n), leg(poolId(2), B, C, 200n, 300n));
  const exactIn: RouterTransaction = { tradeType: 'exactIn', routes: [r], amountOutMinimum: 295n, amountInMaximums: [100n] };
  t.strictSame(decoded(balancerVault.encode(ctx(), exactIn)), {
    functionName: 'batchSwap',
    args: [
      0,
      [
        { poolId: poolId(1), assetInIndex: 0n, assetOutIndex: 1n, amount: 100n, userData: '0x' },
        { poolId: poolId(2), assetInIndex: 1n, assetOutIndex: 2n, amount: 0n, userData: '0x' },
      ],
      [A, B, C],
      funds,
      [100n, 0n, -295n],
      DEADLINE,
    ],
  });
  const exactOut: RouterTransaction = { tradeType: 'exactOut', routes: [r], amountOutMinimum: 300n, amountInMaximums: [101n] };
  t.strictSame(decoded(balancerVault.encode(ctx(), exactOut)), {
    functionName: 'batchSwap',
    args: [
      1,
      [
        { poolId: poolId(2), assetInIndex: 1n, assetOutIndex: 2n, amount: 300n, userData: '0x' },
        { poolId: poolId(1), assetInIndex: 0n, assetOutIndex: 1n, amount: 0n, userData: '0x' },
      ],
      [A, B, C],
      funds,
      [101n, 0n, -300n],
      DEADLINE,
    ],
  });
});

t.test('several routes: one batchSwap, each route with its own amount, one limit over the whole', async (t) => {
  const r1 = route(leg(poolId(1), A, C, 60n, 59n));
  const r2 = route(leg(poolId(2), A, B, 40n, 41n), leg(poolId(3), B, C, 41n, 39n));
  t.strictSame(balancerVault.batch([r1, r2]), [[r1, r2]]);
  const tx: RouterTransaction = { tradeType: 'exactIn', routes: [r1, r2], amountOutMinimum: 97n, amountInMaximums: [60n, 40n] };
  const { functionName, args } = decoded(balancerVault.encode(ctx(), tx));
  t.equal(functionName, 'batchSwap');
  t.strictSame(args[1], [
    { poolId: poolId(1), assetInIndex: 0n, assetOutIndex: 1n, amount: 60n, userData: '0x' },
    { poolId: poolId(2), assetInIndex: 0n, assetOutIndex: 2n, amount: 40n, userData: '0x' },
    { poolId: poolId(3), assetInIndex: 2n, assetOutIndex: 1n, amount: 0n, userData: '0x' },
  ]);
  t.strictSame(args[2], [A, C, B]);
  t.strictSame(args[4], [100n, -97n, 0n]);
});

t.test('a leg whose pool is not a poolId is refused', async (t) => {
  const r = route(leg('0x1000000000000000000000000000000000000001' as Hex, A, B, 1n, 1n));
  const tx: RouterTransaction = { tradeType: 'exactIn', routes: [r], amountOutMinimum: 1n, amountInMaximums: [1n] };
  t.throws(
    () => balancerVault.encode(ctx(), tx),
    new StepBuildError(
      "route.legs[0].pool: a Balancer leg's pool must be its poolId (0x + 64 lower-case hex), got 0x1000000000000000000000000000000000000001",
    ),
  );
});

t.test('a catalogue balancerV2 DEX gives its Vault as the executor of its own pools, exact input and output', async (t) => {
  const dex = { chainId: 1, name: 'Balancer V2', slug: 'balancer', version: 'balancerV2', balancerVaultAddress: VAULT } as CatalogDex;
  const chain = { slug: 'x', dexes: [dex] } as unknown as CatalogChain;
  t.strictSame(
    chainExecutors(chain).map((e) => [e.kind, e.address, e.name, [...e.deployments], [...e.exactOutDeployments]]),
    [['BalancerVault', VAULT, 'Balancer V2 Vault', ['balancer/balancerV2'], ['balancer/balancerV2']]],
  );
  const pools = [{ dex: 'balancer', version: 'balancerV2' }];
  t.strictSame(
    executorsFor(chain, pools, 'exactOut').map((e) => e.kind),
    ['BalancerVault'],
  );
  t.strictSame(executorsFor(chain, [...pools, { dex: 'uniswap', version: 'v3' }]), []);
});
