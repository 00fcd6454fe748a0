// Request field approvalMode (issue 26, "Approvals"): exact 400 bodies of a bad value, of "permit2" across chains,
// without a sender, for a route whose router is not the Universal Router and for a native tokenIn; and POST
// /quotes/{quoteId}/swap's refusals and answer over a permit2 quote saved as the service saves it. Over the fixture
// catalogue and test/fixtures/quote-snapshots: no chain (test/quote/permit2.devnet.test.ts runs the flow on one).
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { type Address, decodeFunctionData, encodeAbiParameters, encodeFunctionData, getAddress, type Hex, parseAbiParameters } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { CatalogToken } from '../../src/catalog/Catalog.ts';
import { permit2Refusal } from '../../src/quote/permit2Refusal.ts';
import type { Quote, QuoteSwap } from '../../src/quote/Quote.ts';
import { type PermitData, quotePermit } from '../../src/quote/quotePermit2.ts';
import type { QuoteRequest } from '../../src/quote/quoteRequest.ts';
import type { Trade } from '../../src/routing/Trade.ts';
import { universalRouterAbi } from '../../src/tx/abis.ts';
import { buildQuoteTestApp } from '../helpers/quoteTestApp.ts';
import { shippedCrossChainQuote } from '../helpers/stubQuoteApp.ts';
import type { Answer } from '../helpers/testApp.ts';

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

t.test('"permit2" without a sender is a 400 on both endpoints', async (t) => {
  for (const [url, headers] of [
    ['/quotes', A],
    ['/quotes/routes', {}],
  ] as const) {
    const res = await q.request('POST', url, { body: { ...BASE, approvalMode: 'permit2' }, headers });
    t.strictSame(
      [res.status, res.body],
      [
        400,
        { code: 400, message: 'sender: is required with approvalMode "permit2" (the wallet that signs the permit and sends the swap)' },
      ],
      url,
    );
  }
});

t.test('"permit2" on a route through a router other than the Universal Router is a 400 naming the router', async (t) => {
  const res = await q.request('POST', '/quotes', { body: { ...BASE, sender: RECIPIENT, approvalMode: 'permit2' }, headers: A });
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
    body: { ...BASE, tokenIn: ETH, tokenOut: USDC, amount: '1', sender: RECIPIENT, approvalMode: 'permit2' },
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
  t.strictSame(await shippedCrossChainQuote({ approvalMode: 'permit2' }), [
    400,
    { code: 400, message: 'approvalMode: "permit2" is same-chain only: originChainId and destinationChainId must be equal' },
  ]);
});

t.test('"permit2" on a Universal Router route with an ERC-20 tokenIn is answered (no refusal)', async (t) => {
  const token = { address: USDC, symbol: 'USDC' } as CatalogToken;
  const ur = { kind: 'UniversalRouter', address: '0x00000000000000000000000000000000000000cc', name: 'Uniswap Universal Router' } as const;
  const trade = { splits: [{ route: { executor: ur } }] } as unknown as Trade;
  const request = { tokenIn: token, approvalMode: 'permit2' } as unknown as QuoteRequest;
  t.equal(permit2Refusal(request, trade), undefined);
  t.equal(permit2Refusal({ ...request, approvalMode: 'approve' }, trade), undefined);
});

// POST /quotes/{quoteId}/swap over a quote saved as QuoteService saves a permit2 quote: permitData in the quote, the
// swap (encoded without the permit) beside it.
const owner = privateKeyToAccount(`0x${'42'.repeat(32)}`);
const other = privateKeyToAccount(`0x${'43'.repeat(32)}`);
const UR = getAddress('0x00000000000000000000000000000000000000cc');
const PERMIT2 = '0x000000000022D473030F116dDEE9F6B43aC78BA3' as const;
const HELD_CALL = encodeFunctionData({ abi: universalRouterAbi, functionName: 'execute', args: ['0x00', ['0xabcd'], 0n] });

async function savedPermitQuote(deadline: number): Promise<{ quoteId: string; permitData: PermitData; expiresAt: string }> {
  const created = await q.request<Answer<Quote>>('POST', '/quotes', { body: { ...BASE, sender: owner.address }, headers: A });
  const quote = created.body.data as Quote;
  const quoteId = randomUUID();
  const permitData = quotePermit({
    chainId: 1001,
    permit2: PERMIT2,
    token: getAddress(USDC),
    router: UR,
    amount: BigInt(quote.amountIn),
    deadline,
    nonce: 5,
  });
  const expiresAt = new Date(deadline * 1000).toISOString();
  const held = { message: 'Swap', from: owner.address, to: UR, data: HELD_CALL, amount: quote.amountIn, chainId: 1001, gasLimit: '250000' };
  const saved = { ...quote, quoteId, deadline, expiresAt, permitData };
  await q.store.save({
    orgId: 'org-a',
    quote: saved as unknown as Record<string, unknown>,
    json: JSON.stringify(saved),
    permit2Swap: held,
  });
  return { quoteId, permitData, expiresAt };
}
const swapOf = (quoteId: string, body: unknown, headers: Record<string, string> = A) =>
  q.request<Answer<QuoteSwap>>('POST', `/quotes/${quoteId}/swap`, { body, headers });
