// The quote lifecycle over the fixture chain (one v2 pair, 10 WETH / 30,000 USDC, 0.3% fee) at a clock the test
// sets: expiry (expiresAt, status "expired" from the deadline on), slippageBps "auto" (Uniswap's rule: network fee over
// the output clamped to 0.5%–5.5%, at least the price impact), and POST /quotes/{id}/refresh (a new quote on the
// state served now; PRICE_MOVED when the pair moved below the old amountOutMinimum). Expected amounts come from the
// pair's reserves by Uniswap V2's getAmountOut, never from the code under test.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { loadCatalog } from '../../src/catalog/loadCatalog.ts';
import { PoolGraph } from '../../src/graph/PoolGraph.ts';
import { loadSnapshots } from '../../src/graph/snapshot.ts';
import { MISSING_KEY_MESSAGE } from '../../src/http/auth.ts';
import type { Pricer } from '../../src/quote/Pricer.ts';
import type { Quote } from '../../src/quote/Quote.ts';
import type { RouteQuote } from '../../src/quote/routeQuotes.ts';
import type { TradeSearch } from '../../src/routing/TradeFinder.ts';
import { buildStubQuoteApp, InProcessPricer, shippedCrossChainQuote } from '../helpers/stubQuoteApp.ts';
import { type Answer, fixtureCatalogDir, fixtureSnapshotDir } from '../helpers/testApp.ts';

const core = createRequire(import.meta.url)('@uniswap/sdk-core');

const WETH = '0x1111111111111111111111111111111111111111';
const USDC = '0x2222222222222222222222222222222222222222';
const RECIPIENT = '0x00000000000000000000000000000000000000aa';
const BASE = { originChainId: 1001, destinationChainId: 1001, tokenIn: USDC, tokenOut: WETH, amount: '1000', recipientAddress: RECIPIENT };
/** The pair's reserves in the fixture snapshot: WETH (token0), USDC (token1). */
const RESERVES = { weth: 10_000_000_000_000_000_000n, usdc: 30_000_000_000n };
/** The same pair after a trader sold USDC for WETH (the moved state). */
const MOVED = { weth: 9_000_000_000_000_000_000n, usdc: 33_400_000_000n };

/** UniswapV2Library.getAmountOut (0.3% fee). */
const v2Out = (amountIn: bigint, reserveIn: bigint, reserveOut: bigint) =>
  (amountIn * 997n * reserveOut) / (reserveIn * 1000n + amountIn * 997n);
/** The price impact by @uniswap/sdk-core's computePriceImpact against the pair's mid price, basis points. */
function impactBps(amountIn: bigint, reserveIn: bigint, reserveOut: bigint, amountOut: bigint): number {
  const tokenIn = new core.Token(1001, USDC, 6);
  const tokenOut = new core.Token(1001, WETH, 18);
  const mid = new core.Price(tokenIn, tokenOut, reserveIn.toString(), reserveOut.toString());
  const amount = (token: unknown, raw: bigint) => core.CurrencyAmount.fromRawAmount(token, raw.toString());
  return Number(core.computePriceImpact(mid, amount(tokenIn, amountIn), amount(tokenOut, amountOut)).multiply(100).toFixed(0));
}

// A snapshot folder whose pair has moved, and a pricer that prices on the original state until `moved` is set.
const movedDir = mkdtempSync(join(tmpdir(), 'sqs-lifecycle-'));
t.teardown(() => rmSync(movedDir, { recursive: true, force: true }));
const snapshot = JSON.parse(readFileSync(join(fixtureSnapshotDir, 'testchain.json'), 'utf8'));
snapshot.pools[0] = {
  ...snapshot.pools[0],
  reserve0: String(MOVED.weth),
  reserve1: String(MOVED.usdc),
  balance0: String(MOVED.weth),
  balance1: String(MOVED.usdc),
};
writeFileSync(join(movedDir, 'testchain.json'), JSON.stringify(snapshot));
const catalog = loadCatalog(fixtureCatalogDir);
const movedPricer = new InProcessPricer(new PoolGraph(loadSnapshots(movedDir).snapshots, catalog), catalog);
let moved = false;
let original: Pricer | undefined;
const switching: Pricer = {
  findTrades: (search: TradeSearch) => (moved ? movedPricer : original!).findTrades(search),
  findRoutes: (search) => (moved ? movedPricer : original!).findRoutes(search),
  findQuote: (search) => (moved ? movedPricer : original!).findQuote(search),
  close: async () => undefined,
  queueSize: () => 0,
};

