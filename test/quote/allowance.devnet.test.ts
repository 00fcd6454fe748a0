// Allowance-aware steps on a devnet (POST /quotes `sender`, RPC_URL_31337): the standard deployment plus the quirk
// tokens (seeds/devnet/deployQuirkTokens.ts: RUSD has Tether's approval rule and is catalogued approvalReset), seeded
// into a temporary snapshot folder and quoted by the app. The oracle of each allowance is the token contract itself
// (allowance(sender, router) read here); the swap's delivery is the recipient's balance change on the chain.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { type Address, encodeFunctionData, parseAbi } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { deployQuirkTokens, quirkCatalog } from '../../seeds/devnet/deployQuirkTokens.ts';
import { startDevnet } from '../../seeds/devnet/startDevnet.ts';
import { loadCatalog } from '../../src/catalog/loadCatalog.ts';
import { seedChains } from '../../src/chain/seedChains.ts';
import type { Quote } from '../../src/quote/Quote.ts';
import { devnetWallet, freshAddress } from '../helpers/devnetWallet.ts';
import { buildQuoteTestApp } from '../helpers/quoteTestApp.ts';
import type { Answer } from '../helpers/testApp.ts';

const tokenAbi = parseAbi([
  'function mint(address to, uint256 value)',
  'function approve(address spender, uint256 value)',
  'function deposit() payable',
  'function allowance(address, address) view returns (uint256)',
]);

const devnet = await startDevnet();
t.teardown(() => devnet.stop());
const quirks = await deployQuirkTokens(devnet.rpcUrl);
const { RUSD } = quirks.tokens;
const router = devnet.addresses.contracts.uniswapV2Router02;
const WETH = devnet.addresses.tokens.WETH;
const catalogDir = mkdtempSync(join(tmpdir(), 'allowance-catalog-'));
const snapshotDir = mkdtempSync(join(tmpdir(), 'allowance-snapshots-'));
t.teardown(() => rmSync(catalogDir, { recursive: true, force: true }));
t.teardown(() => rmSync(snapshotDir, { recursive: true, force: true }));
writeFileSync(join(catalogDir, 'devnet.json'), JSON.stringify(quirkCatalog(quirks)));
const chain = loadCatalog(catalogDir).chain(31337)!;
await seedChains({ chains: [chain], rpcUrls: new Map([[31337, devnet.rpcUrl]]), snapshotDir, progress: 'none' });

const { client, balanceOf, send, sendSteps } = devnetWallet(devnet);
const sender = privateKeyToAccount(devnet.accounts[7].privateKey);
const q = buildQuoteTestApp({ catalogDir, snapshotDir, env: { RPC_URL_31337: devnet.rpcUrl } });
t.teardown(() => q.close());
const AUTH = { authorization: `Bearer ${(await q.keys.create('allowance')).key}` };

/** A quote of `amount` tokenIn for tokenOut through the RUSD/WETH pair, sent by `sender`. */
async function quote(tokenIn: string, tokenOut: string, amount: string, recipient: string): Promise<Quote> {
  const res = await q.request<Answer<Quote>>('POST', '/quotes', {
    body: {
      originChainId: 31337,
      destinationChainId: 31337,
      tokenIn,
      tokenOut,
      amount,
      recipientAddress: recipient,
      sender: sender.address,
      maxSplits: 1,
    },
    headers: AUTH,
  });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return res.body.data as Quote;
}
const approve = (token: Address, amount: bigint) =>
  send(sender, { to: token, data: encodeFunctionData({ abi: tokenAbi, functionName: 'approve', args: [router, amount] }) });
const allowance = (token: Address) =>
  client.readContract({ address: token, abi: tokenAbi, functionName: 'allowance', args: [sender.address, router] });
const stepsOf = (quote: Quote) => quote.steps.map((s) => [s.message, s.to, s.spender, s.amount]);

await send(sender, { to: WETH, data: encodeFunctionData({ abi: tokenAbi, functionName: 'deposit' }), value: 10n ** 18n });
await send(sender, { to: RUSD, data: encodeFunctionData({ abi: tokenAbi, functionName: 'mint', args: [sender.address, 10n ** 9n] }) });

