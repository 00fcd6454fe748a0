// The request's `sender` over the fixture catalogue and quote snapshots, without an RPC URL for the chain: the exact
// 400 bodies of a malformed sender, and a quote whose steps are those without a sender, with warning
// ALLOWANCE_NOT_READ naming why. The allowance reads themselves: test/quote/allowance.devnet.test.ts.
import { fileURLToPath } from 'node:url';
import t from 'tap';
import type { Quote } from '../../src/quote/Quote.ts';
import { buildQuoteTestApp } from '../helpers/quoteTestApp.ts';
import type { Answer } from '../helpers/testApp.ts';

const q = buildQuoteTestApp({ snapshotDir: fileURLToPath(new URL('../fixtures/quote-snapshots', import.meta.url)) });
t.teardown(() => q.close());
const A = { authorization: `Bearer ${(await q.keys.create('sender')).key}` };
const BASE = {
  originChainId: 1001,
  destinationChainId: 1001,
  tokenIn: '0x2222222222222222222222222222222222222222',
  tokenOut: '0x1111111111111111111111111111111111111111',
  amount: '1000',
  recipientAddress: '0x00000000000000000000000000000000000000aa',
};
// Anvil's second account as its checksum spells it, and with the last character changed.
const GOOD = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const TYPO = '0x70997970C51812dc3A010C7d01b50e0d17dc79C9';

const post = (body: unknown) => q.request<Answer<Quote>>('POST', '/quotes', { body, headers: A });

t.test('a malformed sender: 400 naming the field', async (t) => {
  for (const [sender, message] of [
    ['0x123', 'sender: must be a valid EVM address (0x followed by 40 hex digits)'],
    [TYPO, `sender: ${TYPO} fails its EIP-55 checksum: check the address for a typo`],
    [7, 'sender: must be a string'],
    [null, 'sender: must be a string'],
  ] as const) {
    const res = await post({ ...BASE, sender });
    t.strictSame([res.status, res.body], [400, { code: 400, message }], String(sender));
  }
  const res = await post({ ...BASE, sender: GOOD, walletAddress: BASE.recipientAddress });
  t.strictSame(
    [res.status, res.body],
    [400, { code: 400, message: 'sender: must equal walletAddress when both are sent (both name the wallet that sends the steps)' }],
  );
});

t.test('no RPC URL for the chain: the steps without a sender, and the warning saying why', async (t) => {
  const plain = await post({ ...BASE, walletAddress: GOOD });
  const withSender = await post({ ...BASE, sender: GOOD.toLowerCase() });
  t.equal(withSender.status, 200);
  const [a, b] = [plain.body.data as Quote, withSender.body.data as Quote];
  t.equal(b.walletAddress, GOOD, 'walletAddress defaults to the sender, checksummed');
  t.strictSame(
    b.steps.map((s) => [s.message, s.from]),
    a.steps.map((s) => [s.message, s.from]),
  );
  t.ok(
    b.steps.some((s) => s.spender),
    'an approval step',
  );
  t.strictSame(a.warnings, []);
  t.strictSame(b.warnings, [
    {
      code: 'ALLOWANCE_NOT_READ',
      message: `the allowances of ${GOOD} were not read: no RPC URL for chain 1001 (RPC_URL_1001); the steps approve as they do without a sender`,
    },
  ]);
});
