// executorsFor and chainExecutors on Ethereum's catalogue, expected lists written from the catalogue by hand:
// SwapRouter02 (0x68b3…) swaps Uniswap V3 and, through its v2 factory, Uniswap V2 pairs (exact output: V3 only);
// each v2 DEX has its UniswapV2Router02 (Uniswap 0x7a25…, SushiSwap 0xd9e1…); the Universal Router (0x66a9…) swaps
// Uniswap V4 and, through the v2/v3 factories it was deployed with, Uniswap V2 and V3 (exact output: V4 only); the
// Balancer V2 Vault (0xBA12…) swaps its own pools, exact input and output. A route's pools are its legs only: a native end is the trade's, never a pool of the route.
import t from 'tap';
import type { CatalogChain } from '../../src/catalog/Catalog.ts';
import { loadCatalog } from '../../src/catalog/loadCatalog.ts';
import { chainExecutors, chainMeetsNativePools, executorsFor, meetsNativePools, routeStages } from '../../src/routing/executors.ts';

const chain = loadCatalog().chain('ethereum') as CatalogChain;
const SR02 = '0x68b3465833fb72A70ecDF485E0e4C7bD8665Fc45';
const UNI_V2 = '0x7a250d5630B4cF539739dF2C5dAcb4c659F2488D';
const SUSHI = '0xd9e1cE17f2641f24aE83637ab66a2cca9C378B9F';
const UR = '0x66a9893cC07D91D95644AEDD05D03f95e1dBA8Af';
const VAULT = '0xBA12222222228d8Ba445958a75a0704d566BF2C8';
const pools = (...ids: string[]) => ids.map((id) => ({ dex: id.split('/')[0], version: id.split('/')[1] }));
const addresses = (list: readonly { address: string }[]): string[] => list.map((e) => e.address);

t.test(
  'chainExecutors: SwapRouter02 first, then the Universal Router, then the Balancer Vault, then each v2 DEX’s Router02 in catalogue order',
  async (t) => {
    t.strictSame(
      chainExecutors(chain).map((e) => [e.kind, e.address, e.name, [...e.deployments], [...e.exactOutDeployments]]),
      [
        ['SwapRouter02', SR02, 'Uniswap V3 router', ['uniswap/v3', 'uniswap/v2'], ['uniswap/v3']],
        ['UniversalRouter', UR, 'Uniswap Universal Router', ['uniswap/v4', 'uniswap/v2', 'uniswap/v3'], ['uniswap/v4']],
        ['BalancerVault', VAULT, 'Balancer V2 Vault', ['balancer/balancerV2'], ['balancer/balancerV2']],
        ['UniswapV2Router02', SUSHI, 'SushiSwap V2 router', ['sushiswap/v2'], ['sushiswap/v2']],
        ['UniswapV2Router02', UNI_V2, 'Uniswap V2 router', ['uniswap/v2'], ['uniswap/v2']],
      ],
    );
  },
);

t.test('executorsFor, exact input: every router that swaps all the pools, a v2 DEX’s own Router02 first', async (t) => {
  t.strictSame(addresses(executorsFor(chain, pools('uniswap/v3'))), [SR02, UR]);
  t.strictSame(addresses(executorsFor(chain, pools('uniswap/v2', 'uniswap/v2'))), [UNI_V2, SR02, UR]);
  t.strictSame(
    addresses(executorsFor(chain, pools('uniswap/v2', 'uniswap/v3'))),
    [SR02, UR],
    'mixed v2/v3: SwapRouter02, Universal Router',
  );
  t.strictSame(addresses(executorsFor(chain, pools('sushiswap/v2'))), [SUSHI]);
  t.strictSame(executorsFor(chain, pools('sushiswap/v2', 'uniswap/v3')), [], 'no one contract swaps both');
  t.strictSame(addresses(executorsFor(chain, pools('uniswap/v4', 'uniswap/v4'))), [UR], 'v4: the Universal Router only');
  t.strictSame(addresses(executorsFor(chain, pools('uniswap/v3', 'uniswap/v4', 'uniswap/v2'))), [UR], 'mixed v2/v3/v4');
  t.strictSame(executorsFor(chain, pools('sushiswap/v2', 'uniswap/v4')), [], 'SushiSwap is not the router’s v2 factory');
  t.strictSame(addresses(executorsFor(chain, pools('balancer/balancerV2', 'balancer/balancerV2'))), [VAULT], 'Balancer: its Vault');
  t.strictSame(executorsFor(chain, pools('balancer/balancerV2', 'uniswap/v3')), [], 'no one contract swaps Balancer and Uniswap pools');
  t.strictSame(executorsFor(chain, []), [], 'a route needs a pool');
});