let clock = Date.UTC(2026, 10, 25, 12, 0, 0);
const s = await buildStubQuoteApp({ pricer: switching, now: () => clock });
original = s.pricer;
t.teardown(() => s.close());
const auth = { authorization: `Bearer ${s.apiKey}` };
const other = await s.keys.create('other-org');

async function createQuote(body: Record<string, unknown>): Promise<Quote> {
  const res = await s.request<Answer<Quote>>('POST', '/quotes', { body, headers: auth });
  if (res.status !== 200) throw new Error(`POST /quotes: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

t.test('expiry: expiresAt is the deadline; GET /quotes/{id} says "expired" from the deadline on', async (t) => {
  const created = Date.UTC(2026, 10, 25, 12, 0, 0, 250);
  clock = created;
  const quote = await createQuote(BASE);
  const deadline = Math.floor(created / 1000) + 300;
  t.strictSame(
    [quote.status, quote.deadline, quote.expiresAt, quote.createdAt, quote.updatedAt],
    ['pending', deadline, '2026-11-25T12:05:00.000Z', '2026-11-25T12:00:00.250Z', '2026-11-25T12:00:00.250Z'],
  );
  const read = async () => (await s.request<Answer<Quote>>('GET', `/quotes/${quote.quoteId}`, { headers: auth })).body;
  clock = deadline * 1000 - 1;
  t.strictSame(await read(), { code: 200, message: 'quote fetched successfully', data: quote }, 'a millisecond before: as created');
  clock = deadline * 1000;
  t.strictSame(
    await read(),
    { code: 200, message: 'quote fetched successfully', data: { ...quote, status: 'expired', updatedAt: '2026-11-25T12:05:00.000Z' } },
    'at the deadline: expired, updatedAt when it expired, nothing else changed',
  );
  clock = deadline * 1000 + 86_000_000;
  t.equal((await read()).data.status, 'expired', 'and later');
});

t.test('slippageBps "auto": the network fee over the output, at least the price impact, within 50-550 bps', async (t) => {
  clock = Date.UTC(2026, 10, 25, 13, 0, 0);
  const amountIn = 1_000_000n; // 1 USDC: impact about the 0.3% fee
  const out = v2Out(amountIn, RESERVES.usdc, RESERVES.weth);
  const small = { ...BASE, amount: '1', slippageBps: 'auto' };
  const cases: [string, string, (gasEstimate: bigint) => number][] = [
    ['no network fee: the minimum 50', '0', () => 50],
    // WETH is the native asset's wrapped token: the fee in tokenOut is the fee in wei.
    ['a fee of about 1% of the output', '20000000', (gas) => Number((gas * 20_000_000n * 10_000n + out - 1n) / out)],
    ['a fee larger than 5.5% of the output: the maximum 550', '1000000000', () => 550],
  ];
  for (const [name, gasPriceWei, expected] of cases) {
    const quote = await createQuote({ ...small, gasPriceWei });
    const gas = BigInt(quote.gasEstimate!);
    t.equal(quote.networkFee?.inTokenOut, (gas * BigInt(gasPriceWei)).toString(), `${name}: fee in WETH = fee in wei`);
    const bps = expected(gas);
    if (gasPriceWei === '20000000') t.ok(bps > 50 && bps < 550, `${name}: ${bps} bps lies inside the clamp`);
    t.strictSame(
      [quote.amountOut, quote.slippageBps, quote.slippageSource, quote.amountOutMinimum],
      [out.toString(), bps, 'auto', ((out * BigInt(10_000 - bps)) / 10_000n).toString()],
      name,
    );
  }

  // 1,000 USDC moves the pair by more than 0.5%: the bound is the price impact.
  const big = await createQuote({ ...BASE, slippageBps: 'auto', gasPriceWei: '0' });
  const bigOut = v2Out(1_000_000_000n, RESERVES.usdc, RESERVES.weth);
  const impact = impactBps(1_000_000_000n, RESERVES.usdc, RESERVES.weth, bigOut);
  t.ok(impact > 50 && impact < 550, `impact ${impact} bps lies inside the clamp`);
  t.strictSame([big.priceImpactBps, big.slippageBps, big.slippageSource], [impact, impact, 'auto'], 'at least the price impact');
  // 5,000 USDC: the impact is beyond 5.5%, the bound stays 550.
  const huge = await createQuote({ ...BASE, amount: '5000', slippageBps: 'auto', gasPriceWei: '0', maxPriceImpactBps: 10_000 });
  t.strictSame([(huge.priceImpactBps ?? 0) > 550, huge.slippageBps], [true, 550], 'never above 5.5%');

  const routes = await s.request<Answer<RouteQuote[]>>('POST', '/quotes/routes', { body: { ...small, gasPriceWei: '0' } });
  t.strictSame(
    routes.body.data.map((r) => [r.slippageBps, r.slippageSource]),
    [[50, 'auto']],
    'POST /quotes/routes chooses per route',
  );
  const given = await createQuote({ ...small, slippageBps: 75 });
  t.strictSame([given.slippageBps, given.slippageSource], [75, 'request']);
  const byDefault = await createQuote(BASE);
  t.strictSame([byDefault.slippageBps, byDefault.slippageSource], [50, 'request'], 'the server default counts as the request');
});

t.test('slippageBps "auto" is same-chain only', async (t) => {
  t.strictSame(await shippedCrossChainQuote({ slippageBps: 'auto' }), [
    400,
    { code: 400, message: 'slippageBps: "auto" is same-chain only: originChainId and destinationChainId must be equal' },
  ]);
});

t.test('POST /quotes/{id}/refresh: a new quote on the state served now, naming the old one', async (t) => {
  moved = false;
  clock = Date.UTC(2026, 10, 25, 14, 0, 0);
  const old = await createQuote({ ...BASE, slippageBps: 100, gasPriceWei: '1000' });
  clock += 400_000; // expired: refreshing is what an expired quote is for
  const same = await s.request<Answer<Quote>>('POST', `/quotes/${old.quoteId}/refresh`, { headers: auth });
  t.equal(same.status, 200);
  t.equal(same.body.message, 'quote refreshed successfully');
  const fresh = same.body.data;
  t.not(fresh.quoteId, old.quoteId, 'a new id');
  const deadline = Math.floor(clock / 1000) + 300;
  const time = new Date(clock).toISOString();
  t.strictSame(
    fresh,
    {
      ...old,
      quoteId: fresh.quoteId,
      deadline,
      expiresAt: new Date(deadline * 1000).toISOString(),
      createdAt: time,
      updatedAt: time,
      steps: fresh.steps,
      snapshot: fresh.snapshot,
      refreshedFrom: old.quoteId,
      changes: { amountIn: '0', amountOut: '0', networkFeeWei: '0' },
    },
    'the state has not moved: the same amounts, nothing to warn about',
  );
  const readBack = await s.request<Answer<Quote>>('GET', `/quotes/${fresh.quoteId}`, { headers: auth });
  t.strictSame(readBack.body.data, fresh, 'the new quote is saved');

  moved = true;
  const res = await s.request<Answer<Quote>>('POST', `/quotes/${old.quoteId}/refresh`, { headers: auth });
  const after = res.body.data;
  const newOut = v2Out(1_000_000_000n, MOVED.usdc, MOVED.weth);
  const oldOut = v2Out(1_000_000_000n, RESERVES.usdc, RESERVES.weth);
  t.ok(newOut < BigInt(old.amountOutMinimum), 'the moved pair pays less than the old minimum');
  t.strictSame(
    [after.amountOut, after.refreshedFrom, after.changes],
    [newOut.toString(), old.quoteId, { amountIn: '0', amountOut: (newOut - oldOut).toString(), networkFeeWei: '0' }],
  );
  const fmt = (wei: bigint) => `${wei / 10n ** 18n}.${(wei % 10n ** 18n).toString().padStart(18, '0').replace(/0+$/, '')}`;
  t.strictSame(after.warnings, [
    {
      code: 'PRICE_MOVED',
      message: `the price moved: amountOut ${fmt(newOut)} WETH is below the previous amountOutMinimum ${fmt(BigInt(old.amountOutMinimum))} WETH; the previous quote's transaction would revert at this price: ask the user to confirm the new amounts`,
    },
  ]);
  moved = false;
});

