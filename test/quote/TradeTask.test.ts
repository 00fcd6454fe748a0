// findTrades on a pricing graph: a search that leaves the gas price to the state is priced at the gas price the
// chain's snapshot file records (read here from the file's JSON), and a chain without state has no trades.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { PricingGraph } from '../../src/graph/PricingGraph.ts';
import { findTrades } from '../../src/quote/TradeTask.ts';
import type { TradeSearch } from '../../src/routing/TradeFinder.ts';
import { shippedDevnetGraph } from '../helpers/shippedDevnet.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const { catalog, graph: pools } = shippedDevnetGraph();
const graph = new PricingGraph(pools, catalog);
const recorded = (JSON.parse(readFileSync(`${root}/seeds/snapshots/devnet.json`, 'utf8')) as { gasPriceWei: string }).gasPriceWei;
const devnet = catalog.chain(31337)!;

const search: TradeSearch = {
  chainId: 31337,
  tokenIn: '0x5fbdb2315678afecb367f032d93f642f64180aa3', // WETH
  tokenOut: '0xe7f1725e7734ce288f8367e1bb143e90bb3f0512', // USDC
  tradeType: 'exactIn',
  amount: 10n ** 18n,
  limits: { maxHops: 2, maxSplits: 2, gasPriceWei: undefined, deployments: devnet.dexes.map((d) => `${d.slug}/${d.version}` as const) },
  perDeployment: false,
};

/** The gas price the one trade of a search was ranked at. */
const gasPriceOf = (s: TradeSearch): bigint | undefined => {
  const [result] = findTrades(graph, s);
  return result?.outcome.ok ? result.outcome.trade.gasPriceWei : undefined;
};

t.test('an undefined gas price is the one the snapshot records; a stated one is kept', async (t) => {
  t.ok(/^[1-9][0-9]*$/.test(recorded), `the devnet snapshot records a gas price (${recorded})`);
  t.equal(gasPriceOf(search), BigInt(recorded));
  t.equal(gasPriceOf({ ...search, limits: { ...search.limits, gasPriceWei: 7n } }), 7n);
  t.equal(gasPriceOf({ ...search, limits: { ...search.limits, gasPriceWei: 0n } }), 0n);
});

t.test('a chain without pool state has no trades', async (t) => {
  t.same(findTrades(graph, { ...search, chainId: 0 }), []);
});