t.test('executorsFor, exact output: one protocol per route, v2 through its DEX’s Router02 only', async (t) => {
  t.strictSame(addresses(executorsFor(chain, pools('uniswap/v3', 'uniswap/v3'), 'exactOut')), [SR02]);
  t.strictSame(addresses(executorsFor(chain, pools('uniswap/v2'), 'exactOut')), [UNI_V2]);
  t.strictSame(executorsFor(chain, pools('uniswap/v2', 'uniswap/v3'), 'exactOut'), []);
  t.strictSame(addresses(executorsFor(chain, pools('uniswap/v4', 'uniswap/v4'), 'exactOut')), [UR], 'v4 through the Universal Router');
  t.strictSame(executorsFor(chain, pools('uniswap/v3', 'uniswap/v4'), 'exactOut'), [], 'no mixed exact-output path');
});

t.test('executorsFor, a route crossing between native ETH and WETH pools: the Universal Router alone, exact input only', async (t) => {
  t.strictSame(
    addresses(executorsFor(chain, pools('uniswap/v3', 'uniswap/v3'), 'exactIn', true)),
    [UR],
    'v3 pools that SwapRouter02 swaps, but with a wrap between them: the Universal Router only',
  );
  t.strictSame(addresses(executorsFor(chain, pools('uniswap/v2'), 'exactIn', true)), [UR], 'not the v2 DEX’s own Router02');
  t.strictSame(executorsFor(chain, pools('sushiswap/v2'), 'exactIn', true), [], 'no router swaps SushiSwap pairs and wraps between them');
  t.strictSame(executorsFor(chain, pools('uniswap/v4', 'uniswap/v4'), 'exactOut', true), [], 'no exact-output path crosses');
});

t.test('meetsNativePools: the Universal Router only; Ethereum has one', async (t) => {
  const kinds = ['UniswapV2Router02', 'SwapRouter', 'SwapRouter02', 'PancakeSmartRouter', 'UniversalRouter'] as const;
  t.strictSame(
    kinds.filter((k) => meetsNativePools(k)),
    ['UniversalRouter'],
  );
  t.equal(chainMeetsNativePools(chain), true);
});

t.test('routeStages: a path no single executor runs, cut into the longest runs one executor covers; exact input only', async (t) => {
  const WETH = '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2';
  const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
  const legs = (...hops: [string, string][]) => hops.map(([id, tokenOut]) => ({ ...pools(id)[0], tokenOut }));
  const plan = (p: ReturnType<typeof routeStages>) => p?.map((s) => [s.legs, addresses(s.executors)]);
  t.strictSame(
    plan(routeStages(chain, legs(['balancer/balancerV2', WETH], ['uniswap/v3', USDC]), 'exactIn', false)),
    [
      [1, [VAULT]],
      [1, [SR02, UR]],
    ],
    'Balancer, then Uniswap V3: the Vault, then the V3 routers',
  );
  t.strictSame(
    plan(routeStages(chain, legs(['uniswap/v2', WETH], ['uniswap/v3', USDC], ['balancer/balancerV2', WETH]), 'exactIn', false)),
    [
      [2, [SR02, UR]],
      [1, [VAULT]],
    ],
    'Uniswap V2 + V3 in one stage (SwapRouter02 runs both), then the Vault',
  );
  t.equal(
    routeStages(chain, legs(['balancer/balancerV2', WETH], ['uniswap/v3', USDC]), 'exactOut', false),
    undefined,
    'exact output: none',
  );
  t.equal(routeStages(chain, legs(['uniswap/v3', WETH], ['uniswap/v3', USDC]), 'exactIn', false), undefined, 'one executor runs it: none');
  t.equal(
    routeStages(chain, legs(['uniswap/v4', '0x0000000000000000000000000000000000000000'], ['balancer/balancerV2', USDC]), 'exactIn', false),
    undefined,
    'a hand-over in native ETH: none',
  );
  t.equal(
    routeStages(chain, legs(['curve/v1', WETH], ['uniswap/v3', USDC]), 'exactIn', false),
    undefined,
    'a pool no executor swaps: none',
  );
});
