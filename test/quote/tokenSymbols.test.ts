// Tokens by symbol on the quote endpoints (issue 23 item 9) where the fixture catalogue cannot show it: a symbol two
// tokens share (every token with it listed, with its address), an ERC-20 named like the native asset (the native
// symbol stays the native asset), and the issue's own example on the shipped catalogue. Expected addresses are the
// catalogue files' and, for Ethereum's USDC, Circle's published contract address.
import { fileURLToPath } from 'node:url';
import t, { type Test } from 'tap';
import type { Quote } from '../../src/quote/Quote.ts';
import type { RouteQuote } from '../../src/quote/routeQuotes.ts';
import { fixtureCatalogWith } from '../helpers/fixtureCatalogWith.ts';
import { buildQuoteTestApp, type QuoteTestApp } from '../helpers/quoteTestApp.ts';
import type { Answer } from '../helpers/testApp.ts';

const USDC = '0x2222222222222222222222222222222222222222';
const WETH = '0x1111111111111111111111111111111111111111';
const SECOND_USDC = '0x9999999999999999999999999999999999999999';
const ERC20_ETH = '0xaAaAaAaaAaAaAaaAaAAAAAAAAaaaAaAaAaaAaaAa';
const NATIVE = '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE';
const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

/** A quote app with its key; closed at the end of the file. */
async function app(catalogDir: string, snapshotDir: string): Promise<{ q: QuoteTestApp; headers: Record<string, string> }> {
  const q = buildQuoteTestApp({ catalogDir, snapshotDir });
  t.teardown(() => q.close());
  const { key } = await q.keys.create('org-symbols');
  return { q, headers: { authorization: `Bearer ${key}` } };
}

/** Posts the body to both quote endpoints and asserts the same 400 envelope from each. */
async function rejects(t: Test, a: { q: QuoteTestApp; headers: Record<string, string> }, body: unknown, message: string) {
  for (const [url, headers] of [
    ['/quotes', a.headers],
    ['/quotes/routes', {}],
  ] as const) {
    const res = await a.q.request('POST', url, { body, headers });
    t.strictSame([res.status, res.body], [400, { code: 400, message }], `POST ${url}`);
  }
}

t.test('a symbol two tokens share lists both; the native symbol stays the native asset', async (t) => {
  const a = await app(
    fixtureCatalogWith(t, [
      { address: SECOND_USDC, symbol: 'usdc', name: 'Another USD Coin', slug: 'usdc-2', decimals: 6, logo: '' },
      { address: ERC20_ETH, symbol: 'ETH', name: 'Ether token', slug: 'eth-token', decimals: 18, logo: '' },
    ]),
    fileURLToPath(new URL('../fixtures/quote-snapshots', import.meta.url)),
  );
  const base = { originChainId: 1001, destinationChainId: 1001, tokenIn: WETH, amount: '1', recipientAddress: RECIPIENT };
  const ambiguous = `"USDC" is the symbol of 2 tokens of chain testchain (1001): USDC (${USDC}), usdc (${SECOND_USDC}); send the address of the one you mean`;
  await rejects(t, a, { ...base, tokenOut: 'USDC' }, `tokenOut: ${ambiguous}`);
  await rejects(t, a, { ...base, tokenOut: 'usdc' }, `tokenOut: ${ambiguous.replace('"USDC"', '"usdc"')}`);
  await rejects(
    t,
    a,
    { ...base, tokenIn: 'Usdc', tokenOut: 'UDSC' },
    `tokenIn: ${ambiguous.replace('"USDC"', '"Usdc"')}; tokenOut: "UDSC" is not a token of chain testchain (1001): did you mean USDC (${USDC}) or usdc (${SECOND_USDC})?`,
  );
  // By address, each is its token.
  const second = await a.q.request<Answer<RouteQuote[]>>('POST', '/quotes/routes', {
    body: { ...base, tokenIn: USDC, tokenOut: SECOND_USDC },
  });
  t.not(second.body.message, 'tokenOut: must differ from tokenIn', 'the two USDC are two tokens');
  const native = await a.q.request<Answer<Quote>>('POST', '/quotes', {
    body: { ...base, tokenIn: 'ETH', tokenOut: USDC },
    headers: a.headers,
  });
  t.strictSame([native.status, native.body.data?.tokenIn.address], [200, NATIVE], 'ETH is the native asset, not the ERC-20 named ETH');
});

t.test("the shipped catalogue: the issue's example on Ethereum, symbols on the devnet", async (t) => {
  const a = await app(
    fileURLToPath(new URL('../../catalog', import.meta.url)),
    fileURLToPath(new URL('../../seeds/snapshots', import.meta.url)),
  );
  await rejects(
    t,
    a,
    { originChainId: 1, destinationChainId: 1, tokenIn: 'ETH', tokenOut: 'USCD', amount: '1', recipientAddress: RECIPIENT },
    'tokenOut: "USCD" is not a token of chain ethereum (1): did you mean USDC (0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48)?',
  );
  const devnet = { originChainId: 31337, destinationChainId: 31337, amount: '1.5', recipientAddress: RECIPIENT };
  const bySymbol = await a.q.request<Answer<RouteQuote[]>>('POST', '/quotes/routes', {
    body: { ...devnet, tokenIn: 'ETH', tokenOut: 'usdc' },
  });
  const byAddress = await a.q.request<Answer<RouteQuote[]>>('POST', '/quotes/routes', {
    body: { ...devnet, tokenIn: NATIVE, tokenOut: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512' },
  });
  t.equal(bySymbol.status, 200, bySymbol.body.message);
  const fields = (data: readonly RouteQuote[]) => data.map((r) => [r.amountOut, r.tokenIn, r.tokenOut, r.paths, r.route]);
  t.strictSame(fields(bySymbol.body.data), fields(byAddress.body.data), 'the same routes as by address');
});
