// The request's `hooks` option on the devnet's v4 pools (startSeededDevnet({ v4: true })), searched through the
// v4 deployment alone on one hop so that each pair's v4 pools are the only candidates: the pool whose hook has swap
// permissions and the dynamic-fee pool never appear in a route; with "none" a pool with a harmless hook is left out,
// with "safe" it is used. The pools are named by their poolIds from the devnet plan (seeds/devnet/deployUniswapV4.ts).
// Native ends meet both the native ETH pools and the WETH pools (src/routing/nativePools.ts): the hookless native
// ETH/USDC pool is chosen (with the WETH/USDC pool beside it on a split), never the hooked one; the hooked ETH/USDC
// pool is also tried as a WETH/USDC pool (its snapshot state with currency0 set to WETH).
import t from 'tap';
import { v4DevnetAddresses } from '../../seeds/devnet/deployUniswapV4.ts';
import { DEVNET_V4_POOLS } from '../../seeds/devnet/devnetV4Plan.ts';
import { PoolGraph } from '../../src/graph/PoolGraph.ts';
import { PricingGraph } from '../../src/graph/PricingGraph.ts';
import type { Snapshot } from '../../src/graph/snapshot.ts';
import type { SnapshotPoolV4 } from '../../src/protocols/uniswapV4/SnapshotPoolV4.ts';
import { findTrades } from '../../src/quote/TradeTask.ts';
import type { TradeSearch } from '../../src/routing/TradeFinder.ts';
import { startSeededDevnet } from '../helpers/followDevnet.ts';

const { catalog, chain, seedNow } = await startSeededDevnet(t.teardown, 'sqs-v4-hooks-', { v4: true });
const snapshot = await seedNow();
const plan = v4DevnetAddresses().pools;
const poolIndex = (hook: 'swap' | 'dynamicFee' | undefined, a: string, b: string) =>
  DEVNET_V4_POOLS.findIndex((p) => p.hook === hook && p.a === a && p.b === b);
const hookless = plan[poolIndex(undefined, 'ETH', 'USDC')].poolId.toLowerCase();
const wethUsdc = plan[poolIndex(undefined, 'WETH', 'USDC')].poolId.toLowerCase();
const swapHooked = plan[poolIndex('swap', 'ETH', 'USDC')].poolId.toLowerCase();
const dynamicFee = plan[poolIndex('dynamicFee', 'WBTC', 'USDC')].poolId.toLowerCase();
const token = (symbol: string) => chain.tokens.find((x) => x.symbol === symbol)!.address.toLowerCase();

/** A permission set that cannot change swap amounts: beforeAddLiquidity only (Hooks.sol bit 11). */
const HARMLESS_HOOK = '0x0000000000000000000000000000000000000800';

const pricing = (s: Snapshot) => new PricingGraph(new PoolGraph([s], catalog), catalog);
const graph = pricing(snapshot);
const native = graph.chain(chain.chainId)!.native;

function search(tokenIn: string, tokenOut: string, amount: bigint, hooks?: 'none' | 'safe'): TradeSearch {
  return {
    chainId: chain.chainId,
    tokenIn,
    tokenOut,
    tradeType: 'exactIn',
    amount,
    limits: { maxHops: 1, maxSplits: 3, gasPriceWei: 0n, deployments: ['uniswap/v4'], ...(hooks ? { hooks } : {}) },
    perDeployment: false,
  };
}

/** The pools of each split of the one trade a search finds, or its refusal code. */
function routes(g: PricingGraph, s: TradeSearch): string[][] | string {
  const [result] = findTrades(g, s);
  if (!result.outcome.ok) return result.outcome.code;
  return result.outcome.trade.splits.map((split) => split.route.legs.map((l) => l.pool.toLowerCase()));
}

t.test('the devnet plan has the pools this test names', async (t) => {
  t.not(hookless, swapHooked);
  const v4 = snapshot.pools.filter((p) => p.version === 'v4') as SnapshotPoolV4[];
  t.equal(BigInt(v4.find((p) => p.address === hookless)!.hooks), 0n);
  t.not(BigInt(v4.find((p) => p.address === swapHooked)!.hooks), 0n);
  t.equal(v4.find((p) => p.address === dynamicFee)!.fee, 0x800000);
});

t.test('the hooked pool is never in a route, whatever the option, even as a WETH/USDC pool beside the hookless one', async (t) => {
  const asWeth: Snapshot = {
    ...snapshot,
    pools: snapshot.pools.map((p) => (p.address === swapHooked ? { ...(p as SnapshotPoolV4), token0: token('WETH') } : p)),
  };
  for (const g of [graph, pricing(asWeth)]) {
    for (const hooks of [undefined, 'safe', 'none'] as const) {
      // Large trades: a split would take a second pool if one were a candidate.
      t.same(routes(g, search(token('USDC'), native, 50_000n * 10n ** 6n, hooks)), [[hookless], [wethUsdc]], `USDC→ETH, hooks ${hooks}`);
      t.same(routes(g, search(native, token('USDC'), 20n * 10n ** 18n, hooks)), [[hookless]], `ETH→USDC, hooks ${hooks}`);
    }
  }
});

t.test('the dynamic-fee WBTC/USDC pool (its fee unknown) is never in a route: the v4 deployment has no WBTC/USDC trade', async (t) => {
  for (const hooks of [undefined, 'safe', 'none'] as const) {
    t.same(routes(graph, search(token('USDC'), token('WBTC'), 1000n * 10n ** 6n, hooks)), 'NO_ROUTE', `USDC→WBTC, hooks ${hooks}`);
  }
});

t.test('a pool whose hook cannot change swap amounts is used with "safe" and left out with "none"', async (t) => {
  const harmless: Snapshot = {
    ...snapshot,
    pools: snapshot.pools.map((p) => (p.address === hookless ? { ...(p as SnapshotPoolV4), hooks: HARMLESS_HOOK } : p)),
  };
  const g = pricing(harmless);
  const s = (hooks?: 'none' | 'safe') => search(native, token('USDC'), 10n ** 18n, hooks);
  t.same(routes(g, s()), [[hookless]], 'default "safe"');
  t.same(routes(g, s('safe')), [[hookless]], '"safe"');
  t.same(routes(g, s('none')), [[wethUsdc]], '"none": the hookless WETH/USDC v4 pool instead');
  // The same trade as on the hookless pool itself: the harmless hook is priced from pool state alone.
  const amounts = (x: PricingGraph) => {
    const { outcome } = findTrades(x, s('safe'))[0];
    return outcome.ok ? outcome.trade.splits.flatMap((split) => split.route.legs.map((l) => [l.amountIn, l.amountOut])) : outcome.code;
  };
  t.same(amounts(g), amounts(graph));
  t.ok(Array.isArray(amounts(graph)), 'the hookless pool trades');
});
