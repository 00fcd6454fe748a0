// Simulation before signing on a devnet the service follows (FOLLOW=true, RPC_URL_31337). The oracle is the chain
// itself: a quote simulated before its sender holds tokenIn or has approved anything (the balance given by a state
// override) is then funded and its steps sent exactly as returned (gas limits from the simulation included); the
// recipient's balance change equals simulatedAmountOut and amountOut to the wei, and the approval's simulated gas is
// its receipt's. Then another wallet moves the pool: the simulation reverts with the router's own reason (the
// contract's revert string; the same data the mined transaction reverts with), and the refresh says PRICE_MOVED.
import { Ajv2020 } from 'ajv/dist/2020.js';
import t, { type Test } from 'tap';
import type { Address, Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { fundAccount } from '../../seeds/devnet/fundAccount.ts';
import { NATIVE_TOKEN_ADDRESS } from '../../src/catalog/Catalog.ts';
import { ChainClients } from '../../src/chain/chainClients.ts';
import type { Quote } from '../../src/quote/Quote.ts';
import type { QuoteSimulation } from '../../src/quote/quoteSimulation.ts';
import { QuoteSimulator } from '../../src/quote/quoteSimulation.ts';
import { freshAddress } from '../helpers/devnetWallet.ts';
import { startFollowDevnet, startFollowingServer, untilPricedAt } from '../helpers/followDevnet.ts';
import { rpcProxy } from '../helpers/rpcProxy.ts';

const net = await startFollowDevnet((fn) => t.teardown(fn), 37);
const { devnet, chain, trader, token } = net;
const { client, balanceOf, sendStep, sendSteps } = net.wallet;
const { server, call } = await startFollowingServer((fn) => t.teardown(fn), net, 'simulate');
// The served OpenAPI document: every simulation answered here must match its QuoteSimulation schema.
const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: false });
ajv.addSchema({ ...(await (await fetch(`${server.url}/openapi.json`)).json()), $id: 'openapi.json' });
const matchesDocument = ajv.compile({ $ref: 'openapi.json#/components/schemas/QuoteSimulation' });
const documented = (t: Test, sim: unknown) =>
  t.ok(matchesDocument(sim), `matches the document's QuoteSimulation ${ajv.errorsText(matchesDocument.errors)}`);

const request = (tokenIn: string, tokenOut: string, amount: string, extra: Record<string, unknown>) => ({
  originChainId: chain.chainId,
  destinationChainId: chain.chainId,
  tokenIn,
  tokenOut,
  amount,
  maxHops: 1,
  maxSplits: 1,
  ...extra,
});

/** Waits until the API prices on the chain's head (the follower applied it). */
async function atHead(): Promise<number> {
  const head = Number(await client.getBlockNumber());
  return untilPricedAt(head, () =>
    call<{ snapshot: { blockNumber: number } }[]>(
      'POST',
      '/quotes/routes',
      request(token('WETH').address, token('USDC').address, '1', { recipientAddress: freshAddress('x') }),
    ),
  );
}

await trader.rpc('evm_setAutomine', [true]);
// A node without eth_simulateV1 (nor eth_createAccessList): the eth_call fallback, storage slots found by probing.
const lacking = new Set(['eth_simulateV1', 'eth_createAccessList']);
const oldNode = await rpcProxy(devnet.rpcUrl, (r) =>
  lacking.has(r.method) ? { code: -32601, message: `the method ${r.method} does not exist/is not available` } : undefined,
);
t.teardown(() => oldNode.close());
const fallback = new QuoteSimulator(new ChainClients(new Map([[chain.chainId, oldNode.url]])));
const WETH = token('WETH').address as Address;
const USDC = token('USDC').address as Address;

