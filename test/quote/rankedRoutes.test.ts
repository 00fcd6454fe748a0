// POST /quotes/routes ranks net of the network fee (compareNetOfGas, issue 23 item 5) and refuses or flags price impact
// (issue 23 item 4), over the shipped catalogue and devnet snapshot. The order is checked by hand from each route's
// own amountOut and networkFee (amountOut − inTokenOut, or amountIn + inTokenIn for exact output); the pools' outputs
// against @uniswap/v2-sdk and @uniswap/v3-sdk on the same snapshot are test/quote/responseSample.test.ts's check.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import type { Quote } from '../../src/quote/Quote.ts';
import { buildQuoteTestApp } from '../helpers/quoteTestApp.ts';
import type { Answer } from '../helpers/testApp.ts';

const require = createRequire(import.meta.url);
const v2sdk = require('@uniswap/v2-sdk');
const core = require('@uniswap/sdk-core');

const q = buildQuoteTestApp({
  catalogDir: fileURLToPath(new URL('../../catalog', import.meta.url)),
  snapshotDir: fileURLToPath(new URL('../../seeds/snapshots', import.meta.url)),
});
t.teardown(() => q.close());
const { key } = await q.keys.create('org-rank');
const A = { authorization: `Bearer ${key}` };

const ETH = '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE';
const WETH = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const USDC = '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512';
const SUSHI_WETH_USDC = '0x41Cc89c770ddFcF9b54C6C04CaAfeA885Ce8c1b8';
const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const TEN_GWEI = '10000000000';
const BASE = { originChainId: 31337, destinationChainId: 31337, tokenIn: WETH, tokenOut: USDC, recipientAddress: RECIPIENT };

interface RouteQuote {
  amountIn: string;
  amountOut: string;
  route: { dex: string; version: string };
  paths: unknown[];
  networkFee: { inTokenIn: string | null; inTokenOut: string | null };
}

/** What the user gets net of the network fee, by hand: exactIn output − fee (higher first), exactOut −(input + fee). */
function net(r: RouteQuote, exactOut: boolean): bigint {
  return exactOut
    ? -(BigInt(r.amountIn) + BigInt(r.networkFee.inTokenIn ?? 0))
    : BigInt(r.amountOut) - BigInt(r.networkFee.inTokenOut ?? 0);
}

/** @uniswap/v2-sdk's output of a pair of the shipped devnet snapshot. */
function snapshotV2Out(pairAddress: string, tokenIn: string, amountIn: bigint): bigint {
  const snapshot = JSON.parse(readFileSync(fileURLToPath(new URL('../../seeds/snapshots/devnet.json', import.meta.url)), 'utf8'));
  const pool = snapshot.pools.find((p: { address: string }) => p.address.toLowerCase() === pairAddress.toLowerCase());
  const t0 = new core.Token(31337, pool.token0, 18);
  const t1 = new core.Token(31337, pool.token1, 18);
  const pair = new v2sdk.Pair(core.CurrencyAmount.fromRawAmount(t0, pool.reserve0), core.CurrencyAmount.fromRawAmount(t1, pool.reserve1));
  const input = tokenIn.toLowerCase() === pool.token0.toLowerCase() ? t0 : t1;
  const [out] = pair.getOutputAmount(core.CurrencyAmount.fromRawAmount(input, amountIn.toString()));
  return BigInt(out.quotient.toString());
}

t.test('POST /quotes/routes at 10 gwei: ranked net of gas, data[0] is what POST /quotes returns', async (t) => {
  for (const [amount, tradeType] of [
    ['0.1', 'exactIn'],
    ['0.3', 'exactIn'],
    ['2', 'exactIn'],
    ['300', 'exactOut'],
  ] as const) {
    const body = { ...BASE, amount, tradeType, gasPriceWei: TEN_GWEI };
    const routes = await q.request<Answer<RouteQuote[]> & { rankedBy?: string }>('POST', '/quotes/routes', { body });
    t.equal(routes.status, 200, `${amount} ${tradeType}`);
    t.strictSame(Object.keys(routes.body), ['code', 'message', 'rankedBy', 'data'], 'rankedBy sits in the envelope, before data');
    t.equal(routes.body.rankedBy, 'netOfGas');
    const data = routes.body.data as RouteQuote[];
    t.ok(data.length >= 2, `${data.length} routes`);
    const exactOut = tradeType === 'exactOut';
    for (let i = 1; i < data.length; i++)
      t.ok(net(data[i - 1], exactOut) >= net(data[i], exactOut), `route ${i} ranks below route ${i - 1}`);
    const quote = await q.request<Answer<Quote>>('POST', '/quotes', { body, headers: A });
    t.equal(quote.status, 200);
    t.strictSame(
      [data[0].paths, data[0].amountIn, data[0].amountOut],
      [quote.body.data.paths, quote.body.data.amountIn, quote.body.data.amountOut],
      `${amount} ${tradeType}: data[0] is the quote's trade`,
    );
  }
});

