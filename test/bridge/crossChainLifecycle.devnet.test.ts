// GET /quotes/{id}/status for cross-chain quotes on two devnets with the real Across SpokePool, the service reading
// both chains (RPC_URL_31337, RPC_URL_31338). The deposit's hash reports the deposit (pending while not mined, then
// its depositId), then the relayer's fill on chain B (pending, then filled), then the destination swap; the amount
// the recipient received is the recipient's balance change on chain B (the chain is the oracle), and the depositId
// and fill are the ones the SpokePool's own events (decoded with the published ABI) name. A request naming its
// `sender` gets the approvals it has not given yet, on both chains: the steps without them execute on the chains.
import t from 'tap';
import { type Address, encodeFunctionData, erc20Abi, type Hex, maxUint256 } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { fundAccount } from '../../seeds/devnet/fundAccount.ts';
import { jsonRpc } from '../../seeds/devnet/jsonRpc.ts';
import { NATIVE_TOKEN_ADDRESS } from '../../src/catalog/Catalog.ts';
import type { Quote } from '../../src/quote/Quote.ts';
import { type QuoteTxStatus, QuoteTxStatusReader } from '../../src/quote/quoteTxStatus.ts';
import { startBridgeDevnets } from '../helpers/bridgeDevnets.ts';
import { freshAddress } from '../helpers/devnetWallet.ts';
import type { Answer } from '../helpers/testApp.ts';

const net = await startBridgeDevnets((fn) => t.teardown(fn), {
  env: (a, b) => ({ [`RPC_URL_${a.chainId}`]: a.rpcUrl, [`RPC_URL_${b.chainId}`]: b.rpcUrl }),
  keyOrg: 'org-bridge-status',
});
const { A, B, app, key } = net;
const auth = { authorization: `Bearer ${key}` };
const TOKENS = {
  ETH: NATIVE_TOKEN_ADDRESS,
  USDC: A.devnet.addresses.tokens.USDC,
  WBTC: A.devnet.addresses.tokens.WBTC,
  DAI: A.devnet.addresses.tokens.DAI,
} as const;

async function createQuote(
  tokenIn: keyof typeof TOKENS,
  tokenOut: keyof typeof TOKENS,
  amount: string,
  wallet: Address,
  recipient: Address,
  extra: Record<string, unknown> = { walletAddress: wallet },
) {
  const res = await app.request<Answer<Quote>>('POST', '/quotes', {
    body: {
      originChainId: 31337,
      destinationChainId: 31338,
      tokenIn: TOKENS[tokenIn],
      tokenOut: TOKENS[tokenOut],
      amount,
      recipientAddress: recipient,
      ...extra,
    },
    headers: auth,
  });
  if (res.status !== 200) throw new Error(res.text);
  const quote = res.body.data;
  if (tokenIn !== 'ETH') await fundAccount(A.devnet.rpcUrl, wallet, TOKENS[tokenIn] as Address, BigInt(quote.amountIn));
  return quote;
}

async function statusOf(quote: Quote, hash: string) {
  return app.request<Answer<QuoteTxStatus>>('GET', `/quotes/${quote.quoteId}/status?txHash=${hash}`, { headers: auth });
}

/** The answer's fields every status of `quote` shares. */
/** The ETH deposit's hash (third case): another quote's deposit. */
let otherDeposit: Hex | undefined;

const quoted = (quote: Quote, txHash: string) => ({
  quoteId: quote.quoteId,
  txHash: txHash.toLowerCase(),
  amountOut: quote.amountOut,
  amountOutMinimum: quote.amountOutMinimum,
});