t.test('refresh refusals: exact bodies', async (t) => {
  clock = Date.UTC(2026, 10, 25, 15, 0, 0);
  const quote = await createQuote(BASE);
  const unknown = '00000000-0000-4000-8000-000000000000';
  const cases: [string, string, Record<string, string>, number, string][] = [
    ['unknown id', `/quotes/${unknown}/refresh`, auth, 404, `quote ${unknown} not found`],
    [
      "another organization's quote",
      `/quotes/${quote.quoteId}/refresh`,
      { 'x-api-key': other.key },
      404,
      `quote ${quote.quoteId} not found`,
    ],
    ['not a quote id', '/quotes/not-a-quote/refresh', auth, 404, 'not found: POST /quotes/not-a-quote/refresh'],
    ['no key', `/quotes/${quote.quoteId}/refresh`, {}, 401, MISSING_KEY_MESSAGE],
  ];
  for (const [name, url, headers, status, message] of cases) {
    const res = await s.request('POST', url, { headers });
    t.strictSame([res.status, res.body], [status, { code: status, message }], name);
  }
  // A quote saved before requests were saved with quotes cannot be priced again.
  const legacy = '11111111-1111-4111-8111-111111111111';
  const legacyQuote = { ...quote, quoteId: legacy };
  await s.store.save({ orgId: 'acme', quote: legacyQuote as unknown as Record<string, unknown>, json: JSON.stringify(legacyQuote) });
  const res = await s.request('POST', `/quotes/${legacy}/refresh`, { headers: auth });
  t.strictSame(
    [res.status, res.body],
    [400, { code: 400, message: `quote ${legacy} was saved without its request and cannot be refreshed: request a new quote` }],
  );
});