const signed = (account: typeof owner, data: PermitData) =>
  account.signTypedData(data as unknown as Parameters<typeof account.signTypedData>[0]);
const bad = (message: string) => [400, { code: 400, message }];

t.test('POST /quotes/{quoteId}/swap: an unknown quote is 404, a quote made without "permit2" a 400', async (t) => {
  const unknown = randomUUID();
  const res = await swapOf(unknown, { signature: `0x${'11'.repeat(65)}` });
  t.strictSame([res.status, res.body], [404, { code: 404, message: `quote ${unknown} not found` }]);
  const plain = await q.request<Answer<Quote>>('POST', '/quotes', { body: BASE, headers: A });
  const id = (plain.body.data as Quote).quoteId;
  const refused = await swapOf(id, { signature: `0x${'11'.repeat(65)}` });
  t.strictSame(
    [refused.status, refused.body],
    bad(
      `quote ${id} was not made with approvalMode "permit2": its steps already hold the swap; POST /quotes/{quoteId}/swap is for permit2 quotes only`,
    ),
  );
});

t.test('POST /quotes/{quoteId}/swap: body problems, each an exact 400', async (t) => {
  const { quoteId } = await savedPermitQuote(Math.floor(Date.now() / 1000) + 300);
  const form = 'signature: must be 0x and 130 hex digits (r, s, v) or 128 (EIP-2098 compact)';
  for (const [body, message] of [
    [{}, 'signature: is required'],
    [{ signature: 12 }, form],
    [{ signature: '0x1234' }, form],
    [{ signature: `0x${'zz'.repeat(65)}` }, form],
    [{ signature: `0x${'11'.repeat(65)}`, sig: 1 }, 'sig: is not a field of the swap request'],
    [{ signatur: '0x' }, 'signatur: is not a field of the swap request; signature: is required'],
    [[], 'request body must be a JSON object'],
  ] as const) {
    const res = await swapOf(quoteId, body);
    t.strictSame([res.status, res.body], bad(message), JSON.stringify(body));
  }
  const text = await q.request('POST', `/quotes/${quoteId}/swap`, { body: 'signature', headers: { ...A, 'content-type': 'text/plain' } });
  t.strictSame([text.status, text.body], bad('request body must be JSON (Content-Type: application/json)'));
});

t.test(
  "POST /quotes/{quoteId}/swap: the owner's signature gives the held swap with PERMIT2_PERMIT first; others are refused",
  async (t) => {
    const { quoteId, permitData } = await savedPermitQuote(Math.floor(Date.now() / 1000) + 300);
    const theirs = await signed(other, permitData);
    const wrong = await swapOf(quoteId, { signature: theirs });
    t.strictSame(
      [wrong.status, wrong.body],
      bad(
        `signature: signed by ${other.address}, not by the quote's sender ${owner.address}: the sender signs the quote's permitData exactly as given`,
      ),
    );
    const signature = await signed(owner, permitData);
    const invalid = await swapOf(quoteId, { signature: `${signature.slice(0, 130)}00` });
    t.strictSame([invalid.status, invalid.body], bad("signature: not a valid signature (r, s, v) of the quote's permitData"));
    const res = await swapOf(quoteId, { signature });
    t.equal(res.status, 200);
    t.equal(res.body.message, 'swap built successfully');
    const { steps } = res.body.data!;
    t.equal(res.body.data!.quoteId, quoteId);
    t.strictSame(
      steps.map((s) => ({ ...s, data: '<data>' })),
      [
        {
          message: 'Swap',
          from: owner.address,
          to: UR,
          data: '<data>',
          amount: permitData.message.details.amount,
          chainId: 1001,
          gasLimit: '250000',
        },
      ],
    );
    // The oracle of the permit's input: viem's ABI encoding of Dispatcher's (PermitSingle, bytes).
    const { details } = permitData.message;
    const permitInput = encodeAbiParameters(parseAbiParameters('((address,uint160,uint48,uint48),address,uint256), bytes'), [
      [
        [details.token as Address, BigInt(details.amount), details.expiration, details.nonce],
        permitData.message.spender as Address,
        BigInt(permitData.message.sigDeadline),
      ],
      signature,
    ]);
    t.strictSame(decodeFunctionData({ abi: universalRouterAbi, data: steps[0].data as Hex }).args, ['0x0a00', [permitInput, '0xabcd'], 0n]);
  },
);

t.test('POST /quotes/{quoteId}/swap: an expired quote is a 400 even with a good signature', async (t) => {
  const deadline = Math.floor(Date.now() / 1000) - 1;
  const { quoteId, permitData, expiresAt } = await savedPermitQuote(deadline);
  const res = await swapOf(quoteId, { signature: await signed(owner, permitData) });
  t.strictSame(
    [res.status, res.body],
    bad(`quote ${quoteId} expired at ${expiresAt}: refresh it (POST /quotes/${quoteId}/refresh) and sign the new permitData`),
  );
});
