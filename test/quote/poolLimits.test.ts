// Amounts the pools cannot execute (issue 23 item 3), over the shipped catalogue and devnet snapshot: a Uniswap v2
// pair reverts `UniswapV2: OVERFLOW` when a balance after the swap exceeds 2^112 - 1 (UniswapV2Pair._update), so no
// path may send it more than 2^112 - 1 - its balance; a split routes the rest through other pools, and an amount no
// set of paths can take is a 400 saying why. The bounds are checked by hand from the snapshot file's balances.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { buildQuoteTestApp } from '../helpers/quoteTestApp.ts';
import type { Answer } from '../helpers/testApp.ts';

const q = buildQuoteTestApp({
  catalogDir: fileURLToPath(new URL('../../catalog', import.meta.url)),
  snapshotDir: fileURLToPath(new URL('../../seeds/snapshots', import.meta.url)),
});
t.teardown(() => q.close());
const { key } = await q.keys.create('org-limits');
const ENDPOINTS = [
  { url: '/quotes', headers: { authorization: `Bearer ${key}` } },
  { url: '/quotes/routes', headers: {} },
] as const;

const WETH = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const BASE = {
  originChainId: 31337,
  destinationChainId: 31337,
  tokenIn: 'ETH',
  tokenOut: 'USDC',
  recipientAddress: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
};
const MAX_UINT112 = 2n ** 112n - 1n;

interface SnapshotPool {
  address: string;
  version: string;
  token0: string;
  token1: string;
  balance0: string;
  balance1: string;
}
const snapshot = JSON.parse(readFileSync(new URL('../../seeds/snapshots/devnet.json', import.meta.url), 'utf8')) as {
  pools: SnapshotPool[];
};
const v2Pairs = snapshot.pools.filter((p) => p.version === 'v2');
/** A v2 pair's balance of a token in the snapshot. */
const balanceOf = (pair: SnapshotPool, token: string): bigint =>
  BigInt(pair.token0.toLowerCase() === token.toLowerCase() ? pair.balance0 : pair.balance1);

interface Hop {
  dex: string;
  version: string;
  pool: string;
  tokenIn: string;
  amountIn: string;
}
interface RouteQuote {
  amountIn: string;
  amountOut: string;
  paths: { amountIn: string; hops: Hop[] }[];
}

t.test("the issue's 1e30 ETH: every path would overflow a pair or runs dry: 400 saying the amount is too large", async (t) => {
  // 1e30 ETH = 1e48 wei: beyond 2^112 - 1 (~5.19e33) for every v2 pair holding WETH, whatever its balance.
  t.ok(10n ** 48n > MAX_UINT112, 'beyond uint112 (hand check)');
  const message =
    "quote unavailable: 1000000000000000000000000000000 ETH is too large to swap: it exceeds what the ETH/USDC pools on devnet can take (a pool's balance or its arithmetic would overflow)";
  for (const maxPriceImpactBps of [10000, undefined]) {
    for (const { url, headers } of ENDPOINTS) {
      const body = { ...BASE, amount: '1000000000000000000000000000000', maxPriceImpactBps };
      const res = await q.request('POST', url, { body, headers });
      t.strictSame(
        [res.status, res.body],
        [400, { code: 400, message }],
        `POST ${url}, maxPriceImpactBps ${maxPriceImpactBps ?? 'default'}`,
      );
    }
  }
});

t.test('6e15 ETH: no single WETH pair can hold it, so the split routes shares each pair can hold', async (t) => {
  const amount = 6n * 10n ** 33n;
  const wethPairs = v2Pairs.filter((p) => [p.token0, p.token1].some((x) => x.toLowerCase() === WETH.toLowerCase()));
  t.ok(wethPairs.length > 1, 'several v2 pairs hold WETH');
  for (const p of wethPairs) t.ok(balanceOf(p, WETH) + amount > MAX_UINT112, `${p.address} cannot take the whole amount (hand check)`);
  const body = { ...BASE, amount: '6000000000000000', maxPriceImpactBps: 10000 };
  const routes = await q.request<Answer<RouteQuote[]>>('POST', '/quotes/routes', { body });
  t.equal(routes.status, 200, 'quoted');
  const data = routes.body.data as RouteQuote[];
  t.ok(data.length > 0, 'at least one route');
  for (const [i, route] of data.entries()) {
    t.equal(route.amountIn, amount.toString(), `route ${i}: the whole amount`);
    t.equal(
      route.paths.reduce((s, p) => s + BigInt(p.amountIn), 0n),
      amount,
      `route ${i}: its paths carry the whole amount`,
    );
    t.ok(route.paths.length > 1, `route ${i}: a split`);
    for (const hop of route.paths.flatMap((p) => p.hops).filter((h) => h.version === 'v2')) {
      const pair = v2Pairs.find((p) => p.address.toLowerCase() === hop.pool.toLowerCase());
      if (!pair) {
        t.fail(`route ${i}: ${hop.pool} is not a snapshot pair`);
        continue;
      }
      const after = balanceOf(pair, hop.tokenIn) + BigInt(hop.amountIn);
      t.ok(after <= MAX_UINT112, `route ${i}: ${hop.dex} pair ${hop.pool} holds ${after} <= 2^112 - 1 after its share`);
    }
  }
  const quote = await q.request<Answer<{ amountOut: string }>>('POST', '/quotes', { body, headers: ENDPOINTS[0].headers });
  t.equal(quote.status, 200, 'POST /quotes quotes it too');
  t.equal((quote.body.data as { amountOut: string }).amountOut, data[0].amountOut, 'the same trade as data[0]');
});