t.test('GET /quotes/{id}/status refusals: exact bodies', async (t) => {
  clock = Date.UTC(2026, 10, 25, 16, 0, 0);
  const quote = await createQuote(BASE);
  const hash = `0x${'ab'.repeat(32)}`;
  const unknown = '00000000-0000-4000-8000-000000000000';
  const cases: [string, string, Record<string, string>, number, string][] = [
    ['no txHash', `/quotes/${quote.quoteId}/status`, auth, 400, 'txHash: is required'],
    [
      'a malformed hash',
      `/quotes/${quote.quoteId}/status?txHash=0x1234`,
      auth,
      400,
      'txHash: must be a transaction hash (0x followed by 64 hex digits)',
    ],
    ['unknown id', `/quotes/${unknown}/status?txHash=${hash}`, auth, 404, `quote ${unknown} not found`],
    [
      "another organization's quote",
      `/quotes/${quote.quoteId}/status?txHash=${hash}`,
      { 'x-api-key': other.key },
      404,
      `quote ${quote.quoteId} not found`,
    ],
    [
      'no RPC URL for the chain',
      `/quotes/${quote.quoteId}/status?txHash=${hash}`,
      auth,
      400,
      'status needs an RPC URL for chain 1001 (RPC_URL_1001)',
    ],
    ['no key', `/quotes/${quote.quoteId}/status?txHash=${hash}`, {}, 401, MISSING_KEY_MESSAGE],
  ];
  for (const [name, url, headers, status, message] of cases) {
    const res = await s.request('GET', url, { headers });
    t.strictSame([res.status, res.body], [status, { code: status, message }], name);
  }
});