t.test('USDC to USDC: the deposit pending, then mined with the fill pending, then filled', async (t) => {
  const wallet = privateKeyToAccount(A.devnet.accounts[3].privateKey);
  const recipient = freshAddress('bridge-status:usdc');
  const quote = await createQuote('USDC', 'USDC', '2500.5', wallet.address, recipient);
  t.strictSame(
    quote.steps.map((s) => s.chainId),
    [31337, 31337],
    'approve, deposit',
  );
  await A.sendStep(wallet, quote.steps[0]);

  await jsonRpc(A.devnet.rpcUrl, 'evm_setAutomine', [false]);
  const deposit = quote.steps[1];
  const hash: Hex = await A.wallet.sendTransaction({
    account: wallet,
    chain: A.chain,
    to: deposit.to as Address,
    data: deposit.data as Hex,
    gas: BigInt(deposit.gasLimit!),
  });
  const none = { blockNumber: null, gasUsed: null, amountReceived: null, realizedSlippageBps: null };
  t.strictSame((await statusOf(quote, hash)).body.data, { ...quoted(quote, hash), status: 'pending', step: 1, ...none, bridge: null });
  await jsonRpc(A.devnet.rpcUrl, 'evm_mine');
  await jsonRpc(A.devnet.rpcUrl, 'evm_setAutomine', [true]);
  const receipt = await A.client.waitForTransactionReceipt({ hash });
  t.equal(receipt.status, 'success');
  const event = net.depositEvent(receipt)!;
  const depositId = (event.args.depositId as bigint).toString();
  const mined = {
    ...quoted(quote, hash),
    status: 'success',
    step: 1,
    blockNumber: Number(receipt.blockNumber),
    gasUsed: receipt.gasUsed.toString(),
  };
  t.strictSame((await statusOf(quote, hash)).body.data, {
    ...mined,
    amountReceived: null,
    realizedSlippageBps: null,
    bridge: { depositId, fill: { status: 'pending', txHash: null, blockNumber: null, outputAmount: null }, destinationSwap: null },
  });

  const before = await B.balanceOf(TOKENS.USDC, recipient);
  const fill = await net.fill(event);
  const delivered = (await B.balanceOf(TOKENS.USDC, recipient)) - before;
  t.equal(delivered, BigInt(quote.amountOut), 'the fill paid exactly amountOut');
  t.strictSame((await statusOf(quote, hash)).body.data, {
    ...mined,
    amountReceived: delivered.toString(),
    realizedSlippageBps: 0,
    bridge: {
      depositId,
      fill: {
        status: 'filled',
        txHash: fill.transactionHash,
        blockNumber: Number(fill.blockNumber),
        outputAmount: String(event.args.outputAmount),
      },
      destinationSwap: null,
    },
  });

  // The approval: an origin step like any other (no bridge part).
  const approveHash = (await A.client.getBlock({ blockNumber: receipt.blockNumber - 1n, includeTransactions: true })).transactions[0].hash;
  const approval = (await statusOf(quote, approveHash)).body.data;
  t.strictSame([approval.status, approval.step, approval.bridge], ['success', 0, null], 'the approval step');

  // Refusals: the fill is the relayer's transaction, not a step of the quote; a malformed hash.
  const refusal = async (h: string) => {
    const res = await statusOf(quote, h);
    return { status: res.status, body: res.body };
  };
  t.strictSame(await refusal(fill.transactionHash), {
    status: 400,
    body: { code: 400, message: `transaction ${fill.transactionHash} is not a step of quote ${quote.quoteId}` },
  });
  t.strictSame(await refusal(`${hash}00`), {
    status: 400,
    body: { code: 400, message: 'txHash: must be a transaction hash (0x followed by 64 hex digits)' },
  });

  // Each leg needs its chain's RPC URL: without chain B's, the deposit's status is refused.
  const originOnly = new QuoteTxStatusReader({ catalog: net.catalog, rpcUrls: new Map([[31337, A.devnet.rpcUrl]]) });
  await t.rejects(originOnly.status(quote, hash), { status: 400, message: 'status needs an RPC URL for chain 31338 (RPC_URL_31338)' });
});

