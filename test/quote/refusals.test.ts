// The 400 answers of a quote no pool can give, by what refused it (issues 22, 23): an amount beyond what the pools can
// take (their 256-bit arithmetic, a v2 pair's uint112 balances) is not missing liquidity. Over test/fixtures/quote-snapshots (v2 WETH/DAI pair: 10 WETH / 30,000 DAI,
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

const tooLarge = (amount: string): string =>
  `quote unavailable: ${amount} DAI is too large to swap: it exceeds what the DAI/WETH pools on testchain can take (a pool's balance or its arithmetic would overflow)`;

t.test('an amount whose swap overflows uint256 is refused as too large (400), with or without other paths', async (t) => {
  // UniswapV2Library.getAmountOut computes amountIn x 9970 x reserveOut (10 WETH = 1e19): above 2^256 - 1 from
  // about 1.16e54 DAI units (1.16e36 DAI). 2e36 DAI overflows; every other path crosses the empty v3 pool.
  t.ok(2n * 10n ** 54n * 9970n * 10n ** 19n > 2n ** 256n - 1n, 'the amount overflows the pair (hand check)');
  const message = tooLarge('2000000000000000000000000000000000000');
  for (const maxHops of [1, 3]) {
    for (const { url, headers } of ENDPOINTS) {
      const res = await q.request('POST', url, { body: { ...BODY, amount: '2000000000000000000000000000000000000', maxHops }, headers });
      t.strictSame([res.status, res.body], [400, { code: 400, message }], `POST ${url}, maxHops ${maxHops}`);
    }
  }
});

t.test("an amount the pair's uint112 balances cannot hold is refused as too large; one unit less is quoted", async (t) => {
  // UniswapV2Pair._update requires the DAI balance after the swap, 30,000 DAI + amountIn, to be at most 2^112 - 1:
  // amountIn <= 2^112 - 1 - 3e22 = 5192296858534827628530496329220095 - 30000000000000000000000
  //                               = 5192296858504827628530496329220095 units (~5.19e15 DAI), far within uint256
  // (5.2e33 x 9970 x 1e19 ~ 5.2e56). 1e36 DAI, quoted before issue 23, is beyond it.
  t.equal(2n ** 112n - 1n - 30_000n * 10n ** 18n, 5192296858504827628530496329220095n, 'the bound (hand check)');
  for (const maxHops of [1, 3]) {
    for (const { url, headers } of ENDPOINTS) {
      const name = `POST ${url}, maxHops ${maxHops}`;
      const body = { ...BODY, maxHops, maxPriceImpactBps: 10000 };
      const fits = await q.request('POST', url, { body: { ...body, amount: '5192296858504827.628530496329220095' }, headers });
      t.equal(fits.status, 200, `${name}: 2^112 - 1 - reserve is quoted`);
      for (const amount of ['5192296858504827.628530496329220096', '1000000000000000000000000000000000000']) {
        const res = await q.request('POST', url, { body: { ...body, amount }, headers });
        t.strictSame([res.status, res.body], [400, { code: 400, message: tooLarge(amount) }], `${name}: ${amount} DAI`);
      }
    }
  }
});
