// Trades executed through the Universal Router on the devnet with Uniswap v4 (seeds/devnet/deployUniswapV4.ts: the
// published UniversalRouter 2.1.0 built with the devnet's v2 and v3 factories, Permit2 at its canonical address).
// Each case starts from the seeded state (evm_revert), asks bestTrade for the trade (the pools it may use steer it to
// the shape named, which is checked), builds the steps with amountOutMinimum = amountOut and sends each exactly as
// returned, with its own gasLimit, from a funded account: approve(Permit2), Permit2.approve(router), the swap (or, in
// approvalMode "permit2", approve(Permit2) and the swap carrying a PermitSingle the wallet signed with
// signTypedData). The recipient must receive exactly amountOut, the wallet spend exactly amountIn (native input:
// exactly amountIn plus gas), and the UniversalRouter hold nothing of any token involved, nor any ether. Each case
// then runs again, priced on the new state, from another account on the pools the first run traded. A price moved
// by another account first makes the swap revert with nothing delivered. The gas used is printed beside the trade's
// gasEstimate with each leg's ticks crossed and slots written from zero (calibration of GAS.call.UniversalRouter and
// the v4 figures) and held to the model (test/helpers/universalRouterGas.ts UR_GAS_TOLERANCE: the swap step within
// ±4% on never-traded pools, ±10% on traded ones; the trade within ±10%, ±5% in approvalMode "permit2", and the sum of
// its steps' estimates); RECORD_GAS_FIXTURE=1 records the receipts
// with the route shapes into test/fixtures/gas/devnetUniversalRouterGasUsed.json (test/routing/gasModel.test.ts).
// The devnet, the trade, the steps, the runs and the amount and gas checks are shared with
// universalRouterNative.devnet.test.ts (test/helpers/universalRouterDevnet.ts); the approval checks are this file's.
import t from 'tap';
import type { Address } from 'viem';
import { fundAccount } from '../../seeds/devnet/fundAccount.ts';
import { freshAddress } from '../helpers/devnetWallet.ts';
import { type RouterCase, startUniversalRouterDevnet } from '../helpers/universalRouterDevnet.ts';

const {
  devnet,
  chain,
  wallet,
  router: ROUTER,
  sender,
  mover,
  token,
  tradeFor,
  stepsFor,
  send,
  freshState,
  testCases,
  testGas,
} = await startUniversalRouterDevnet(t, {
  prefix: 'sqs-ur-',
  recipients: 'ur',
  fixture: 'universalRouter',
  test: 'test/tx/universalRouter.devnet.test.ts',
});

const CASES: readonly RouterCase[] = [
  {
    name: 'v4 one pool without fee (DAI/USDC, tick spacing 1)',
    tokenIn: 'DAI',
    tokenOut: 'USDC',
    amount: '100000',
    maxHops: 1,
    pools: ['uniswap/v4 DAI/USDC 0'],
    shape: ['UniversalRouter: DAI -uniswap/v4 0-> USDC'],
  },
  {
    name: 'v4 two pools USDT -> USDC -> WETH',
    tokenIn: 'USDT',
    tokenOut: 'WETH',
    amount: '10000',
    pools: ['uniswap/v4 USDC/USDT 100', 'uniswap/v4 USDC/WETH 3000'],
    shape: ['UniversalRouter: USDT -uniswap/v4 100-> USDC -uniswap/v4 3000-> WETH'],
  },
  {
    name: 'v4 one pool (tick spacing 1), exact in',
    tokenIn: 'USDC',
    tokenOut: 'USDT',
    amount: '250000',
    maxHops: 1,
    pools: ['uniswap/v4 USDC/USDT 100'],
    shape: ['UniversalRouter: USDC -uniswap/v4 100-> USDT'],
  },
  {
    name: 'v4 one pool, exact out',
    tokenIn: 'USDC',
    tokenOut: 'USDT',
    tradeType: 'exactOut',
    amount: '250000',
    maxHops: 1,
    pools: ['uniswap/v4 USDC/USDT 100'],
    shape: ['UniversalRouter: USDC -uniswap/v4 100-> USDT'],
  },
  {
    name: 'v4 two pools, exact in',
    tokenIn: 'DAI',
    tokenOut: 'USDT',
    amount: '100000',
    pools: ['uniswap/v4 DAI/USDC 0', 'uniswap/v4 USDC/USDT 100'],
    shape: ['UniversalRouter: DAI -uniswap/v4 0-> USDC -uniswap/v4 100-> USDT'],
  },
  {
    name: 'v4 two pools, exact out',
    tokenIn: 'DAI',
    tokenOut: 'USDT',
    tradeType: 'exactOut',
    amount: '100000',
    pools: ['uniswap/v4 DAI/USDC 0', 'uniswap/v4 USDC/USDT 100'],
    shape: ['UniversalRouter: DAI -uniswap/v4 0-> USDC -uniswap/v4 100-> USDT'],
  },
  {
    name: 'native in, wrapped for the v4 WETH pool',
    tokenIn: 'ETH',
    tokenOut: 'USDC',
    amount: '20',
    maxHops: 1,
    pools: ['uniswap/v4 USDC/WETH 3000'],
    shape: ['UniversalRouter: WETH -uniswap/v4 3000-> USDC'],
  },
  {
    name: 'native out, unwrapped from the v4 WETH pool',
    tokenIn: 'USDC',
    tokenOut: 'ETH',
    amount: '40000',
    maxHops: 1,
    pools: ['uniswap/v4 USDC/WETH 3000'],
    shape: ['UniversalRouter: USDC -uniswap/v4 3000-> WETH'],
  },
  {
    name: 'mixed v3 -> v4',
    tokenIn: 'LINK',
    tokenOut: 'USDC',
    amount: '3000',
    pools: ['uniswap/v3 LINK/WETH 3000', 'uniswap/v4 USDC/WETH 3000'],
    shape: ['UniversalRouter: LINK -uniswap/v3 3000-> WETH -uniswap/v4 3000-> USDC'],
  },
  {
    name: 'mixed v4 -> v2',
    tokenIn: 'USDT',
    tokenOut: 'WETH',
    amount: '30000',
    pools: ['uniswap/v4 USDC/USDT 100', 'uniswap/v2 USDC/WETH'],
    shape: ['UniversalRouter: USDT -uniswap/v4 100-> USDC -uniswap/v2-> WETH'],
  },
  {
    name: 'split across v3 and v4',
    tokenIn: 'USDC',
    tokenOut: 'WETH',
    amount: '2000000',
    maxHops: 1,
    maxSplits: 2,
    pools: ['uniswap/v3 USDC/WETH 500', 'uniswap/v4 USDC/WETH 3000'],
    shape: ['UniversalRouter: USDC -uniswap/v3 500-> WETH', 'UniversalRouter: USDC -uniswap/v4 3000-> WETH'],
  },
  {
    name: 'v4 one pool, approvalMode permit2 (signed PermitSingle)',
    tokenIn: 'USDC',
    tokenOut: 'USDT',
    amount: '250000',
    maxHops: 1,
    pools: ['uniswap/v4 USDC/USDT 100'],
    shape: ['UniversalRouter: USDC -uniswap/v4 100-> USDT'],
    approvalMode: 'permit2',
  },
  {
    name: 'v4 two pools, exact out, approvalMode permit2',
    tokenIn: 'DAI',
    tokenOut: 'USDT',
    tradeType: 'exactOut',
    amount: '100000',
    pools: ['uniswap/v4 DAI/USDC 0', 'uniswap/v4 USDC/USDT 100'],
    shape: ['UniversalRouter: DAI -uniswap/v4 0-> USDC -uniswap/v4 100-> USDT'],
    approvalMode: 'permit2',
  },
  {
    name: 'mixed v3 -> v4, approvalMode permit2',
    tokenIn: 'LINK',
    tokenOut: 'USDC',
    amount: '3000',
    pools: ['uniswap/v3 LINK/WETH 3000', 'uniswap/v4 USDC/WETH 3000'],
    shape: ['UniversalRouter: LINK -uniswap/v3 3000-> WETH -uniswap/v4 3000-> USDC'],
    approvalMode: 'permit2',
  },
];