t.test('USDC to WBTC: filled to the wallet, then the destination swap pays the recipient', async (t) => {
  // The destination swap moves chain B's pools: both chains go back to the seeded state the app prices on.
  const snapshots = await Promise.all([A, B].map((c) => jsonRpc<Hex>(c.devnet.rpcUrl, 'evm_snapshot')));
  t.teardown(async () => {
    await Promise.all([A, B].map((c, i) => jsonRpc(c.devnet.rpcUrl, 'evm_revert', [snapshots[i]])));
  });
  const wallet = privateKeyToAccount(A.devnet.accounts[4].privateKey);
  const recipient = freshAddress('bridge-status:wbtc');
  const quote = await createQuote('USDC', 'WBTC', '15000', wallet.address, recipient);
  const firstB = quote.steps.findIndex((s) => s.chainId === 31338);
  t.ok(firstB > 0, 'steps on both chains');
  const receipts = await A.sendSteps(wallet, quote.steps.slice(0, firstB));
  const deposit = receipts.at(-1)!;
  const event = net.depositEvent(deposit)!;
  const fill = await net.fill(event);
  const mined = {
    ...quoted(quote, deposit.transactionHash),
    status: 'success',
    step: firstB - 1,
    blockNumber: Number(deposit.blockNumber),
    gasUsed: deposit.gasUsed.toString(),
  };
  const filled = {
    depositId: String(event.args.depositId),
    fill: {
      status: 'filled',
      txHash: fill.transactionHash,
      blockNumber: Number(fill.blockNumber),
      outputAmount: String(event.args.outputAmount),
    },
  };
  t.strictSame((await statusOf(quote, deposit.transactionHash)).body.data, {
    ...mined,
    amountReceived: null,
    realizedSlippageBps: null,
    bridge: { ...filled, destinationSwap: { status: 'not_found', txHash: null, blockNumber: null } },
  });

  const walletB = privateKeyToAccount(B.devnet.accounts[4].privateKey);
  const before = await B.balanceOf(TOKENS.WBTC, recipient);
  const swap = (await B.sendSteps(walletB, quote.steps.slice(firstB))).at(-1)!;
  const delivered = (await B.balanceOf(TOKENS.WBTC, recipient)) - before;
  t.equal(delivered, BigInt(quote.amountOut), 'the state had not moved: exactly amountOut');
  t.strictSame((await statusOf(quote, deposit.transactionHash)).body.data, {
    ...mined,
    amountReceived: delivered.toString(),
    realizedSlippageBps: 0,
    bridge: { ...filled, destinationSwap: { status: 'success', txHash: swap.transactionHash, blockNumber: Number(swap.blockNumber) } },
  });
  t.strictSame((await statusOf(quote, swap.transactionHash)).body.data, {
    ...quoted(quote, swap.transactionHash),
    status: 'success',
    step: quote.steps.length - 1,
    blockNumber: Number(swap.blockNumber),
    gasUsed: swap.gasUsed.toString(),
    amountReceived: delivered.toString(),
    realizedSlippageBps: 0,
    bridge: null,
  });
});

t.test('ETH to ETH: the fill pays native ether, read from the unwrap', async (t) => {
  const wallet = privateKeyToAccount(A.devnet.accounts[5].privateKey);
  const recipient = freshAddress('bridge-status:eth');
  const quote = await createQuote('ETH', 'ETH', '3.25', wallet.address, recipient);
  const deposit = (await A.sendSteps(wallet, quote.steps)).at(-1)!;
  otherDeposit = deposit.transactionHash;
  const before = await B.balanceOf(NATIVE_TOKEN_ADDRESS, recipient);
  await net.fill(net.depositEvent(deposit)!);
  const delivered = (await B.balanceOf(NATIVE_TOKEN_ADDRESS, recipient)) - before;
  t.equal(delivered, BigInt(quote.amountOut));
  const status = (await statusOf(quote, deposit.transactionHash)).body.data;
  t.strictSame(
    [status.status, status.bridge?.fill?.status, status.amountReceived, status.realizedSlippageBps],
    ['success', 'filled', delivered.toString(), 0],
  );
});

