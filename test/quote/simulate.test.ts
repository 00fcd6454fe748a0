// Simulation before signing without a chain to run on (fixture catalogue and quote snapshots, no RPC URL): the exact
// refusals of `simulate: true` and POST /quotes/{id}/simulate, and decodeRevert against revert data viem encodes
// (its encodeErrorResult is the oracle of the ABI encoding). The simulation itself: test/quote/simulate.devnet.test.ts.
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { encodeErrorResult, parseAbi } from 'viem';
import { decodeRevert } from '../../src/chain/decodeRevert.ts';
import type { Quote } from '../../src/quote/Quote.ts';
import { buildQuoteTestApp } from '../helpers/quoteTestApp.ts';
import type { Answer } from '../helpers/testApp.ts';

const q = buildQuoteTestApp({ snapshotDir: fileURLToPath(new URL('../fixtures/quote-snapshots', import.meta.url)) });
t.teardown(() => q.close());
const A = { authorization: `Bearer ${(await q.keys.create('simulate')).key}` };
const SENDER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const BASE = {
  originChainId: 1001,
  destinationChainId: 1001,
  tokenIn: '0x2222222222222222222222222222222222222222',
  tokenOut: '0x1111111111111111111111111111111111111111',
  amount: '1000',
  recipientAddress: '0x00000000000000000000000000000000000000aa',
};
const refusal = (status: number, message: string) => [status, { code: status, message }];

t.test('simulate: true refusals: 400 naming the field, and no RPC URL for the chain', async (t) => {
  for (const [body, message] of [
    [{ ...BASE, simulate: true }, 'sender: is required with simulate (the wallet the steps are simulated from)'],
    [{ ...BASE, simulate: 'yes', sender: SENDER }, 'simulate: must be a boolean'],
    [{ ...BASE, simulate: null, sender: SENDER }, 'simulate: must be a boolean'],
    [{ ...BASE, simulate: true, sender: SENDER }, 'simulation needs an RPC URL for chain 1001 (RPC_URL_1001)'],
  ] as const) {
    const res = await q.request('POST', '/quotes', { body, headers: A });
    t.strictSame([res.status, res.body], refusal(400, message), JSON.stringify(body));
  }
  const routes = await q.request('POST', '/quotes/routes', { body: { ...BASE, simulate: true, sender: SENDER } });
  t.strictSame([routes.status, routes.body], refusal(400, 'simulate: POST /quotes/routes returns no steps to simulate; use POST /quotes'));
  // simulate: false is the default: a quote without a simulation.
  const plain = await q.request<Answer<Quote>>('POST', '/quotes', { body: { ...BASE, simulate: false }, headers: A });
  t.equal(plain.status, 200);
  t.equal((plain.body.data as Quote).simulation, undefined);
});

t.test('POST /quotes/{id}/simulate refusals', async (t) => {
  const unknown = '7b0c4c5e-9d4a-4c47-9a43-2f1f3e5b6a01';
  const missing = await q.request('POST', `/quotes/${unknown}/simulate`, { headers: A });
  t.strictSame([missing.status, missing.body], refusal(404, `quote ${unknown} not found`));
  const noKey = await q.request('POST', `/quotes/${unknown}/simulate`);
  t.equal(noKey.status, 401);

  const without = (await q.request<Answer<Quote>>('POST', '/quotes', { body: BASE, headers: A })).body.data as Quote;
  const res = await q.request('POST', `/quotes/${without.quoteId}/simulate`, { headers: A });
  t.strictSame(
    [res.status, res.body],
    refusal(400, `quote ${without.quoteId} was requested without a sender: simulation runs the steps from it; request a quote with sender`),
  );
  const other = { authorization: `Bearer ${(await q.keys.create('other-org')).key}` };
  const foreign = await q.request('POST', `/quotes/${without.quoteId}/simulate`, { headers: other });
  t.strictSame([foreign.status, foreign.body], refusal(404, `quote ${without.quoteId} not found`), "another organization's quote");

  const withSender = (await q.request<Answer<Quote>>('POST', '/quotes', { body: { ...BASE, sender: SENDER }, headers: A })).body
    .data as Quote;
  const noRpc = await q.request('POST', `/quotes/${withSender.quoteId}/simulate`, { headers: A });
  t.strictSame([noRpc.status, noRpc.body], refusal(400, 'simulation needs an RPC URL for chain 1001 (RPC_URL_1001)'));
});

t.test('decodeRevert: Error(string), Panic(uint256), custom errors known and unknown, no data', async (t) => {
  const error = (text: string) => encodeErrorResult({ abi: parseAbi(['error Error(string)']), errorName: 'Error', args: [text] });
  for (const text of ['STF', 'Too little received', 'UniswapV2: K', 'Transaction too old']) {
    t.strictSame(decodeRevert(error(text)), { reason: text, data: error(text) });
  }
  const panic = encodeErrorResult({ abi: parseAbi(['error Panic(uint256)']), errorName: 'Panic', args: [0x11n] });
  t.equal(decodeRevert(panic).reason, 'Panic(0x11: arithmetic underflow or overflow)');
  const custom = encodeErrorResult({
    abi: parseAbi(['error ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed)']),
    errorName: 'ERC20InsufficientBalance',
    args: [SENDER, 0n, 5n],
  });
  t.equal(decodeRevert(custom).reason, `ERC20InsufficientBalance(${SENDER}, 0, 5)`);
  t.strictSame(decodeRevert('0x12345678abcd'), { reason: 'custom error 0x12345678', data: '0x12345678abcd' });
  t.strictSame(decodeRevert('0x'), { reason: 'reverted without a reason', data: '0x' });
  t.strictSame(decodeRevert(undefined), { reason: 'reverted without a reason', data: '0x' });
});
