// The quote lifecycle end to end on a devnet the service follows (FOLLOW=true, RPC_URL_31337): a quote taken at the
// head, then another wallet's large trade moves the pools. POST /quotes/{id}/refresh prices the head again (equal to
// the chain's own quoter at that block) and says PRICE_MOVED; the old quote's swap indeed reverts on chain, and
// GET /quotes/{id}/status reports it failed with the receipt's block and gas. The refreshed quote's swap is pending
// while the block is not mined, then a success whose amount received equals the recipient's balance change.
import t from 'tap';
import type { Address, Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { fundAccount } from '../../seeds/devnet/fundAccount.ts';
import type { Quote } from '../../src/quote/Quote.ts';
import { type QuoteTxStatus, QuoteTxStatusReader } from '../../src/quote/quoteTxStatus.ts';
import { freshAddress } from '../helpers/devnetWallet.ts';
import { startFollowDevnet, startFollowingServer, untilPricedAt } from '../helpers/followDevnet.ts';

const net = await startFollowDevnet((fn) => t.teardown(fn), 31);
const { devnet, chain, trader, token, chainQuote } = net;
const { client, wallet, balanceOf, sendStep, sendSteps } = net.wallet;

const { call } = await startFollowingServer((fn) => t.teardown(fn), net, 'lifecycle');

const request = (amount: string, extra: Record<string, unknown>) => ({
  originChainId: chain.chainId,
  destinationChainId: chain.chainId,
  tokenIn: token('WETH').address,
  tokenOut: token('USDC').address,
  amount,
  maxHops: 1,
  maxSplits: 1,
  ...extra,
});

/** Waits until the API prices on the chain's head (the follower applied it). */
async function atHead(): Promise<number> {
  const head = Number(await client.getBlockNumber());
  return untilPricedAt(head, () =>
    call<{ snapshot: { blockNumber: number } }[]>('POST', '/quotes/routes', request('1', { recipientAddress: freshAddress('x') })),
  );
}

const statusOf = async (quoteId: string, hash: string) => call<QuoteTxStatus>('GET', `/quotes/${quoteId}/status?txHash=${hash}`);

const user = privateKeyToAccount(devnet.accounts[7].privateKey);
const whale = privateKeyToAccount(devnet.accounts[8].privateKey);
await trader.rpc('evm_setAutomine', [true]);
await fundAccount(devnet.rpcUrl, user.address, token('WETH').address as Address, 10n ** 19n);
await fundAccount(devnet.rpcUrl, whale.address, token('WETH').address as Address, 400n * 10n ** 18n);
const recipient = freshAddress('lifecycle-recipient');

t.test('a quote, a large trade by another wallet, the refresh, the old swap reverting and the new one delivering', async (t) => {
  await atHead();
  const old = await call<Quote>(
    'POST',
    '/quotes',
    request('2.25', { recipientAddress: recipient, walletAddress: user.address, slippageBps: 50 }),
  );
  t.equal(old.status, 200, old.body.message);
  const quote = old.body.data;
  const unknownHash = `0x${'12'.repeat(32)}`;
  t.strictSame((await statusOf(quote.quoteId, unknownHash)).body.data, {
    quoteId: quote.quoteId,
    txHash: unknownHash,
    status: 'not_found',
    step: null,
    blockNumber: null,
    gasUsed: null,
    amountOut: quote.amountOut,
    amountOutMinimum: quote.amountOutMinimum,
    amountReceived: null,
    realizedSlippageBps: null,
  });

  // Another wallet sells 300 WETH for USDC through every pool it likes.
  const big = await call<Quote>('POST', '/quotes', {
    ...request('300', { recipientAddress: whale.address, walletAddress: whale.address, maxPriceImpactBps: 10_000 }),
    maxSplits: 7,
  });
  t.equal(big.status, 200, big.body.message);
  const whaleReceipts = await sendSteps(whale, big.body.data.steps);
  const head = await atHead();

  const refreshed = await call<Quote>('POST', `/quotes/${quote.quoteId}/refresh`);
  t.equal(refreshed.status, 200, refreshed.body.message);
  const fresh = refreshed.body.data;
  t.equal(fresh.snapshot?.blockNumber, head, 'priced on the head');
  const hop = fresh.paths![0].hops[0];
  const chainOut = await chainQuote(hop, 2_250_000_000_000_000_000n, BigInt(head));
  t.equal(BigInt(fresh.amountOut), chainOut, "the new amountOut is the chain's own quote at the head");
  t.ok(chainOut < BigInt(quote.amountOutMinimum), 'below the old minimum');
  t.strictSame(
    [fresh.refreshedFrom, fresh.changes?.amountOut, fresh.warnings.map((w) => w.code)],
    [quote.quoteId, (chainOut - BigInt(quote.amountOut)).toString(), ['PRICE_MOVED']],
  );

  // The old quote's steps: the approval goes through, the swap reverts (below its amountOutMinimum).
  t.equal(quote.steps.length, 2, 'approve, swap');
  const approve = await sendStep(user, quote.steps[0]);
  const swap = await sendStep(user, quote.steps[1]);
  t.strictSame([approve.status, swap.status], ['success', 'reverted']);
  t.strictSame((await statusOf(quote.quoteId, approve.transactionHash)).body.data, {
    quoteId: quote.quoteId,
    txHash: approve.transactionHash,
    status: 'success',
    step: 0,
    blockNumber: Number(approve.blockNumber),
    gasUsed: approve.gasUsed.toString(),
    amountOut: quote.amountOut,
    amountOutMinimum: quote.amountOutMinimum,
    amountReceived: '0',
    realizedSlippageBps: null,
  });
  t.strictSame((await statusOf(quote.quoteId, swap.transactionHash)).body.data, {
    quoteId: quote.quoteId,
    txHash: swap.transactionHash,
    status: 'failed',
    step: 1,
    blockNumber: Number(swap.blockNumber),
    gasUsed: swap.gasUsed.toString(),
    amountOut: quote.amountOut,
    amountOutMinimum: quote.amountOutMinimum,
    amountReceived: '0',
    realizedSlippageBps: null,
  });
  const foreign = whaleReceipts.at(-1)!.transactionHash;
  t.strictSame(await statusOf(quote.quoteId, foreign), {
    status: 400,
    body: { code: 400, message: `transaction ${foreign} is not a step of quote ${quote.quoteId}` },
  });

  // The refreshed quote: approval, then the swap sent while blocks are not mined (pending), then mined.
  await atHead();
  t.equal(fresh.steps.length, 2, 'approve, swap');
  await sendStep(user, fresh.steps[0]);
  const before = await balanceOf(token('USDC').address, recipient);
  await trader.rpc('evm_setAutomine', [false]);
  const step = fresh.steps[1];
  const hash: Hex = await wallet.sendTransaction({
    account: user,
    chain: net.wallet.chain,
    to: step.to as Address,
    data: step.data as Hex,
    gas: BigInt(step.gasLimit!),
  });
  const pending = (await statusOf(fresh.quoteId, hash)).body.data;
  t.strictSame([pending.status, pending.step, pending.blockNumber], ['pending', 1, null], 'sent, not mined: pending');
  await trader.rpc('evm_mine');
  await trader.rpc('evm_setAutomine', [true]);
  const receipt = await client.waitForTransactionReceipt({ hash });
  const delivered = (await balanceOf(token('USDC').address, recipient)) - before;
  t.equal(receipt.status, 'success');
  t.equal(delivered, BigInt(fresh.amountOut), 'the state had not moved: exactly amountOut');
  t.strictSame((await statusOf(fresh.quoteId, hash)).body.data, {
    quoteId: fresh.quoteId,
    txHash: hash,
    status: 'success',
    step: 1,
    blockNumber: Number(receipt.blockNumber),
    gasUsed: receipt.gasUsed.toString(),
    amountOut: fresh.amountOut,
    amountOutMinimum: fresh.amountOutMinimum,
    amountReceived: delivered.toString(),
    realizedSlippageBps: 0,
  });

  // A hash the chain does not know, once the quote's deadline has passed: expired.
  const later = new QuoteTxStatusReader({
    catalog: { chain: () => chain } as never,
    rpcUrls: new Map([[chain.chainId, devnet.rpcUrl]]),
    now: () => (fresh.deadline + 1) * 1000,
  });
  t.equal((await later.status(fresh, unknownHash as Hex)).status, 'expired');
});

t.test('native output: the amount received is the ether unwrapped for the recipient', async (t) => {
  await atHead();
  await fundAccount(devnet.rpcUrl, user.address, token('USDC').address as Address, 5_000_000_000n);
  const to = freshAddress('lifecycle-native');
  const created = await call<Quote>('POST', '/quotes', {
    ...request('1000', { recipientAddress: to, walletAddress: user.address }),
    tokenIn: token('USDC').address,
    tokenOut: '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE',
  });
  t.equal(created.status, 200, created.body.message);
  const quote = created.body.data;
  const before = await balanceOf('0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE', to);
  const receipts = await sendSteps(user, quote.steps);
  const delivered = (await balanceOf('0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE', to)) - before;
  t.equal(delivered, BigInt(quote.amountOut), 'the recipient got exactly amountOut in ether');
  const last = receipts.at(-1)!;
  const status = (await statusOf(quote.quoteId, last.transactionHash)).body.data;
  t.strictSame(
    [status.status, status.step, status.amountReceived, status.realizedSlippageBps],
    ['success', quote.steps.length - 1, delivered.toString(), 0],
  );
});