t.test('sender: the approvals already given on either chain are left out, and the steps still execute', async (t) => {
  const wallet = privateKeyToAccount(A.devnet.accounts[7].privateKey);
  const recipient = freshAddress('bridge-status:sender');
  const approvals = (q: Quote) => q.steps.filter((s) => s.spender).map((s) => [s.chainId, s.to, s.spender]);
  const first = await createQuote('DAI', 'WBTC', '20000', wallet.address, recipient, { sender: wallet.address });
  const given = approvals(first);
  t.equal(given.length, 3, 'DAI for the origin router, USDC for the SpokePool, USDC for the destination router');
  t.strictSame(first.warnings, [], 'both chains read');

  // The wallet approves chain B's router itself: the next quote approves on chain A only.
  const [, , [, tokenB, routerB]] = given as [number, Address, Address][];
  const approveData = (spender: Address) => encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, maxUint256] });
  const walletB = privateKeyToAccount(B.devnet.accounts[7].privateKey);
  t.equal((await B.send(walletB, { to: tokenB, data: approveData(routerB) })).status, 'success');
  const second = await createQuote('DAI', 'WBTC', '20000', wallet.address, recipient, { sender: wallet.address });
  t.strictSame(approvals(second), given.slice(0, 2), 'the destination approval is left out');

  // Then chain A's two: no approval at all, and the steps execute as they are.
  for (const [, token, spender] of given.slice(0, 2) as [number, Address, Address][])
    t.equal((await A.send(wallet, { to: token, data: approveData(spender) })).status, 'success');
  const quote = await createQuote('DAI', 'WBTC', '20000', wallet.address, recipient, { sender: wallet.address });
  t.strictSame(approvals(quote), [], 'no approval step');
  const firstB = quote.steps.findIndex((s) => s.chainId === 31338);
  const deposit = (await A.sendSteps(wallet, quote.steps.slice(0, firstB))).at(-1)!;
  await net.fill(net.depositEvent(deposit)!);
  const before = await B.balanceOf(TOKENS.WBTC, recipient);
  await B.sendSteps(walletB, quote.steps.slice(firstB));
  t.equal((await B.balanceOf(TOKENS.WBTC, recipient)) - before, BigInt(quote.amountOut), 'the recipient got amountOut');
});

// Last: it moves chain B's clock past the fill deadline (3 h).
t.test('a deposit nobody fills: expired once chain B passes its fill deadline', async (t) => {
  const wallet = privateKeyToAccount(A.devnet.accounts[6].privateKey);
  const quote = await createQuote('USDC', 'USDC', '100', wallet.address, freshAddress('bridge-status:expired'));
  const deposit = (await A.sendSteps(wallet, quote.steps)).at(-1)!;
  const event = net.depositEvent(deposit)!;
  const pending = (await statusOf(quote, deposit.transactionHash)).body.data;
  t.equal(pending.bridge?.fill?.status, 'pending');
  const foreign = await statusOf(quote, otherDeposit!);
  t.strictSame(
    [foreign.status, foreign.body],
    [400, { code: 400, message: `transaction ${otherDeposit} is not a step of quote ${quote.quoteId}` }],
    "another quote's deposit",
  );
  const head = await B.client.getBlock();
  await jsonRpc(B.devnet.rpcUrl, 'evm_mine', [Number(event.args.fillDeadline) + 1]);
  t.ok((await B.client.getBlock()).timestamp > head.timestamp, 'chain B moved past the fill deadline');
  const expired = (await statusOf(quote, deposit.transactionHash)).body.data;
  t.strictSame(expired.bridge, {
    depositId: String(event.args.depositId),
    fill: { status: 'expired', txHash: null, blockNumber: null, outputAmount: null },
    destinationSwap: null,
  });
});