t.test('simulated before the sender holds or approved anything, then executed as returned: equal to the wei', async (t) => {
  const user = privateKeyToAccount(devnet.accounts[7].privateKey);
  const recipient = freshAddress('simulate-recipient');
  t.equal(await balanceOf(WETH, user.address), 0n, 'the sender holds no WETH');
  await atHead();
  const created = await call<Quote>(
    'POST',
    '/quotes',
    request(WETH, USDC, '2.25', { recipientAddress: recipient, sender: user.address, simulate: true }),
  );
  t.equal(created.status, 200, created.body.message);
  const quote = created.body.data;
  const sim = quote.simulation!;
  documented(t, sim);
  const head = Number(await client.getBlockNumber());
  t.strictSame(
    [sim.quoteId, sim.chainId, sim.blockNumber, sim.method, sim.sender, sim.success, sim.amountOut, sim.notes],
    [quote.quoteId, chain.chainId, head, 'eth_simulateV1', user.address, true, quote.amountOut, []],
  );
  t.strictSame(sim.overrides, [{ kind: 'balance', token: WETH, holder: user.address, value: quote.amountIn }], 'the WETH it lacks, given');
  t.strictSame(
    sim.steps.map((s) => [s.message, s.status, s.revert]),
    quote.steps.map((s) => [s.message, 'success', null]),
  );
  t.equal(quote.steps.length, 2, 'approve, swap');
  t.equal(sim.simulatedAmountOut, quote.amountOut, 'the state had not moved: simulatedAmountOut is amountOut');
  t.strictSame(
    quote.steps.map((s) => s.gasLimit),
    sim.steps.map((s) => ((BigInt(s.gasUsed!) * 5n + 3n) / 4n + 20_000n).toString()),
    'each gasLimit is gasUsed + 25% + 20,000',
  );

  // The same quote simulated again at the same block: the cached answer.
  const again = await call<QuoteSimulation>('POST', `/quotes/${quote.quoteId}/simulate`);
  t.strictSame([again.status, again.body.message, again.body.data], [200, 'quote simulated successfully', sim]);

  // The eth_call fallback: each step alone, the approval carried as an allowance override.
  const byCalls = await fallback.simulate(quote, user.address);
  t.strictSame(
    [byCalls.method, byCalls.success, byCalls.simulatedAmountOut, byCalls.overrides, byCalls.steps.map((s) => [s.status, s.revert])],
    [
      'eth_call',
      true,
      null,
      [
        ...sim.overrides,
        { kind: 'allowance', token: WETH, holder: user.address, spender: quote.steps[0].spender, value: quote.steps[0].amount },
      ],
      [
        ['success', null],
        ['success', null],
      ],
    ],
  );
  t.equal(byCalls.notes.length, 1, 'the fallback says what it cannot carry');

  // Funded (no pool moves), then the steps exactly as returned.
  await fundAccount(devnet.rpcUrl, user.address, WETH, 10n ** 19n);
  const funded = (await call<QuoteSimulation>('POST', `/quotes/${quote.quoteId}/simulate`)).body.data;
  t.strictSame([funded.overrides, funded.simulatedAmountOut], [[], quote.amountOut], 'holding WETH now: no override, same output');
  const before = await balanceOf(USDC, recipient);
  const receipts = await sendSteps(user, quote.steps);
  const delivered = (await balanceOf(USDC, recipient)) - before;
  t.equal(delivered.toString(), sim.simulatedAmountOut, "simulatedAmountOut is the recipient's balance change on chain");
  t.equal(receipts[0].gasUsed.toString(), sim.steps[0].gasUsed, "the approval's simulated gas is its receipt's");
  t.comment(`swap gasUsed: simulated ${sim.steps[1].gasUsed}, mined ${receipts[1].gasUsed}, gasLimit ${quote.steps[1].gasLimit}`);
});