t.test("the issue's case, 0.1 WETH at 10 gwei: SushiSwap's v2 pair is larger gross, the v3 pool larger net of gas", async (t) => {
  const body = { ...BASE, amount: '0.1', gasPriceWei: TEN_GWEI };
  const data = (await q.request<Answer<RouteQuote[]>>('POST', '/quotes/routes', { body })).body.data as RouteQuote[];
  t.strictSame(
    data.map((r) => `${r.route.dex} ${r.route.version}`),
    ['uniswap v3', 'sushiswap v2', 'uniswap v2'],
  );
  const sushi = snapshotV2Out(SUSHI_WETH_USDC, WETH, 10n ** 17n);
  t.equal(data[1].amountOut, sushi.toString(), 'SushiSwap: @uniswap/v2-sdk on the snapshot pair');
  t.ok(sushi > BigInt(data[0].amountOut), "SushiSwap's pair is larger gross");
  t.ok(net(data[0], false) > net(data[1], false), "the v3 pool is larger net of SushiSwap's larger network fee");
  // POST /quotes executes exactly data[0].
  const quote = (await q.request<Answer<Quote>>('POST', '/quotes', { body, headers: A })).body.data;
  t.strictSame([quote.amountOut, quote.route.dex, quote.route.version], [data[0].amountOut, 'uniswap', 'v3'], 'POST /quotes picks data[0]');
  // At gas price 0 the fee is 0: the gross order (a split over several DEXes then joins the list).
  const gross = (await q.request<Answer<RouteQuote[]>>('POST', '/quotes/routes', { body: { ...body, gasPriceWei: '0' } })).body
    .data as RouteQuote[];
  t.ok(gross.every((r) => r.networkFee.inTokenOut === '0'));
  for (let i = 1; i < gross.length; i++)
    t.ok(BigInt(gross[i - 1].amountOut) >= BigInt(gross[i].amountOut), `gas price 0: route ${i} by amountOut`);
  const names = gross.map((r) => `${r.route.dex} ${r.route.version}`);
  t.ok(names.indexOf('sushiswap v2') < names.indexOf('uniswap v3'), names.join(', '));
});

t.test('price impact: 1,000,000 ETH -> USDC is refused on both endpoints; routes above the bound are left out', async (t) => {
  const huge = { ...BASE, tokenIn: ETH, amount: '1000000' };
  const message = 'quote unavailable: price impact 99.63% exceeds maxPriceImpactBps 15%';
  for (const [url, headers] of [
    ['/quotes', A],
    ['/quotes/routes', {}],
  ] as const) {
    const res = await q.request('POST', url, { body: huge, headers });
    t.strictSame([res.status, res.body], [400, { code: 400, message }], url);
  }
  const allowed = await q.request<Answer<Quote>>('POST', '/quotes', { body: { ...huge, maxPriceImpactBps: 10000 }, headers: A });
  t.strictSame(
    [allowed.status, allowed.body.data.priceImpactBps, allowed.body.data.warnings],
    [
      200,
      9963,
      [
        {
          code: 'HIGH_PRICE_IMPACT',
          message:
            'price impact 99.63% is above 5%: you receive noticeably less than the market price; a smaller amount moves the price less',
        },
      ],
    ],
    'maxPriceImpactBps 10000 accepts any impact, with the warning',
  );
  // 2,000 WETH: every route is offered at 100%, only those within 15% by default, in the same order.
  const body = { ...BASE, amount: '2000' };
  const all = (await q.request<Answer<RouteQuote[]>>('POST', '/quotes/routes', { body: { ...body, maxPriceImpactBps: 10000 } })).body
    .data as (RouteQuote & {
    priceImpactBps: number;
  })[];
  const within = (await q.request<Answer<RouteQuote[]>>('POST', '/quotes/routes', { body })).body.data as RouteQuote[];
  const kept = all.filter((r) => r.priceImpactBps <= 1500);
  t.ok(kept.length > 0 && kept.length < all.length, `${kept.length} of ${all.length} routes within 15%`);
  t.strictSame(within, kept);
});