/** Balances the UniversalRouter must not keep: every token of the chain and ether. */
async function routerHoldings(): Promise<Record<string, bigint>> {
  const out: Record<string, bigint> = {};
  for (const x of chain.tokens) {
    const b = await wallet.balanceOf(x.address, ROUTER);
    if (b !== 0n) out[x.symbol] = b;
  }
  return out;
}

// Beside the shape and the amounts: the approvals, then nothing left in the router.
testCases(t, CASES, async (t, { case: c, trade, nativeIn, steps }) => {
  const approvals = steps.filter((s) => s.to !== ROUTER).map((s) => s.message);
  if (!nativeIn) {
    const permitSteps = c.approvalMode === 'permit2' ? [] : [`Allow ${trade.splits[0].route.executor.name} to spend`];
    t.strictSame(
      approvals.map((m) => m.replace(/ \d[\d.]* .*$/, '')),
      [`Approve`, ...permitSteps].map((m) => m.replace(/ \d[\d.]* .*$/, '')),
      'approvals: the token to Permit2, then (approve mode) Permit2 to the router',
    );
  }
  return async () => {
    t.strictSame(await routerHoldings(), {}, 'nothing is left in the UniversalRouter');
    t.equal(await wallet.client.getBalance({ address: ROUTER }), 0n, 'no ether is left in the UniversalRouter');
  };
});

t.test('a price moved by another account first: the swap reverts, nothing is delivered', async (t) => {
  await freshState();
  const c = CASES.find((x) => x.name === 'v4 one pool (tick spacing 1), exact in')!;
  const trade = tradeFor(c);
  const recipient = freshAddress('ur moved');
  await fundAccount(devnet.rpcUrl, sender.address, token('USDC').address as Address, trade.amountIn);
  const steps = await stepsFor(c, trade, sender, recipient);
  // The other account swaps the same way first, through the same router.
  const moverSteps = await stepsFor(c, trade, mover, freshAddress('ur mover'));
  await fundAccount(devnet.rpcUrl, mover.address, token('USDC').address as Address, trade.amountIn);
  await send(moverSteps, mover);
  const before = await wallet.balanceOf(token('USDC').address, sender.address);
  const approvals = await send(steps.slice(0, -1), sender);
  t.ok(approvals.length > 0);
  const swap = steps[steps.length - 1];
  const receipt = await wallet.sendStep(sender, swap, BigInt(swap.gasLimit!));
  t.equal(receipt.status, 'reverted', 'the swap reverts below its minimum');
  t.equal(await wallet.balanceOf(token('USDT').address, recipient), 0n, 'nothing delivered');
  t.equal(await wallet.balanceOf(token('USDC').address, sender.address), before, 'nothing spent');
});

testGas(t, CASES);
