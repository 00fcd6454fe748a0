// buildSwapSteps / buildWrapSteps / approveStep executed on a real chain: anvil with the real Uniswap contracts
// (seeds/devnet). The expected output of every swap comes from the chain's own oracles, QuoterV2.quoteExactInputSingle
// and UniswapV2Router02.getAmountsOut, taken just before the steps are sent; the recipient must receive exactly that.
// Both v3 router kinds run on one devnet: catalog/devnet.json names SwapRouter02, catalog/devnet-b.json the plain
// SwapRouter at the same deterministic addresses.
import t from 'tap';
import { type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { fundAccount } from '../../seeds/devnet/fundAccount.ts';
import { startDevnet } from '../../seeds/devnet/startDevnet.ts';
import { loadCatalog, NATIVE_TOKEN_ADDRESS, type CatalogChain, type CatalogDex, type CatalogToken } from '../../src/catalog/loadCatalog.ts';
import { buildSwapSteps } from '../../src/tx/buildSwapSteps.ts';
import { buildWrapSteps } from '../../src/tx/buildWrapSteps.ts';
import { artifactAbi, devnetWallet, freshAddress as addressFor, gasPaid } from '../helpers/devnetWallet.ts';

const QUOTER_V2_ABI = artifactAbi('@uniswap/v3-periphery/artifacts/contracts/lens/QuoterV2.sol/QuoterV2.json');
const V2_ROUTER_ABI = artifactAbi('@uniswap/v2-periphery/build/UniswapV2Router02.json');

const devnet = await startDevnet();
t.teardown(() => devnet.stop());

const catalog = loadCatalog();
const chainA = catalog.chain('devnet') as CatalogChain; // SwapRouter02
const chainB = catalog.chain('devnet-b') as CatalogChain; // SwapRouter
const dexOf = (chain: CatalogChain, version: 'v2' | 'v3'): CatalogDex => chain.dexes.find((d) => d.slug === 'uniswap' && d.version === version) as CatalogDex;
const V2 = dexOf(chainA, 'v2');
const SR02 = dexOf(chainA, 'v3');
const SR = dexOf(chainB, 'v3');
const token = (symbol: string): CatalogToken => chainA.tokens.find((x) => x.symbol === symbol) as CatalogToken;
const WETH = chainA.wrappedNativeToken as Address;

const { client, balanceOf, sendStep, sendSteps } = devnetWallet(devnet);
const sender = privateKeyToAccount(devnet.accounts[1]!.privateKey);
const mover = privateKeyToAccount(devnet.accounts[2]!.privateKey);

/** A fresh address with no balance of anything, one per label. */
const freshAddress = (label: string): Address => addressFor(`tx-devnet:${label}`);

async function deadline(): Promise<number> {
  const block = await client.getBlock();
  return Number(block.timestamp) + 300;
}

const poolSide = (address: string): Address => (address === NATIVE_TOKEN_ADDRESS ? WETH : (address as Address));

/** The chain's own quote for this exact-input swap: QuoterV2 (v3) or Router02.getAmountsOut (v2). */
async function chainQuote(dex: CatalogDex, fee: number, tokenIn: CatalogToken, tokenOut: CatalogToken, amountIn: bigint): Promise<bigint> {
  if (dex.version === 'v2') {
    const amounts = (await client.readContract({
      address: dex.v2RouterAddress as Address,
      abi: V2_ROUTER_ABI,
      functionName: 'getAmountsOut',
      args: [amountIn, [poolSide(tokenIn.address), poolSide(tokenOut.address)]],
    })) as readonly bigint[];
    return amounts[amounts.length - 1]!;
  }
  const { result } = await client.simulateContract({
    address: dex.v3QuoterAddress as Address,
    abi: QUOTER_V2_ABI,
    functionName: 'quoteExactInputSingle',
    args: [{ tokenIn: poolSide(tokenIn.address), tokenOut: poolSide(tokenOut.address), amountIn, fee, sqrtPriceLimitX96: 0n }],
  });
  return (result as readonly bigint[])[0]!;
}

/** Gives the sender `amount` of an ERC-20 (native: the anvil account already holds 10,000 ETH). */
async function fund(account: Address, tokenIn: CatalogToken, amount: bigint): Promise<void> {
  if (tokenIn.address !== NATIVE_TOKEN_ADDRESS) await fundAccount(devnet.rpcUrl, account, tokenIn.address as Address, amount);
}

t.test('the devnet catalogue files name the contracts deployed on this devnet', async (t) => {
  const c = devnet.addresses.contracts;
  t.equal(V2.v2RouterAddress, c.uniswapV2Router02);
  t.strictSame([SR02.v3RouterAddress, SR02.v3RouterKind], [c.swapRouter02, 'SwapRouter02']);
  t.strictSame([SR.v3RouterAddress, SR.v3RouterKind], [c.swapRouter, 'SwapRouter']);
  t.equal(SR02.v3QuoterAddress, c.quoterV2);
  t.equal(WETH, devnet.addresses.tokens.WETH);
  t.equal(chainB.wrappedNativeToken, WETH);
});

interface SwapCase {
  readonly dex: CatalogDex;
  readonly fee: number;
  readonly tokenIn: string;
  readonly tokenOut: string;
  readonly amountIn: bigint;
}

const label = (c: SwapCase): string =>
  `${c.dex.version === 'v2' ? 'v2 Router02' : c.dex.v3RouterKind}${c.dex.version === 'v3' ? ` fee ${c.fee}` : ''}: ${c.tokenIn} -> ${c.tokenOut}`;

const SWAPS: readonly SwapCase[] = [
  { dex: V2, fee: 3000, tokenIn: 'USDC', tokenOut: 'WBTC', amountIn: 25_000_000_000n }, // 25,000 USDC, 6 -> 8 decimals
  { dex: V2, fee: 3000, tokenIn: 'ETH', tokenOut: 'USDC', amountIn: 2_500_000_000_000_000_000n },
  { dex: V2, fee: 3000, tokenIn: 'DAI', tokenOut: 'ETH', amountIn: 10_000_000_000_000_000_000_000n },
  { dex: SR02, fee: 500, tokenIn: 'USDC', tokenOut: 'WBTC', amountIn: 150_000_000_000n },
  { dex: SR02, fee: 500, tokenIn: 'ETH', tokenOut: 'USDC', amountIn: 40_000_000_000_000_000_000n },
  { dex: SR02, fee: 3000, tokenIn: 'USDT', tokenOut: 'ETH', amountIn: 50_000_000_000n },
  { dex: SR, fee: 10000, tokenIn: 'WBTC', tokenOut: 'USDC', amountIn: 30_000_000n }, // 0.3 WBTC, 8 -> 6 decimals
  { dex: SR, fee: 3000, tokenIn: 'ETH', tokenOut: 'USDT', amountIn: 5_000_000_000_000_000_000n },
  { dex: SR, fee: 3000, tokenIn: 'USDC', tokenOut: 'ETH', amountIn: 20_000_000_000n },
  { dex: SR, fee: 100, tokenIn: 'DAI', tokenOut: 'USDC', amountIn: 75_000_000_000_000_000_000_000n }, // 18 -> 6 decimals
];

for (const c of SWAPS) {
  t.test(`buildSwapSteps on chain, ${label(c)}: the recipient receives exactly the chain's quote`, async (t) => {
    const tokenIn = token(c.tokenIn);
    const tokenOut = token(c.tokenOut);
    const recipient = freshAddress(label(c));
    await fund(sender.address, tokenIn, c.amountIn);
    const quoted = await chainQuote(c.dex, c.fee, tokenIn, tokenOut, c.amountIn);
    t.ok(quoted > 0n, `quoted ${quoted}`);
    const steps = buildSwapSteps({
      chainId: devnet.chainId,
      dex: c.dex,
      poolFee: c.fee,
      tokenIn,
      tokenOut,
      wrappedNativeToken: WETH,
      amountIn: c.amountIn,
      amountOutMinimum: quoted,
      recipient,
      wallet: sender.address,
      deadline: await deadline(),
    });
    t.equal(steps.length, tokenIn.address === NATIVE_TOKEN_ADDRESS ? 1 : 2);
    const recipientBefore = await balanceOf(tokenOut.address, recipient);
    const senderInBefore = await balanceOf(tokenIn.address, sender.address);
    const receipts = await sendSteps(sender, steps);
    t.equal((await balanceOf(tokenOut.address, recipient)) - recipientBefore, quoted, 'recipient received exactly the quoted amount');
    const spent = senderInBefore - (await balanceOf(tokenIn.address, sender.address));
    const expectedSpent = c.amountIn + (tokenIn.address === NATIVE_TOKEN_ADDRESS ? gasPaid(receipts) : 0n);
    t.equal(spent, expectedSpent, 'sender spent exactly amountIn (plus gas when it is ether)');
    t.equal(await balanceOf(NATIVE_TOKEN_ADDRESS, c.dex.version === 'v2' ? (c.dex.v2RouterAddress as Address) : (c.dex.v3RouterAddress as Address)), 0n, 'no ether left in the router');
    t.equal(await balanceOf(WETH, (c.dex.version === 'v2' ? c.dex.v2RouterAddress : c.dex.v3RouterAddress) as Address), 0n, 'no WETH left in the router');
  });
}

t.test('buildWrapSteps on chain: wrap and unwrap, 1:1, to another recipient and to the wallet itself', async (t) => {
  const ETH = token('ETH');
  const WETH_TOKEN = token('WETH');
  const params = { chainId: devnet.chainId, wrappedNativeToken: WETH, wallet: sender.address };

  const wrapTo = freshAddress('wrap');
  const wrap = buildWrapSteps({ ...params, tokenIn: ETH, tokenOut: WETH_TOKEN, amount: 3_000_000_000_000_000_123n, recipient: wrapTo });
  t.equal(wrap.length, 2);
  await sendSteps(sender, wrap);
  t.equal(await balanceOf(WETH, wrapTo), 3_000_000_000_000_000_123n, 'recipient holds exactly the wrapped amount');

  const unwrapTo = freshAddress('unwrap');
  await fund(sender.address, WETH_TOKEN, 2_000_000_000_000_000_000n);
  const unwrap = buildWrapSteps({ ...params, tokenIn: WETH_TOKEN, tokenOut: ETH, amount: 2_000_000_000_000_000_000n, recipient: unwrapTo });
  t.equal(unwrap.length, 2);
  await sendSteps(sender, unwrap);
  t.equal(await balanceOf(NATIVE_TOKEN_ADDRESS, unwrapTo), 2_000_000_000_000_000_000n, 'recipient received exactly the unwrapped ether');

  await fund(sender.address, WETH_TOKEN, 777n);
  const ethBefore = await balanceOf(NATIVE_TOKEN_ADDRESS, sender.address);
  const wethBefore = await balanceOf(WETH, sender.address);
  const own = buildWrapSteps({ ...params, tokenIn: WETH_TOKEN, tokenOut: ETH, amount: 777n, recipient: sender.address });
  t.equal(own.length, 1);
  const receipts = await sendSteps(sender, own);
  t.equal((await balanceOf(NATIVE_TOKEN_ADDRESS, sender.address)) - ethBefore, 777n - gasPaid(receipts), 'unwrap to self: +amount, less gas');
  t.equal(wethBefore - (await balanceOf(WETH, sender.address)), 777n);
});

/** Same steps, but the price moved against them first: the swap must revert on chain and pay nothing. */
const MOVED: readonly SwapCase[] = [
  { dex: V2, fee: 3000, tokenIn: 'USDC', tokenOut: 'ETH', amountIn: 3_000_000_000n },
  { dex: SR02, fee: 500, tokenIn: 'USDC', tokenOut: 'WBTC', amountIn: 6_000_000_000n },
  { dex: SR02, fee: 500, tokenIn: 'USDC', tokenOut: 'ETH', amountIn: 6_000_000_000n },
  { dex: SR, fee: 3000, tokenIn: 'ETH', tokenOut: 'USDC', amountIn: 1_000_000_000_000_000_000n },
  { dex: SR, fee: 3000, tokenIn: 'USDC', tokenOut: 'ETH', amountIn: 3_000_000_000n },
];

for (const c of MOVED) {
  t.test(`buildSwapSteps on chain, ${label(c)}: reverts when the price moved below amountOutMinimum`, async (t) => {
    const tokenIn = token(c.tokenIn);
    const tokenOut = token(c.tokenOut);
    const recipient = freshAddress(`moved ${label(c)}`);
    await fund(sender.address, tokenIn, c.amountIn);
    const quoted = await chainQuote(c.dex, c.fee, tokenIn, tokenOut, c.amountIn);
    const base = { chainId: devnet.chainId, dex: c.dex, poolFee: c.fee, tokenIn, tokenOut, wrappedNativeToken: WETH, amountIn: c.amountIn };
    const steps = buildSwapSteps({ ...base, amountOutMinimum: quoted, recipient, wallet: sender.address, deadline: await deadline() });

    // Another trader swaps the same way first (10x the amount), which lowers what the quoted trade gets.
    await fund(mover.address, tokenIn, c.amountIn * 10n);
    await sendSteps(mover, buildSwapSteps({ ...base, amountIn: c.amountIn * 10n, amountOutMinimum: 0n, recipient: mover.address, wallet: mover.address, deadline: await deadline() }));
    const requoted = await chainQuote(c.dex, c.fee, tokenIn, tokenOut, c.amountIn);
    t.ok(requoted < quoted, `the price moved: ${requoted} < ${quoted}`);

    const swap = steps[steps.length - 1]!;
    if (steps.length === 2) t.equal((await sendStep(sender, steps[0]!)).status, 'success', 'the approval still goes through');
    const reason = c.dex.version === 'v2' ? 'UniswapV2Router: INSUFFICIENT_OUTPUT_AMOUNT' : 'Too little received';
    const value = swap.value === undefined ? undefined : BigInt(swap.value);
    await t.rejects(client.estimateGas({ account: sender, to: swap.to, data: swap.data, value }), { message: new RegExp(reason) }, `simulation reverts: ${reason}`);
    const before = await balanceOf(tokenOut.address, recipient);
    const receipt = await sendStep(sender, swap, 1_000_000n);
    t.equal(receipt.status, 'reverted', 'the mined swap transaction reverted');
    t.equal(await balanceOf(tokenOut.address, recipient), before, 'the recipient got nothing');
  });
}

t.test('buildSwapSteps on chain: a passed deadline reverts on every router kind', async (t) => {
  const ETH = token('ETH');
  const USDC = token('USDC');
  const block = await client.getBlock();
  const expired = Number(block.timestamp) - 1;
  const cases: [CatalogDex, string][] = [
    [V2, 'UniswapV2Router: EXPIRED'],
    [SR02, 'Transaction too old'],
    [SR, 'Transaction too old'],
  ];
  for (const [dex, reason] of cases) {
    const [swap] = buildSwapSteps({
      chainId: devnet.chainId, dex, poolFee: 500, tokenIn: ETH, tokenOut: USDC, wrappedNativeToken: WETH,
      amountIn: 10n ** 17n, amountOutMinimum: 0n, recipient: sender.address, wallet: sender.address, deadline: expired,
    });
    await t.rejects(
      client.estimateGas({ account: sender, to: swap!.to, data: swap!.data as Hex, value: BigInt(swap!.value!) }),
      { message: new RegExp(reason) },
      `${dex.version === 'v2' ? 'Router02' : dex.v3RouterKind}: ${reason}`,
    );
  }
});