t.test('native output: simulatedAmountOut counts the ether the recipient received', async (t) => {
  const user = privateKeyToAccount(devnet.accounts[6].privateKey);
  const recipient = freshAddress('simulate-native');
  await atHead();
  const created = await call<Quote>(
    'POST',
    '/quotes',
    request(USDC, NATIVE_TOKEN_ADDRESS, '1000', { recipientAddress: recipient, sender: user.address, simulate: true }),
  );
  t.equal(created.status, 200, created.body.message);
  const quote = created.body.data;
  const sim = quote.simulation!;
  t.strictSame(sim.overrides, [{ kind: 'balance', token: USDC, holder: user.address, value: quote.amountIn }]);
  t.strictSame([sim.success, sim.simulatedAmountOut], [true, quote.amountOut]);
  await fundAccount(devnet.rpcUrl, user.address, USDC, 5_000_000_000n);
  const before = await balanceOf(NATIVE_TOKEN_ADDRESS, recipient);
  await sendSteps(user, quote.steps);
  t.equal(((await balanceOf(NATIVE_TOKEN_ADDRESS, recipient)) - before).toString(), sim.simulatedAmountOut, 'the ether received');
});

t.test("a pool moved by another trader: the simulation reverts with the router's reason, the refresh says PRICE_MOVED", async (t) => {
  const user = privateKeyToAccount(devnet.accounts[5].privateKey);
  const whale = privateKeyToAccount(devnet.accounts[8].privateKey);
  await fundAccount(devnet.rpcUrl, whale.address, WETH, 400n * 10n ** 18n);
  await atHead();
  const created = await call<Quote>(
    'POST',
    '/quotes',
    request(WETH, USDC, '2.25', { recipientAddress: user.address, sender: user.address, slippageBps: 50 }),
  );
  t.equal(created.status, 200, created.body.message);
  const quote = created.body.data;
  const big = await call<Quote>('POST', '/quotes', {
    ...request(WETH, USDC, '300', { recipientAddress: whale.address, walletAddress: whale.address, maxPriceImpactBps: 10_000 }),
    maxSplits: 7,
  });
  t.equal(big.status, 200, big.body.message);
  await sendSteps(whale, big.body.data.steps);
  await atHead();

  const res = await call<QuoteSimulation>('POST', `/quotes/${quote.quoteId}/simulate`);
  t.equal(res.status, 200, res.body.message);
  const sim = res.body.data;
  documented(t, sim);
  documented(t, await fallback.simulate(quote, user.address));
  // The routers' own revert strings for an output below the minimum: SwapRouter (v3) and UniswapV2Router02.
  const expected = quote.route.version === 'v2' ? 'UniswapV2Router: INSUFFICIENT_OUTPUT_AMOUNT' : 'Too little received';
  t.strictSame(
    [sim.success, sim.simulatedAmountOut, sim.steps.map((s) => [s.status, s.revert?.reason ?? null])],
    [
      false,
      '0',
      [
        ['success', null],
        ['reverted', expected],
      ],
    ],
  );
  t.equal(sim.steps[1].gasLimit, null, 'no gas limit for a step that reverts');

  const byCalls = await fallback.simulate(quote, user.address);
  t.strictSame(
    [byCalls.method, byCalls.success, byCalls.steps.map((s) => [s.status, s.revert?.reason ?? null])],
    [
      'eth_call',
      false,
      [
        ['success', null],
        ['reverted', expected],
      ],
    ],
    'the eth_call fallback: the same reason',
  );

  const refreshed = await call<Quote>('POST', `/quotes/${quote.quoteId}/refresh`);
  t.equal(refreshed.status, 200, refreshed.body.message);
  t.strictSame(
    refreshed.body.data.warnings.map((w) => w.code),
    ['PRICE_MOVED'],
  );

  // On chain: funded, approved, the swap mined with the step's own gas model limit reverts, with the same data.
  await fundAccount(devnet.rpcUrl, user.address, WETH, 10n ** 19n);
  await sendStep(user, quote.steps[0]);
  const swap = quote.steps[1];
  const replay = await client
    .call({ account: user.address, to: swap.to, data: swap.data as Hex })
    .then(() => undefined)
    .catch(
      (e: { walk: (f: (x: unknown) => boolean) => { data?: Hex } | null }) =>
        e.walk((x) => typeof (x as { data?: unknown }).data === 'string')?.data,
    );
  t.equal(replay, sim.steps[1].revert!.data, "the chain's own revert data for the swap");
  const mined = await sendStep(user, swap);
  t.equal(mined.status, 'reverted', 'the swap indeed reverts when sent');
});