t.test('enough allowance already: no approval step, and the swap delivers exactly the quoted amounts', async (t) => {
  const amountIn = 10n ** 17n;
  await approve(WETH, amountIn);
  t.equal(await allowance(WETH), amountIn, 'the chain holds exactly the amount approved');
  const recipient = freshAddress('allowance-enough') as Address;
  const created = await quote(WETH, RUSD, '0.1', recipient);
  t.strictSame(stepsOf(created), [['Swap 0.1 WETH for RUSD on Uniswap V2', router, undefined, amountIn.toString()]]);
  t.strictSame(created.warnings, []);
  const spentBefore = await balanceOf(WETH, sender.address);
  const receipts = await sendSteps(sender, created.steps);
  t.strictSame(
    receipts.map((r) => r.status),
    ['success'],
  );
  t.equal(await balanceOf(RUSD, recipient), BigInt(created.amountOut), 'the recipient received exactly amountOut');
  t.equal(spentBefore - (await balanceOf(WETH, sender.address)), BigInt(created.amountIn), 'the sender spent exactly amountIn');
  t.equal(await allowance(WETH), 0n, 'the allowance was used up');
  // A refresh reads again: the allowance is spent, so the approval is back.
  const refreshed = await q.request<Answer<Quote>>('POST', `/quotes/${created.quoteId}/refresh`, { headers: AUTH });
  t.strictSame(
    (refreshed.body.data as Quote).steps.map((s) => [s.message, s.spender]),
    [
      ['Approve 0.1 WETH for Uniswap V2 router', router],
      ['Swap 0.1 WETH for RUSD on Uniswap V2', undefined],
    ],
  );
});

t.test('an allowance below the amount: the approval step (no reset for a token without the rule)', async (t) => {
  await approve(WETH, 10n ** 17n - 1n);
  const created = await quote(WETH, RUSD, '0.1', freshAddress('allowance-below'));
  t.strictSame(stepsOf(created), [
    ['Approve 0.1 WETH for Uniswap V2 router', WETH, router, '100000000000000000'],
    ['Swap 0.1 WETH for RUSD on Uniswap V2', router, undefined, '100000000000000000'],
  ]);
  const receipts = await sendSteps(sender, created.steps);
  t.strictSame(
    receipts.map((r) => r.status),
    ['success', 'success'],
  );
});

t.test('an approvalReset token: the reset only while the allowance is not zero', async (t) => {
  t.equal(await allowance(RUSD), 0n);
  const none = await quote(RUSD, WETH, '25', sender.address);
  t.strictSame(stepsOf(none), [
    ['Approve 25 RUSD for Uniswap V2 router', RUSD, router, '25000000'],
    ['Swap 25 RUSD for WETH on Uniswap V2', router, undefined, '25000000'],
  ]);

  await approve(RUSD, 1n);
  t.equal(await allowance(RUSD), 1n, 'a leftover allowance');
  const leftover = await quote(RUSD, WETH, '25', sender.address);
  t.strictSame(stepsOf(leftover), [
    ['Reset the RUSD allowance of Uniswap V2 router to 0', RUSD, router, '0'],
    ['Approve 25 RUSD for Uniswap V2 router', RUSD, router, '25000000'],
    ['Swap 25 RUSD for WETH on Uniswap V2', router, undefined, '25000000'],
  ]);
  // The app prices on the seeded snapshot (not followed) and the swaps above moved the pair: the chain accepts the
  // reset, the approval and the swap within its slippage bound; the exact amounts are the first test's.
  const receipts = await sendSteps(sender, leftover.steps);
  t.strictSame(
    receipts.map((r) => r.status),
    ['success', 'success', 'success'],
  );
  t.equal(await allowance(RUSD), 0n, 'the approval was used up');
});

t.test('a node that cannot be read: the steps as without a sender, and warning ALLOWANCE_NOT_READ', async (t) => {
  const down = buildQuoteTestApp({ catalogDir, snapshotDir, env: { RPC_URL_31337: 'http://127.0.0.1:9' } });
  t.teardown(() => down.close());
  const auth = { authorization: `Bearer ${(await down.keys.create('down')).key}` };
  await approve(WETH, 10n ** 18n);
  const res = await down.request<Answer<Quote>>('POST', '/quotes', {
    body: {
      originChainId: 31337,
      destinationChainId: 31337,
      tokenIn: WETH,
      tokenOut: RUSD,
      amount: '0.1',
      recipientAddress: sender.address,
      sender: sender.address,
    },
    headers: auth,
  });
  t.equal(res.status, 200);
  const created = res.body.data as Quote;
  t.strictSame(
    created.steps.map((s) => s.message),
    ['Approve 0.1 WETH for Uniswap V2 router', 'Swap 0.1 WETH for RUSD on Uniswap V2'],
  );
  t.strictSame(created.warnings, [
    {
      code: 'ALLOWANCE_NOT_READ',
      message: `the allowances of ${sender.address} were not read: chain 31337 could not be read; the steps approve as they do without a sender`,
    },
  ]);
});
