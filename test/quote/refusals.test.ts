// The 400 answers of a quote no pool can give, by what refused it (issue 22): an amount beyond the pools' 256-bit
// arithmetic is not missing liquidity. Over test/fixtures/quote-snapshots (v2 WETH/DAI pair: 10 WETH / 30,000 DAI,
// 30 bps; an empty v3 USDC/DAI pool).
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { buildQuoteTestApp } from '../helpers/quoteTestApp.ts';

const q = buildQuoteTestApp({ snapshotDir: fileURLToPath(new URL('../fixtures/quote-snapshots', import.meta.url)) });
t.teardown(() => q.close());
const { key } = await q.keys.create('org-a');

const WETH = '0x1111111111111111111111111111111111111111';
const DAI = '0x3333333333333333333333333333333333333333';
const BODY = {
  originChainId: 1001,
  destinationChainId: 1001,
  tokenIn: DAI,
  tokenOut: WETH,
  recipientAddress: `0x${'aa'.padStart(40, '0')}`,
};
const ENDPOINTS = [
  { url: '/quotes', headers: { authorization: `Bearer ${key}` } },
  { url: '/quotes/routes', headers: {} },
] as const;

t.test('an amount whose swap overflows uint256 is refused as too large (400), with or without other paths', async (t) => {
  // UniswapV2Library.getAmountOut computes amountIn x 9970 x reserveOut (10 WETH = 1e19): above 2^256 - 1 from
  // about 1.16e54 DAI units (1.16e36 DAI). 2e36 DAI overflows; every other path crosses the empty v3 pool.
  t.ok(2n * 10n ** 54n * 9970n * 10n ** 19n > 2n ** 256n - 1n, 'the amount overflows the pair (hand check)');
  const message =
    'quote unavailable: 2000000000000000000000000000000000000 DAI is too large to swap: it overflows the 256-bit arithmetic of the DAI/WETH pools on testchain';
  for (const maxHops of [1, 3]) {
    for (const { url, headers } of ENDPOINTS) {
      const res = await q.request('POST', url, { body: { ...BODY, amount: '2000000000000000000000000000000000000', maxHops }, headers });
      t.strictSame([res.status, res.body], [400, { code: 400, message }], `POST ${url}, maxHops ${maxHops}`);
    }
  }
});

t.test('an amount the pair can take is quoted', async (t) => {
  // 1e36 DAI: 1e54 x 9970 x 1e19 < 2^256 - 1.
  t.ok(10n ** 54n * 9970n * 10n ** 19n < 2n ** 256n - 1n, 'within uint256 (hand check)');
  const res = await q.request('POST', '/quotes/routes', {
    body: { ...BODY, amount: '1000000000000000000000000000000000000', maxHops: 1, maxPriceImpactBps: 10000 },
  });
  t.equal(res.status, 200);
});
