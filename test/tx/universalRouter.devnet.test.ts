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
// ±4% on never-traded pools, ±10% on traded ones; the trade within ±10%, ±5% in approvalMode "permit2", and the sum of its steps' estimates); RECORD_GAS_FIXTURE=1 records the receipts
// with the route shapes into test/fixtures/gas/devnetUniversalRouterGasUsed.json (test/routing/gasModel.test.ts).
import t, { type Test } from 'tap';
import { type Address, parseUnits, type TransactionReceipt } from 'viem';
import { type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import { fundAccount } from '../../seeds/devnet/fundAccount.ts';
import { jsonRpc } from '../../seeds/devnet/jsonRpc.ts';
import { type CatalogToken, NATIVE_TOKEN_ADDRESS } from '../../src/catalog/Catalog.ts';
import { PoolGraph } from '../../src/graph/PoolGraph.ts';
import { type ChainPoolIndex, type PoolEntry, PricingGraph } from '../../src/graph/PricingGraph.ts';
import type { Snapshot } from '../../src/graph/snapshot.ts';
import type { TradeType } from '../../src/protocols/PoolProtocol.ts';
import { bestTrade } from '../../src/routing/bestTrade.ts';
import { maximumAmountIn } from '../../src/routing/slippageLimits.ts';
import type { Trade } from '../../src/routing/Trade.ts';
import type { ApprovalMode } from '../../src/tx/buildTradeSteps.ts';
import type { Step } from '../../src/tx/Step.ts';
import { devnetWallet, freshAddress, gasPaid } from '../helpers/devnetWallet.ts';
import { startSeededDevnet } from '../helpers/followDevnet.ts';
import {
  nextBlockLater,
  UniversalRouterGasRecord,
  type UniversalRouterTradeParams,
  universalRouterSteps,
} from '../helpers/universalRouterGas.ts';

const { devnet, catalog, chain, seedNow } = await startSeededDevnet(t.teardown, 'sqs-ur-', { v4: true });
// The seeding run's snapshot itself, priced as the service prices it.
const pricing = (s: Snapshot): ChainPoolIndex => new PricingGraph(new PoolGraph([s], catalog), catalog).chain(chain.chainId)!;
const index = pricing(await seedNow());
const wallet = devnetWallet(devnet);
let baseline = await jsonRpc<string>(devnet.rpcUrl, 'evm_snapshot');
const ROUTER = chain.dexes.find((d) => d.version === 'v4')!.universalRouterAddress as Address;

async function freshState(): Promise<void> {
  if (!(await jsonRpc<boolean>(devnet.rpcUrl, 'evm_revert', [baseline]))) throw new Error('evm_revert failed');
  baseline = await jsonRpc<string>(devnet.rpcUrl, 'evm_snapshot');
}

const sender = privateKeyToAccount(devnet.accounts[1].privateKey);
const mover = privateKeyToAccount(devnet.accounts[2].privateKey);
const warmSender = privateKeyToAccount(devnet.accounts[3].privateKey);
const token = (symbol: string): CatalogToken => chain.tokens.find((x) => x.symbol === symbol)!;
const ZERO = '0x0000000000000000000000000000000000000000';
const symbolOf = (address: string): string =>
  address === ZERO ? 'ETH*' : chain.tokens.find((x) => x.address.toLowerCase() === address.toLowerCase())!.symbol;

/** A pool as `uniswap/v4 USDC/USDT 100` (v2 without a fee). */
function poolKey(e: PoolEntry): string {
  const pair = [symbolOf(e.token0), symbolOf(e.token1)].sort().join('/');
  return `${e.dex}/${e.version} ${pair}${e.version === 'v2' ? '' : ` ${e.state.fee}`}`;
}

/** The trade's routes as `executor: TOKEN -dex/version fee-> TOKEN …`. */
function shape(trade: Trade): string[] {
  return trade.splits.map(({ route }) => {
    const hops = route.legs.map((l) => ` -${l.dex}/${l.version}${l.version === 'v2' ? '' : ` ${l.fee}`}-> ${symbolOf(l.tokenOut)}`);
    return `${route.executor.kind}: ${symbolOf(route.legs[0].tokenIn)}${hops.join('')}`;
  });
}

interface Case {
  readonly name: string;
  readonly tokenIn: string;
  readonly tokenOut: string;
  readonly tradeType?: TradeType;
  readonly amount: string;
  readonly maxHops?: number;
  readonly maxSplits?: number;
  /** The pools the trade may use (poolKey). */
  readonly pools: readonly string[];
  readonly shape: readonly string[];
  readonly approvalMode?: ApprovalMode;
}

function tradeFor(c: Case, on: ChainPoolIndex = index): Trade {
  const tradeType = c.tradeType ?? 'exactIn';
  const fixed = token(tradeType === 'exactIn' ? c.tokenIn : c.tokenOut);
  const outcome = bestTrade(on, {
    tokenIn: token(c.tokenIn).address.toLowerCase(),
    tokenOut: token(c.tokenOut).address.toLowerCase(),
    tradeType,
    amount: parseUnits(c.amount, fixed.decimals),
    maxHops: c.maxHops ?? 2,
    maxSplits: c.maxSplits ?? 1,
    gasPriceWei: 0n,
    approvalMode: c.approvalMode,
    allow: (e) => c.pools.includes(poolKey(e)),
  });
  if (!outcome.ok) throw new Error(`no trade: ${outcome.code}`);
  return outcome.trade;
}

/** The steps of a case's trade for `account`, paying `recipient`, in the case's approval mode. */
function paramsFor(c: Case, trade: Trade, account: PrivateKeyAccount, recipient: Address): UniversalRouterTradeParams {
  return {
    chain,
    wallet,
    trade,
    tokenIn: token(c.tokenIn),
    tokenOut: token(c.tokenOut),
    account,
    recipient,
    ...(c.approvalMode ? { approvalMode: c.approvalMode } : {}),
  };
}

const stepsFor = (c: Case, trade: Trade, account: PrivateKeyAccount, recipient: Address): Promise<Step[]> =>
  universalRouterSteps(paramsFor(c, trade, account, recipient));

async function send(steps: readonly Step[], account: PrivateKeyAccount): Promise<TransactionReceipt[]> {
  const receipts: TransactionReceipt[] = [];
  for (const step of steps) {
    const receipt = await wallet.sendStep(account, step, BigInt(step.gasLimit!));
    if (receipt.status !== 'success') throw new Error(`step "${step.message}" reverted (gasUsed ${receipt.gasUsed} of ${step.gasLimit})`);
    receipts.push(receipt);
  }
  return receipts;
}

const gas = new UniversalRouterGasRecord('universalRouter', 'test/tx/universalRouter.devnet.test.ts');

const CASES: readonly Case[] = [
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

/**
 * Executes a case's trade priced on `on` from `account` and checks it: the shape, the approvals, the amounts, nothing
 * left in the router, the gas (`pools`: whether the trade's pools were traded before).
 */
async function execute(t: Test, c: Case, on: ChainPoolIndex, account: PrivateKeyAccount, pools: 'cold' | 'warm'): Promise<void> {
  const trade = tradeFor(c, on);
  t.strictSame(shape(trade), c.shape, 'the trade has the shape the case names');
  const recipient = freshAddress(`ur ${pools} ${c.name}`);
  const tIn = token(c.tokenIn);
  const tOut = token(c.tokenOut);
  const nativeIn = tIn.address === NATIVE_TOKEN_ADDRESS;
  const exactOut = trade.tradeType === 'exactOut';
  const most = exactOut ? maximumAmountIn(trade.amountIn, 50) : trade.amountIn;
  if (!nativeIn) await fundAccount(devnet.rpcUrl, account.address, tIn.address as Address, most);
  const steps = await stepsFor(c, trade, account, recipient);
  const approvals = steps.filter((s) => s.to !== ROUTER).map((s) => s.message);
  if (!nativeIn) {
    const permitSteps = c.approvalMode === 'permit2' ? [] : [`Allow ${trade.splits[0].route.executor.name} to spend`];
    t.strictSame(
      approvals.map((m) => m.replace(/ \d[\d.]* .*$/, '')),
      [`Approve`, ...permitSteps].map((m) => m.replace(/ \d[\d.]* .*$/, '')),
      'approvals: the token to Permit2, then (approve mode) Permit2 to the router',
    );
  }
  const inBefore = await wallet.balanceOf(tIn.address, account.address);
  const receipts = await send(steps, account);
  const spent = inBefore - (await wallet.balanceOf(tIn.address, account.address)) - (nativeIn ? gasPaid(receipts) : 0n);
  t.equal(await wallet.balanceOf(tOut.address, recipient), trade.amountOut, 'the recipient receives exactly amountOut');
  // Exact output spends what the pools asked on the unmoved state: the trade's amountIn.
  t.equal(spent, trade.amountIn, 'the wallet spends exactly amountIn');
  t.strictSame(await routerHoldings(), {}, 'nothing is left in the UniversalRouter');
  t.equal(await wallet.client.getBalance({ address: ROUTER }), 0n, 'no ether is left in the UniversalRouter');
  gas.check(t, `${c.name} (${pools})`, pools, paramsFor(c, trade, account, recipient), steps, receipts);
}

for (const c of CASES) {
  t.test(c.name, async (t) => {
    await freshState();
    await execute(t, c, index, sender, 'cold');
    // The same trade again from a wallet that never held the token, on the pools the first one traded, a block later.
    await nextBlockLater(devnet.rpcUrl);
    await execute(t, c, pricing(await seedNow()), warmSender, 'warm');
  });
}

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

t.test('gas: estimate vs gasUsed', async (t) => {
  gas.finish(
    t,
    2 * CASES.length,
    "receipts of universalRouter.devnet's trades, each case from the seeded devnet (evm_revert; its v4 pools never traded: pools cold), then again, priced on the new state, from another account on the pools the first run traded (pools warm); every step sent with its own gasLimit by an account that never held the input token; gasUsed per step as the receipt reports it",
  );
});
