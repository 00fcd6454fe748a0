// The searches of one index share their candidate paths by a key of the pair, the options that select them and the
// pool filter (bestTrade's pairKey, bestTradesByDeployment's filters, both kept once built): a search must never read
// the paths another search selected with other ends, hops, side, hand-over slippage, deployments or hooks option. The
// oracle: the same search on an index built afresh for it (nothing kept), exact to the byte (bigints included). The
// searches run in an order where each option's change follows a search that differs from it in that option alone.
import t from 'tap';
import { type DeploymentId, deploymentId, NATIVE_TOKEN_ADDRESS } from '../../src/catalog/Catalog.ts';
import { PoolGraph } from '../../src/graph/PoolGraph.ts';
import { PricingGraph } from '../../src/graph/PricingGraph.ts';
import { pairKey } from '../../src/routing/bestTrade.ts';
import { allowFilter, bestTradesByDeployment } from '../../src/routing/bestTradesByDeployment.ts';
import type { RoutingLimits } from '../../src/routing/RoutingLimits.ts';
import type { TradeRequest } from '../../src/routing/searchGas.ts';
import { tradeEnds } from '../../src/routing/tradeEnds.ts';
import { shippedDevnetGraph } from '../helpers/shippedDevnet.ts';

const { catalog, snapshot, chain } = shippedDevnetGraph();
const freshIndex = () => new PricingGraph(new PoolGraph([snapshot], catalog), catalog).chain(31337)!;
const address = (symbol: string) =>
  symbol === 'ETH' ? NATIVE_TOKEN_ADDRESS.toLowerCase() : chain.tokens.find((x) => x.symbol === symbol)!.address.toLowerCase();
const all = chain.dexes.map((d) => deploymentId(d.slug, d.version));
const text = (o: unknown): string => JSON.stringify(o, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));

type Search = { tokenIn: string; tokenOut: string; tradeType: 'exactIn' | 'exactOut'; amount: bigint; limits: Partial<RoutingLimits> };
const base: Search = { tokenIn: 'WETH', tokenOut: 'DAI', tradeType: 'exactIn', amount: 10n ** 20n, limits: { maxHops: 3, maxSplits: 3 } };
/** Each search changes one thing from the one before it. */
const steps: ((s: Search) => Search)[] = [
  (s) => s,
  (s) => ({ ...s, limits: { ...s.limits, maxHops: 1 } }),
  (s) => ({ ...s, limits: { ...s.limits, maxHops: 2 } }),
  (s) => ({ ...s, tradeType: 'exactOut', amount: 10n ** 21n }),
  (s) => ({ ...s, tradeType: 'exactIn', amount: 10n ** 20n, limits: { ...s.limits, maxHops: 3, handoverSlippageBps: 50 } }),
  (s) => ({ ...s, limits: { ...s.limits, handoverSlippageBps: undefined, deployments: ['uniswap/v3'] } }),
  (s) => ({ ...s, limits: { ...s.limits, deployments: ['uniswap/v2'] } }),
  (s) => ({ ...s, limits: { ...s.limits, deployments: ['uniswap/v2', 'sushiswap/v2'] } }),
  (s) => ({ ...s, limits: { ...s.limits, deployments: undefined, hooks: 'none' } }),
  (s) => ({ ...s, limits: { ...s.limits, hooks: undefined }, tokenIn: 'ETH' }),
  (s) => ({ ...s, tokenIn: 'WETH', tokenOut: 'USDC' }),
  (s) => ({ ...s, tokenIn: 'USDC', tokenOut: 'WETH', amount: 10n ** 11n }),
];

t.test('every search on a shared index equals the same search on a fresh index', async (t) => {
  const shared = freshIndex();
  let search = base;
  const seen = new Set<string>();
  for (const step of steps) {
    search = step(search);
    const given = Object.fromEntries(Object.entries(search.limits).filter(([, v]) => v !== undefined));
    const limits = { maxHops: 3, maxSplits: 3, gasPriceWei: 10n ** 9n, deployments: all, ...given } as RoutingLimits;
    const subject = {
      tokenIn: address(search.tokenIn),
      tokenOut: address(search.tokenOut),
      tradeType: search.tradeType,
      amount: search.amount,
    };
    const name = `${search.tokenIn} -> ${search.tokenOut} ${search.tradeType} ${text(search.limits)}`;
    for (const perDeployment of [false, true]) {
      const got = text(bestTradesByDeployment(shared, subject, limits, perDeployment));
      const want = text(bestTradesByDeployment(freshIndex(), subject, limits, perDeployment));
      t.equal(got, want, `${name}${perDeployment ? ', per deployment' : ''}`);
      seen.add(want);
    }
  }
  // The searches differ from one another: a shared key would have shown.
  t.ok(seen.size >= steps.length, `${seen.size} distinct outcomes`);
});

t.test('pairKey: every end and option of the search changes the key; the same search, the same string', async (t) => {
  const index = freshIndex();
  const filter = (deployments: readonly DeploymentId[], hooks: 'none' | 'safe' = 'safe', allowed: readonly string[] = []) =>
    allowFilter(index, deployments, hooks, allowed);
  const request = (over: Partial<TradeRequest> = {}): TradeRequest => ({
    tokenIn: address('WETH'),
    tokenOut: address('DAI'),
    tradeType: 'exactIn',
    amount: 1n,
    maxHops: 3,
    maxSplits: 3,
    gasPriceWei: 1n,
    allow: filter(all).allow,
    allowKey: filter(all).allowKey,
    ...over,
  });
  const key = (r: TradeRequest, maxRoutes?: number, keepUnpaid = false) =>
    pairKey(tradeEnds(index.wrappedNative, r.tokenIn, r.tokenOut), r, maxRoutes, keepUnpaid);
  const first = key(request());
  t.equal(key(request()), first, 'the same search: the same key');
  const variants: [string, string][] = [
    ['tokenIn', key(request({ tokenIn: address('USDC') }))],
    ['tokenOut', key(request({ tokenOut: address('USDC') }))],
    ['native input (the wrapped token at the same node)', key(request({ tokenIn: address('ETH') }))],
    ['native output', key(request({ tokenIn: address('DAI'), tokenOut: address('ETH') }))],
    ['maxHops', key(request({ maxHops: 2 }))],
    ['side', key(request({ tradeType: 'exactOut' }))],
    ['hand-over slippage', key(request({ handoverSlippageBps: 50 }))],
    ['maxRoutes', key(request(), 16)],
    ['unpaid paths kept', key(request(), undefined, true)],
    ['deployments', key(request({ allowKey: filter(['uniswap/v3']).allowKey }))],
    ['hooks option', key(request({ allowKey: filter(all, 'none').allowKey }))],
    ['allowed hooks', key(request({ allowKey: filter(all, 'safe', ['0xabc']).allowKey }))],
  ];
  const keys = new Set([first, ...variants.map(([, k]) => k)]);
  for (const [name, k] of variants) t.not(k, first, `${name} changes the key`);
  t.equal(keys.size, variants.length + 1, 'every variant has a key of its own');
  t.not(
    key(request({ tokenIn: address('DAI'), tokenOut: address('ETH') })),
    key(request({ tokenIn: address('DAI'), tokenOut: address('WETH') })),
    'native output against its wrapped token (the same pool ends): another key',
  );
  t.equal(filter(['uniswap/v3']), filter(['uniswap/v3']), 'a filter is made once per index and list');
  t.not(filter(['uniswap/v3'], 'none'), filter(['uniswap/v3']), 'another hooks option, another filter');
});
