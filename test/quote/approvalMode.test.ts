// Request field approvalMode (issue 26, "Approvals"): exact 400 bodies of a bad value, of "permit2" across chains,
// for a route whose router is not the Universal Router, for a native tokenIn, and (until the signed-permit flow is
// built) for a Universal Router route. Over the fixture catalogue and test/fixtures/quote-snapshots: no chain.
import { fileURLToPath } from 'node:url';
import t from 'tap';
import type { CatalogToken } from '../../src/catalog/Catalog.ts';
import type { QuoteRequest } from '../../src/quote/quoteRequest.ts';
import { permit2Refusal } from '../../src/quote/quoteService.ts';
import type { Trade } from '../../src/routing/Trade.ts';
import { buildQuoteTestApp } from '../helpers/quoteTestApp.ts';
import { buildStubQuoteApp } from '../helpers/stubQuoteApp.ts';

const q = buildQuoteTestApp({ snapshotDir: fileURLToPath(new URL('../fixtures/quote-snapshots', import.meta.url)) });
t.teardown(() => q.close());
const { key } = await q.keys.create('org-a');
const A = { authorization: `Bearer ${key}` };

const WETH = '0x1111111111111111111111111111111111111111';
const USDC = '0x2222222222222222222222222222222222222222';
const ETH = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee';
const RECIPIENT = '0x00000000000000000000000000000000000000aa';
const BASE = { originChainId: 1001, destinationChainId: 1001, tokenIn: USDC, tokenOut: WETH, amount: '1000', recipientAddress: RECIPIENT };

t.test('a value other than "approve" or "permit2" is a 400 on both endpoints', async (t) => {
  for (const approvalMode of ['Permit2', 'signature', 1, null, true]) {
    for (const [url, headers] of [
      ['/quotes', A],
      ['/quotes/routes', {}],
    ] as const) {
      const res = await q.request('POST', url, { body: { ...BASE, approvalMode }, headers });
      t.strictSame(
        [res.status, res.body],
        [400, { code: 400, message: 'approvalMode: must be "approve" or "permit2"' }],
        `${url} ${JSON.stringify(approvalMode)}`,
      );
    }
  }
});

t.test('"approve" is the default: the same steps as without the field', async (t) => {
  const plain = await q.request<{ data: { steps: unknown[] } }>('POST', '/quotes', { body: BASE, headers: A });
  const approve = await q.request<{ data: { steps: unknown[] } }>('POST', '/quotes', {
    body: { ...BASE, approvalMode: 'approve' },
    headers: A,
  });
  t.equal(plain.status, 200);
  t.equal(approve.status, 200);
  // The two quotes' deadlines (inside the swap calldata) may be a second apart: everything else is equal.
  const sameSecond = (steps: unknown[]) =>
    (steps as { data: string }[]).map((s) => ({ ...s, data: s.data.replace(/0{56}[0-9a-f]{8}(?=0{63}2)/, '<deadline>') }));
  t.strictSame(sameSecond(approve.body.data.steps), sameSecond(plain.body.data.steps));
  t.ok(plain.body.data.steps.length >= 2, 'an approval and a swap');
});

t.test('"permit2" on a route through a router other than the Universal Router is a 400 naming the router', async (t) => {
  const res = await q.request('POST', '/quotes', { body: { ...BASE, approvalMode: 'permit2' }, headers: A });
  t.strictSame(
    [res.status, res.body],
    [
      400,
      {
        code: 400,
        message:
          'approvalMode: "permit2" applies to Universal Router routes only; this quote\'s route runs through Uniswap V2 router, which takes a plain approval: request approvalMode "approve"',
      },
    ],
  );
});

t.test('"permit2" with the native asset as tokenIn is a 400', async (t) => {
  const res = await q.request('POST', '/quotes', {
    body: { ...BASE, tokenIn: ETH, tokenOut: USDC, amount: '1', approvalMode: 'permit2' },
    headers: A,
  });
  t.strictSame(
    [res.status, res.body],
    [
      400,
      {
        code: 400,
        message:
          'approvalMode: "permit2" needs an ERC-20 tokenIn; ETH is the native asset, sent as the swap\'s value without any approval: leave approvalMode out',
      },
    ],
  );
});

t.test('"permit2" is same-chain only', async (t) => {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const shipped = await buildStubQuoteApp({ catalogDir: `${root}catalog`, snapshotDir: `${root}seeds/snapshots` });
  t.teardown(() => shipped.close());
  const res = await shipped.request('POST', '/quotes', {
    body: {
      originChainId: 31337,
      destinationChainId: 31338,
      tokenIn: 'USDC',
      tokenOut: 'USDC',
      amount: '100',
      recipientAddress: RECIPIENT,
      approvalMode: 'permit2',
    },
    headers: { authorization: `Bearer ${shipped.apiKey}` },
  });
  t.strictSame(
    [res.status, res.body],
    [400, { code: 400, message: 'approvalMode: "permit2" is same-chain only: originChainId and destinationChainId must be equal' }],
  );
});

t.test('"permit2" on a Universal Router route is refused until the signed-permit flow exists', async (t) => {
  const token = { address: USDC, symbol: 'USDC' } as CatalogToken;
  const ur = { kind: 'UniversalRouter', address: '0x00000000000000000000000000000000000000cc', name: 'Uniswap Universal Router' } as const;
  const trade = { splits: [{ route: { executor: ur } }] } as unknown as Trade;
  const request = { tokenIn: token, approvalMode: 'permit2' } as unknown as QuoteRequest;
  t.equal(
    permit2Refusal(request, trade)?.message,
    'approvalMode: "permit2" (a signed PermitSingle sent with POST /quotes/{quoteId}/swap) is not available yet: request approvalMode "approve", which gives the Universal Router\'s Permit2 allowance as plain transactions',
  );
  t.equal(permit2Refusal({ ...request, approvalMode: 'approve' }, trade), undefined);
});
