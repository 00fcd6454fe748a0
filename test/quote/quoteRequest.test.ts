// Quote-request edge cases found by the end-to-end and fuzz work: an amount judged against unknown
// decimals, a "too small" message in display units, negative-zero slippage, and the `hooks` option's values.
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { buildQuoteTestApp } from '../helpers/quoteTestApp.ts';

// A fixed clock: the `hooks` test compares whole answers made moments apart, whose deadlines and snapshot ages follow
// the service's clock (two answers straddling a second differed by 1 s in a fresh-clone CI run).
const NOW_MS = 1_795_718_000_000;
const q = buildQuoteTestApp({
  snapshotDir: fileURLToPath(new URL('../fixtures/quote-snapshots', import.meta.url)),
  now: () => NOW_MS,
});
t.teardown(() => q.close());
const BASE = {
  originChainId: 1001,
  destinationChainId: 1001,
  tokenIn: '0x2222222222222222222222222222222222222222',
  tokenOut: '0x1111111111111111111111111111111111111111',
  amount: '1000',
  recipientAddress: '0x00000000000000000000000000000000000000aa',
};

t.test('when tokenIn cannot be resolved, the amount is judged by its form only', async (t) => {
  // Once, an unknown tokenIn made the amount be judged against 77 decimals, so any amount >= 2 "overflowed".
  const unknownToken = await q.request('POST', '/quotes/routes', {
    body: { ...BASE, tokenIn: '0x4444444444444444444444444444444444444444', amount: '2' },
  });
  t.strictSame(unknownToken.body, {
    code: 400,
    message: 'tokenIn: 0x4444444444444444444444444444444444444444 is not a token of chain testchain (1001)',
  });
  const unknownChain = await q.request('POST', '/quotes/routes', { body: { ...BASE, originChainId: 999 } });
  t.strictSame(unknownChain.body, { code: 400, message: 'originChainId: unknown chain 999' });
  const badAddress = await q.request('POST', '/quotes/routes', { body: { ...BASE, tokenIn: '0x123' } });
  t.strictSame(badAddress.body, { code: 400, message: 'tokenIn: must be a valid EVM address (0x followed by 40 hex digits)' });
});

t.test('"amount too small" names the amount in display units', async (t) => {
  // 1e-18 DAI (1 wei) into the v2 WETH/DAI pair rounds to 0 WETH; the message says "1 DAI".
  const res = await q.request('POST', '/quotes/routes', {
    body: { ...BASE, tokenIn: '0x3333333333333333333333333333333333333333', amount: '0.000000000000000001' },
  });
  t.strictSame(res.body, { code: 400, message: 'quote unavailable: 0.000000000000000001 DAI is too small to swap on any pool' });
});

t.test('slippageBps of negative zero is refused, not read as 0', async (t) => {
  const payload = JSON.stringify(BASE).replace('}', ',"slippageBps":-0}');
  const res = await q.request('POST', '/quotes/routes', { payload, headers: { 'content-type': 'application/json' } });
  t.strictSame(
    [res.status, res.body],
    [400, { code: 400, message: 'slippageBps: must be between 0 and 5000 (negative zero is not accepted)' }],
  );
});

t.test('hooks: a value other than "safe" or "none" is refused with its two values; both values are accepted', async (t) => {
  for (const hooks of ['all', 1, null, 'SAFE']) {
    const res = await q.request('POST', '/quotes/routes', { body: { ...BASE, hooks } });
    t.strictSame([res.status, res.body], [400, { code: 400, message: 'hooks: must be "safe" or "none"' }], JSON.stringify(hooks));
  }
  const fine = await q.request('POST', '/quotes/routes', { body: BASE });
  t.equal(fine.status, 200);
  for (const hooks of ['safe', 'none']) {
    const res = await q.request('POST', '/quotes/routes', { body: { ...BASE, hooks } });
    // The test chain has no v4 pools: either option routes as the default does.
    t.strictSame([res.status, res.body], [200, fine.body], hooks);
  }
});
