// buildTradeSteps executed on real chains: two devnets (anvil with the real Uniswap contracts, seeds/devnet), one
// named by catalog/devnet.json (SwapRouter02) and one by catalog/devnet-b.json (chain id 31338, the plain
// SwapRouter), each seeded into a temporary snapshot. Every case starts from the seeded state (evm_revert), asks
// bestTrade for the trade (the DEX filter and limits of the case steer it to the shape named, which is checked),
// builds the steps with amountOutMinimum = amountOut (so every transaction must deliver exactly its share) and
// sends them from a funded account, each with its own gasLimit. The recipient must receive exactly the trade's
// amountOut and the sender spend exactly amountIn, with nothing left in any router; the gas used must be within
// ±5% of the trade's gasEstimate (src/routing/gasModel.ts, calibrated here; the table is printed as a comment), on
// never-traded pools (a fresh devnet) and on traded ones (test/helpers/warmPools.ts), and the pool slots the trade's
// legs count as written from zero (Leg.coldSlots) are the ones the chain's trace shows.
// A price moved by another account makes the swap revert with nothing delivered, or, for a trade whose parts go
// through two routers, only the moved part (the partial fill the README documents).
// Exact-output trades (tradeType exactOut, the amount is tokenOut's) run through the same cases with amountInMaximum
// = the quote service's rule at 50 bps: the recipient receives exactly amountOut and the sender spends exactly
// amountIn (native input: the refund returns the rest of the value, to the wei net of gas); after another account
// moves the price by less than the slippage they still deliver exactly amountOut, spending what the chain's own
// QuoterV2 / Router02.getAmountsIn asks for after the move (more than amountIn, at most amountInMaximum); beyond
// it they revert and nothing but gas is spent.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { type Address, encodePacked, getAddress, type Hex, parseUnits, type TransactionReceipt } from 'viem';
import { type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import { fundAccount } from '../../seeds/devnet/fundAccount.ts';
import { jsonRpc } from '../../seeds/devnet/jsonRpc.ts';
import { type Devnet, startDevnet } from '../../seeds/devnet/startDevnet.ts';
import { type CatalogChain, type CatalogToken, NATIVE_TOKEN_ADDRESS } from '../../src/catalog/Catalog.ts';
import { loadCatalog } from '../../src/catalog/loadCatalog.ts';
import { seedChains } from '../../src/chain/seedChains.ts';
import type { ChainPoolIndex, PoolEntry } from '../../src/graph/ChainPoolIndex.ts';
import { PoolGraph } from '../../src/graph/PoolGraph.ts';
import { PricingGraph } from '../../src/graph/PricingGraph.ts';
import { loadSnapshots } from '../../src/graph/snapshot.ts';
import type { TradeType } from '../../src/protocols/PoolProtocol.ts';
import { bestTrade } from '../../src/routing/bestTrade.ts';
import { GAS } from '../../src/routing/gasModel.ts';
import { maximumAmountIn } from '../../src/routing/slippageLimits.ts';
import type { Route, Trade } from '../../src/routing/Trade.ts';
import { buildTradeSteps } from '../../src/tx/buildTradeSteps.ts';
import type { Step } from '../../src/tx/Step.ts';
import { type DevnetGasCase, tradeGasCase, writeDevnetGasFixture } from '../helpers/devnetGas.ts';
import { freshAddress as addressFor, artifactAbi, type DevnetWallet, devnetWallet, gasPaid } from '../helpers/devnetWallet.ts';
import { poolSwapSteps } from '../helpers/poolSwapSteps.ts';
import { warmPools } from '../helpers/warmPools.ts';

const catalog = loadCatalog(fileURLToPath(new URL('../../catalog', import.meta.url)));
const [devA, devB] = await Promise.all([startDevnet(), startDevnet({ chainId: 31338 })]);
t.teardown(() => Promise.all([devA.stop(), devB.stop()]).then(() => undefined));
const snapshotDir = mkdtempSync(join(tmpdir(), 'sqs-trade-steps-'));
t.teardown(() => rmSync(snapshotDir, { recursive: true, force: true }));

interface Net {
  readonly name: string;
  readonly devnet: Devnet;
  readonly chain: CatalogChain;
  readonly wallet: DevnetWallet;
  index: ChainPoolIndex;
  baseline: string;
}
const nets: Record<'A' | 'B', Net> = {
  A: {
    name: 'devnet',
    devnet: devA,
    chain: catalog.chain('devnet')!,
    wallet: devnetWallet(devA),
    index: undefined as unknown as ChainPoolIndex,
    baseline: '',
  },
  B: {
    name: 'devnet-b',
    devnet: devB,
    chain: catalog.chain('devnet-b')!,
    wallet: devnetWallet(devB),
    index: undefined as unknown as ChainPoolIndex,
    baseline: '',
  },
};
/** Seeds both devnets into `dir` and makes that state every case's start (the index bestTrade reads, the baseline). */
async function seedBoth(dir: string): Promise<void> {
  const report = await seedChains({
    chains: [nets.A.chain, nets.B.chain],
    rpcUrls: new Map([
      [devA.chainId, devA.rpcUrl],
      [devB.chainId, devB.rpcUrl],
    ]),
    snapshotDir: dir,
    progress: 'none',
    log: () => undefined,
  });
  if (report.chains.some((c) => c.status !== 'seeded')) throw new Error('seeding failed');
  const graph = new PricingGraph(new PoolGraph(loadSnapshots(dir).snapshots, catalog), catalog);
  for (const net of Object.values(nets)) {
    net.index = graph.chain(net.chain.chainId)!;
    net.baseline = await jsonRpc<string>(net.devnet.rpcUrl, 'evm_snapshot');
  }
}

// First every case on the never-traded pools of a fresh devnet (an hour after their liquidity, so each swap is the
// first in a later block and writes what a first swap writes); then every pool traded once, an hour before the cases
// (test/helpers/warmPools.ts), and every case again; the other tests run on the traded pools.
for (const net of Object.values(nets)) {
  await jsonRpc(net.devnet.rpcUrl, 'evm_increaseTime', [3_600]);
  await jsonRpc(net.devnet.rpcUrl, 'evm_mine', []);
}
await seedBoth(join(snapshotDir, 'cold'));
/** The pools' state the cases run on now. */
let phase: 'cold' | 'warm' = 'cold';
const warmed: number[] = [];

/** Puts a devnet back to the seeded state (every case starts from the pools its index holds). */
async function freshState(net: Net): Promise<void> {
  if (!(await jsonRpc<boolean>(net.devnet.rpcUrl, 'evm_revert', [net.baseline]))) throw new Error('evm_revert failed');
  net.baseline = await jsonRpc<string>(net.devnet.rpcUrl, 'evm_snapshot');
}

const sender = (net: Net): PrivateKeyAccount => privateKeyToAccount(net.devnet.accounts[1].privateKey);
const mover = (net: Net): PrivateKeyAccount => privateKeyToAccount(net.devnet.accounts[2].privateKey);
const token = (net: Net, symbol: string): CatalogToken => net.chain.tokens.find((x) => x.symbol === symbol)!;
const symbolOf = (net: Net, address: string): string =>
  net.chain.tokens.find((x) => x.address.toLowerCase() === address.toLowerCase())!.symbol;

async function fund(net: Net, account: Address, tokenIn: CatalogToken, amount: bigint): Promise<void> {
  if (tokenIn.address !== NATIVE_TOKEN_ADDRESS) await fundAccount(net.devnet.rpcUrl, account, tokenIn.address as Address, amount);
}

async function deadline(net: Net, offset = 300): Promise<number> {
  return Number((await net.wallet.client.getBlock()).timestamp) + offset;
}

/** Which pools a case may route through: DEX deployments ('uniswap/v3'), minus pools named 'uniswap/v2 USDT/WETH' or 'uniswap/v3 USDC/WETH 500'. */
function pools(net: Net, deployments: readonly string[], without: readonly string[] = []): (e: PoolEntry) => boolean {
  return (e) => {
    const pair = [symbolOf(net, e.token0), symbolOf(net, e.token1)].sort().join('/');
    const key = `${e.dex}/${e.version} ${pair}${e.version === 'v3' ? ` ${e.state.fee}` : ''}`;
    return deployments.includes(`${e.dex}/${e.version}`) && !without.includes(key);
  };
}

/**
 * The trade's routes as `executor: TOKEN -dex/version fee-> TOKEN …`, one per split in the trade's order, a native
 * end as `ETH -wrap-> WETH` before the first pool or `WETH -wrap-> ETH` after the last; a bare wrap or unwrap as
 * `WETH9: ETH -wrap-> WETH`.
 */
function shape(net: Net, trade: Trade): string[] {
  if (trade.splits.length === 0) return [`WETH9: ${symbolOf(net, trade.tokenIn)} -wrap-> ${symbolOf(net, trade.tokenOut)}`];
  return trade.splits.map(({ route }) => {
    const hops = route.legs.map((l) => ` -${l.dex}/${l.version}${l.version === 'v3' ? ` ${l.fee}` : ''}-> ${symbolOf(net, l.tokenOut)}`);
    const start = trade.nativeIn === 'wrapped' ? `${symbolOf(net, trade.tokenIn)} -wrap-> ` : '';
    const end = trade.nativeOut === 'wrapped' ? ` -wrap-> ${symbolOf(net, trade.tokenOut)}` : '';
    return `${route.executor.kind}: ${start}${symbolOf(net, route.legs[0].tokenIn)}${hops.join('')}${end}`;
  });
}

interface TradeCase {
  readonly name: string;
  readonly net: 'A' | 'B';
  readonly tokenIn: string;
  readonly tokenOut: string;
  /** exactIn (default): `amount` is tokenIn's; exactOut: tokenOut's. */
  readonly tradeType?: TradeType;
  /** Display units of tokenIn (exactIn) or tokenOut (exactOut). */
  readonly amount: string;
  /** Initialized ticks the trade must cross at least. */
  readonly minTicks?: number;
  readonly maxHops?: number;
  readonly maxSplits: number;
  readonly deployments: readonly string[];
  readonly without?: readonly string[];
  /** The routes bestTrade must choose (shape()), which make the case what its name says. */
  readonly shape: readonly string[];
  /** A wrap or unwrap paying another account than the wallet (WETH9 pays the sender; a hand-over step follows). */
  readonly otherRecipient?: boolean;
}

type TradeSpec = Pick<TradeCase, 'tokenIn' | 'tokenOut' | 'tradeType' | 'amount' | 'maxHops' | 'maxSplits' | 'deployments' | 'without'>;

function tradeFor(net: Net, c: TradeSpec): Trade {
  const tradeType = c.tradeType ?? 'exactIn';
  const fixed = token(net, tradeType === 'exactIn' ? c.tokenIn : c.tokenOut);
  const outcome = bestTrade(net.index, {
    tokenIn: token(net, c.tokenIn).address.toLowerCase(),
    tokenOut: token(net, c.tokenOut).address.toLowerCase(),
    tradeType,
    amount: parseUnits(c.amount, fixed.decimals),
    maxHops: c.maxHops ?? 3,
    maxSplits: c.maxSplits,
    gasPriceWei: 0n,
    allow: pools(net, c.deployments, c.without),
  });
  if (!outcome.ok) throw new Error(`no trade: ${outcome.code}`);
  return outcome.trade;
}

/** Sends steps in order, each with its own gasLimit; throws on the first that reverts. */
async function sendWithLimits(net: Net, account: PrivateKeyAccount, steps: readonly Step[]): Promise<TransactionReceipt[]> {
  const receipts: TransactionReceipt[] = [];
  for (const step of steps) {
    const receipt = await net.wallet.sendStep(account, step, BigInt(step.gasLimit!));
    if (receipt.status !== 'success')
      throw new Error(`step "${step.message}" reverted (gasUsed ${receipt.gasUsed} of its gasLimit ${step.gasLimit})`);
    receipts.push(receipt);
  }
  return receipts;
}

/** Gas of each executed case, for the calibration table. */
const gasRows: { name: string; ticks: number; perStep: bigint[]; estimate: bigint; used: bigint }[] = [];
/** The same cases as test/fixtures/gas/devnetGasUsed.json records them (RECORD_GAS_FIXTURE=1): shapes and gasUsed. */
const gasFixture: DevnetGasCase[] = [];

const V2 = ['uniswap/v2'];
const V3 = ['uniswap/v3'];
const UNISWAP = ['uniswap/v2', 'uniswap/v3'];
const ALL = ['uniswap/v2', 'uniswap/v3', 'sushiswap/v2'];

const CASES: readonly TradeCase[] = [
  {
    name: '1 pool v3 through SwapRouter02',
    net: 'A',
    tokenIn: 'USDC',
    tokenOut: 'WBTC',
    amount: '150000',
    maxHops: 1,
    maxSplits: 1,
    deployments: V3,
    shape: ['SwapRouter02: USDC -uniswap/v3 500-> WBTC'],
  },
  {
    name: '1 pool v3 through SwapRouter',
    net: 'B',
    tokenIn: 'WBTC',
    tokenOut: 'USDC',
    amount: '0.3',
    maxHops: 1,
    maxSplits: 1,
    deployments: V3,
    shape: ['SwapRouter: WBTC -uniswap/v3 500-> USDC'],
  },
  {
    name: '1 pool v2 through UniswapV2Router02',
    net: 'A',
    tokenIn: 'USDC',
    tokenOut: 'WBTC',
    amount: '25000',
    maxHops: 1,
    maxSplits: 1,
    deployments: V2,
    shape: ['UniswapV2Router02: USDC -uniswap/v2-> WBTC'],
  },
  {
    name: '2-hop v3 through SwapRouter02',
    net: 'A',
    tokenIn: 'LINK',
    tokenOut: 'USDC',
    amount: '5000',
    maxSplits: 1,
    deployments: V3,
    shape: ['SwapRouter02: LINK -uniswap/v3 3000-> WETH -uniswap/v3 500-> USDC'],
  },
  {
    name: '2-hop v3 through SwapRouter',
    net: 'B',
    tokenIn: 'LINK',
    tokenOut: 'USDC',
    amount: '5000',
    maxSplits: 1,
    deployments: V3,
    shape: ['SwapRouter: LINK -uniswap/v3 3000-> WETH -uniswap/v3 500-> USDC'],
  },
  {
    name: '2-hop v2 through UniswapV2Router02',
    net: 'A',
    tokenIn: 'WBTC',
    tokenOut: 'DAI',
    amount: '2',
    maxHops: 2,
    maxSplits: 1,
    deployments: V2,
    shape: ['UniswapV2Router02: WBTC -uniswap/v2-> WETH -uniswap/v2-> DAI'],
  },
  {
    name: '3-hop v3 through SwapRouter02',
    net: 'A',
    tokenIn: 'DAI',
    tokenOut: 'LINK',
    amount: '10000',
    maxSplits: 1,
    deployments: V3,
    shape: ['SwapRouter02: DAI -uniswap/v3 100-> USDC -uniswap/v3 500-> WETH -uniswap/v3 3000-> LINK'],
  },
  {
    name: '3-hop v3 through SwapRouter',
    net: 'B',
    tokenIn: 'DAI',
    tokenOut: 'LINK',
    amount: '10000',
    maxSplits: 1,
    deployments: V3,
    shape: ['SwapRouter: DAI -uniswap/v3 100-> USDC -uniswap/v3 500-> WETH -uniswap/v3 3000-> LINK'],
  },
  {
    name: 'mixed v2 -> v3 through SwapRouter02',
    net: 'A',
    tokenIn: 'AAVE',
    tokenOut: 'WETH',
    amount: '300',
    maxSplits: 1,
    deployments: ALL,
    shape: ['SwapRouter02: AAVE -uniswap/v2-> LINK -uniswap/v3 3000-> WETH'],
  },
  {
    name: '3 hops, mixed, through SwapRouter02',
    net: 'A',
    tokenIn: 'AAVE',
    tokenOut: 'USDC',
    amount: '200',
    maxSplits: 1,
    deployments: UNISWAP,
    shape: ['SwapRouter02: AAVE -uniswap/v2-> LINK -uniswap/v3 3000-> WETH -uniswap/v3 500-> USDC'],
  },
  {
    name: 'split across v2 + v3 through SwapRouter02',
    net: 'A',
    tokenIn: 'WETH',
    tokenOut: 'USDC',
    amount: '1000',
    maxHops: 1,
    maxSplits: 2,
    deployments: UNISWAP,
    without: ['uniswap/v3 USDC/WETH 3000'],
    shape: ['SwapRouter02: WETH -uniswap/v3 500-> USDC', 'SwapRouter02: WETH -uniswap/v2-> USDC'],
  },
  {
    name: 'split across two v3 fee tiers through SwapRouter02',
    net: 'A',
    tokenIn: 'WETH',
    tokenOut: 'USDC',
    amount: '300',
    maxHops: 1,
    maxSplits: 2,
    deployments: V3,
    shape: ['SwapRouter02: WETH -uniswap/v3 500-> USDC', 'SwapRouter02: WETH -uniswap/v3 3000-> USDC'],
  },
  {
    name: 'split across two v3 fee tiers through SwapRouter',
    net: 'B',
    tokenIn: 'WETH',
    tokenOut: 'USDC',
    amount: '300',
    maxHops: 1,
    maxSplits: 2,
    deployments: V3,
    shape: ['SwapRouter: WETH -uniswap/v3 500-> USDC', 'SwapRouter: WETH -uniswap/v3 3000-> USDC'],
  },
  {
    name: 'two routes through one UniswapV2Router02',
    net: 'A',
    tokenIn: 'WETH',
    tokenOut: 'USDC',
    amount: '2000',
    maxHops: 2,
    maxSplits: 2,
    deployments: V2,
    shape: ['UniswapV2Router02: WETH -uniswap/v2-> USDC', 'UniswapV2Router02: WETH -uniswap/v2-> USDT -uniswap/v2-> USDC'],
  },
  {
    name: 'native in, 2 hops v3 -> v2, SwapRouter02',
    net: 'A',
    tokenIn: 'ETH',
    tokenOut: 'AAVE',
    amount: '20',
    maxSplits: 1,
    deployments: ALL,
    shape: ['SwapRouter02: ETH -wrap-> WETH -uniswap/v3 3000-> LINK -uniswap/v2-> AAVE'],
  },
  {
    name: 'native in, 2 hops v2, UniswapV2Router02',
    net: 'A',
    tokenIn: 'ETH',
    tokenOut: 'USDT',
    amount: '10',
    maxSplits: 1,
    deployments: V2,
    without: ['uniswap/v2 USDT/WETH'],
    shape: ['UniswapV2Router02: ETH -wrap-> WETH -uniswap/v2-> USDC -uniswap/v2-> USDT'],
  },
  {
    name: 'native in, 1 pool v2, UniswapV2Router02',
    net: 'A',
    tokenIn: 'ETH',
    tokenOut: 'USDC',
    amount: '0.1',
    maxHops: 1,
    maxSplits: 1,
    deployments: V2,
    shape: ['UniswapV2Router02: ETH -wrap-> WETH -uniswap/v2-> USDC'],
  },
  {
    name: 'native in, 1 pool v3, several ticks, SwapRouter02',
    net: 'A',
    tokenIn: 'ETH',
    tokenOut: 'USDC',
    amount: '1500',
    minTicks: 5,
    maxHops: 1,
    maxSplits: 1,
    deployments: V3,
    shape: ['SwapRouter02: ETH -wrap-> WETH -uniswap/v3 500-> USDC'],
  },
  {
    name: 'native in, 2 hops v3, SwapRouter',
    net: 'B',
    tokenIn: 'ETH',
    tokenOut: 'WBTC',
    amount: '10',
    maxSplits: 1,
    deployments: V3,
    without: ['uniswap/v3 WBTC/WETH 3000'],
    shape: ['SwapRouter: ETH -wrap-> WETH -uniswap/v3 500-> USDC -uniswap/v3 500-> WBTC'],
  },
  {
    name: 'native out, 2 hops v2 -> v3, SwapRouter02',
    net: 'A',
    tokenIn: 'AAVE',
    tokenOut: 'ETH',
    amount: '300',
    maxSplits: 1,
    deployments: ALL,
    shape: ['SwapRouter02: AAVE -uniswap/v2-> LINK -uniswap/v3 3000-> WETH -wrap-> ETH'],
  },
  {
    name: 'native out, 2 hops v3, SwapRouter',
    net: 'B',
    tokenIn: 'USDT',
    tokenOut: 'ETH',
    amount: '20000',
    maxSplits: 1,
    deployments: V3,
    without: ['uniswap/v3 USDT/WETH 3000'],
    shape: ['SwapRouter: USDT -uniswap/v3 100-> USDC -uniswap/v3 500-> WETH -wrap-> ETH'],
  },
  {
    name: 'native out, 2 hops v2, SushiSwap UniswapV2Router02',
    net: 'A',
    tokenIn: 'DAI',
    tokenOut: 'ETH',
    amount: '20000',
    maxSplits: 1,
    deployments: ['sushiswap/v2'],
    without: ['sushiswap/v2 DAI/WETH'],
    shape: ['UniswapV2Router02: DAI -sushiswap/v2-> USDC -sushiswap/v2-> WETH -wrap-> ETH'],
  },
  {
    name: 'native out, split v2 + v3, SwapRouter02',
    net: 'A',
    tokenIn: 'USDC',
    tokenOut: 'ETH',
    amount: '2000000',
    maxHops: 1,
    maxSplits: 2,
    deployments: UNISWAP,
    without: ['uniswap/v3 USDC/WETH 3000'],
    shape: ['SwapRouter02: USDC -uniswap/v3 500-> WETH -wrap-> ETH', 'SwapRouter02: USDC -uniswap/v2-> WETH -wrap-> ETH'],
  },
  {
    name: 'two routers: SushiSwap v2 + Uniswap v3',
    net: 'A',
    tokenIn: 'WETH',
    tokenOut: 'USDC',
    amount: '500',
    maxHops: 1,
    maxSplits: 2,
    deployments: ['sushiswap/v2', 'uniswap/v3'],
    without: ['uniswap/v3 USDC/WETH 3000'],
    shape: ['SwapRouter02: WETH -uniswap/v3 500-> USDC', 'UniswapV2Router02: WETH -sushiswap/v2-> USDC'],
  },
  {
    name: 'two routers, native in: SushiSwap v2 + Uniswap v3',
    net: 'A',
    tokenIn: 'ETH',
    tokenOut: 'USDC',
    amount: '500',
    maxHops: 1,
    maxSplits: 2,
    deployments: ['sushiswap/v2', 'uniswap/v3'],
    without: ['uniswap/v3 USDC/WETH 3000'],
    shape: ['SwapRouter02: ETH -wrap-> WETH -uniswap/v3 500-> USDC', 'UniswapV2Router02: ETH -wrap-> WETH -sushiswap/v2-> USDC'],
  },
  {
    name: 'wrap through WETH9',
    net: 'A',
    tokenIn: 'ETH',
    tokenOut: 'WETH',
    amount: '3',
    maxSplits: 1,
    deployments: ALL,
    shape: ['WETH9: ETH -wrap-> WETH'],
  },
  {
    name: 'unwrap through WETH9',
    net: 'A',
    tokenIn: 'WETH',
    tokenOut: 'ETH',
    amount: '3',
    maxSplits: 1,
    deployments: ALL,
    shape: ['WETH9: WETH -wrap-> ETH'],
  },
  {
    name: 'wrap through WETH9 for another recipient',
    net: 'A',
    tokenIn: 'ETH',
    tokenOut: 'WETH',
    amount: '3.000000000000000123',
    maxSplits: 1,
    deployments: ALL,
    shape: ['WETH9: ETH -wrap-> WETH'],
    otherRecipient: true,
  },
  {
    name: 'unwrap through WETH9 for another recipient',
    net: 'A',
    tokenIn: 'WETH',
    tokenOut: 'ETH',
    amount: '2',
    maxSplits: 1,
    deployments: ALL,
    shape: ['WETH9: WETH -wrap-> ETH'],
    otherRecipient: true,
  },
  ...exactOutputCases(),
];

/** Exact-output cases: `amount` is what the recipient must receive. */
function exactOutputCases(): TradeCase[] {
  const cases: Omit<TradeCase, 'tradeType'>[] = [
    {
      name: '1 pool v3 through SwapRouter02, 8 initialized ticks or so',
      net: 'A',
      tokenIn: 'USDC',
      tokenOut: 'WBTC',
      amount: '15',
      maxHops: 1,
      maxSplits: 1,
      deployments: V3,
      minTicks: 5,
      shape: ['SwapRouter02: USDC -uniswap/v3 500-> WBTC'],
    },
    {
      name: '1 pool v3 through SwapRouter',
      net: 'B',
      tokenIn: 'WBTC',
      tokenOut: 'USDC',
      amount: '20000',
      maxHops: 1,
      maxSplits: 1,
      deployments: V3,
      shape: ['SwapRouter: WBTC -uniswap/v3 500-> USDC'],
    },
    {
      name: '1 pool v3 through SwapRouter, several ticks',
      net: 'B',
      tokenIn: 'WBTC',
      tokenOut: 'USDC',
      amount: '1000000',
      maxHops: 1,
      maxSplits: 1,
      deployments: V3,
      minTicks: 5,
      shape: ['SwapRouter: WBTC -uniswap/v3 500-> USDC'],
    },
    {
      name: '1 pool v2 through UniswapV2Router02',
      net: 'A',
      tokenIn: 'USDC',
      tokenOut: 'WBTC',
      amount: '0.4',
      maxHops: 1,
      maxSplits: 1,
      deployments: V2,
      shape: ['UniswapV2Router02: USDC -uniswap/v2-> WBTC'],
    },
    {
      name: '2-hop v3 through SwapRouter02',
      net: 'A',
      tokenIn: 'LINK',
      tokenOut: 'USDC',
      amount: '5000',
      maxSplits: 1,
      deployments: V3,
      shape: ['SwapRouter02: LINK -uniswap/v3 3000-> WETH -uniswap/v3 500-> USDC'],
    },
    {
      name: '2-hop v3 through SwapRouter',
      net: 'B',
      tokenIn: 'LINK',
      tokenOut: 'USDC',
      amount: '5000',
      maxSplits: 1,
      deployments: V3,
      shape: ['SwapRouter: LINK -uniswap/v3 3000-> WETH -uniswap/v3 500-> USDC'],
    },
    {
      name: '2-hop v2 through UniswapV2Router02',
      net: 'A',
      tokenIn: 'WBTC',
      tokenOut: 'DAI',
      amount: '50000',
      maxHops: 2,
      maxSplits: 1,
      deployments: V2,
      shape: ['UniswapV2Router02: WBTC -uniswap/v2-> WETH -uniswap/v2-> DAI'],
    },
    {
      name: '3-hop v3 through SwapRouter02',
      net: 'A',
      tokenIn: 'DAI',
      tokenOut: 'LINK',
      amount: '500',
      maxSplits: 1,
      deployments: V3,
      shape: ['SwapRouter02: DAI -uniswap/v3 100-> USDC -uniswap/v3 500-> WETH -uniswap/v3 3000-> LINK'],
    },
    {
      name: '3-hop v3 through SwapRouter',
      net: 'B',
      tokenIn: 'DAI',
      tokenOut: 'LINK',
      amount: '500',
      maxSplits: 1,
      deployments: V3,
      shape: ['SwapRouter: DAI -uniswap/v3 100-> USDC -uniswap/v3 500-> WETH -uniswap/v3 3000-> LINK'],
    },
    {
      name: 'split across two v3 fee tiers through SwapRouter02',
      net: 'A',
      tokenIn: 'WETH',
      tokenOut: 'USDC',
      amount: '900000',
      maxHops: 1,
      maxSplits: 2,
      deployments: V3,
      shape: ['SwapRouter02: WETH -uniswap/v3 500-> USDC', 'SwapRouter02: WETH -uniswap/v3 3000-> USDC'],
    },
    {
      name: 'split across two v3 fee tiers through SwapRouter',
      net: 'B',
      tokenIn: 'WETH',
      tokenOut: 'USDC',
      amount: '900000',
      maxHops: 1,
      maxSplits: 2,
      deployments: V3,
      shape: ['SwapRouter: WETH -uniswap/v3 500-> USDC', 'SwapRouter: WETH -uniswap/v3 3000-> USDC'],
    },
    {
      name: 'split across v3 and v2: SwapRouter02 + UniswapV2Router02',
      net: 'A',
      tokenIn: 'WETH',
      tokenOut: 'USDC',
      amount: '3000000',
      maxHops: 1,
      maxSplits: 2,
      deployments: UNISWAP,
      without: ['uniswap/v3 USDC/WETH 3000'],
      shape: ['SwapRouter02: WETH -uniswap/v3 500-> USDC', 'UniswapV2Router02: WETH -uniswap/v2-> USDC'],
    },
    {
      name: 'two routes through one UniswapV2Router02',
      net: 'A',
      tokenIn: 'WETH',
      tokenOut: 'USDC',
      amount: '1500000',
      maxHops: 2,
      maxSplits: 2,
      deployments: V2,
      shape: ['UniswapV2Router02: WETH -uniswap/v2-> USDC', 'UniswapV2Router02: WETH -uniswap/v2-> USDT -uniswap/v2-> USDC'],
    },
    {
      name: 'native in, v3, SwapRouter02',
      net: 'A',
      tokenIn: 'ETH',
      tokenOut: 'USDC',
      amount: '100000',
      maxHops: 1,
      maxSplits: 1,
      deployments: V3,
      shape: ['SwapRouter02: ETH -wrap-> WETH -uniswap/v3 500-> USDC'],
    },
    {
      name: 'native in, 2 hops v2, UniswapV2Router02',
      net: 'A',
      tokenIn: 'ETH',
      tokenOut: 'USDT',
      amount: '20000',
      maxSplits: 1,
      deployments: V2,
      without: ['uniswap/v2 USDT/WETH'],
      shape: ['UniswapV2Router02: ETH -wrap-> WETH -uniswap/v2-> USDC -uniswap/v2-> USDT'],
    },
    {
      name: 'native in, 2 hops v3, SwapRouter',
      net: 'B',
      tokenIn: 'ETH',
      tokenOut: 'WBTC',
      amount: '0.5',
      maxSplits: 1,
      deployments: V3,
      without: ['uniswap/v3 WBTC/WETH 3000'],
      shape: ['SwapRouter: ETH -wrap-> WETH -uniswap/v3 500-> USDC -uniswap/v3 500-> WBTC'],
    },
    {
      name: 'native in, two routers: Uniswap v3 + SushiSwap v2',
      net: 'A',
      tokenIn: 'ETH',
      tokenOut: 'USDC',
      amount: '1500000',
      maxHops: 1,
      maxSplits: 2,
      deployments: ['sushiswap/v2', 'uniswap/v3'],
      without: ['uniswap/v3 USDC/WETH 3000'],
      shape: ['SwapRouter02: ETH -wrap-> WETH -uniswap/v3 500-> USDC', 'UniswapV2Router02: ETH -wrap-> WETH -sushiswap/v2-> USDC'],
    },
    {
      name: 'native out, v3, SwapRouter02',
      net: 'A',
      tokenIn: 'USDC',
      tokenOut: 'ETH',
      amount: '30',
      maxHops: 1,
      maxSplits: 1,
      deployments: V3,
      shape: ['SwapRouter02: USDC -uniswap/v3 500-> WETH -wrap-> ETH'],
    },
    {
      name: 'native out, 2 hops v2, SushiSwap UniswapV2Router02',
      net: 'A',
      tokenIn: 'DAI',
      tokenOut: 'ETH',
      amount: '5',
      maxSplits: 1,
      deployments: ['sushiswap/v2'],
      without: ['sushiswap/v2 DAI/WETH'],
      shape: ['UniswapV2Router02: DAI -sushiswap/v2-> USDC -sushiswap/v2-> WETH -wrap-> ETH'],
    },
    {
      name: 'native out, 2 hops v3, SwapRouter',
      net: 'B',
      tokenIn: 'USDT',
      tokenOut: 'ETH',
      amount: '6',
      maxSplits: 1,
      deployments: V3,
      without: ['uniswap/v3 USDT/WETH 3000'],
      shape: ['SwapRouter: USDT -uniswap/v3 100-> USDC -uniswap/v3 500-> WETH -wrap-> ETH'],
    },
    {
      name: 'native out, split across two v3 fee tiers, SwapRouter02',
      net: 'A',
      tokenIn: 'USDC',
      tokenOut: 'ETH',
      amount: '600',
      maxHops: 1,
      maxSplits: 2,
      deployments: V3,
      shape: ['SwapRouter02: USDC -uniswap/v3 500-> WETH -wrap-> ETH', 'SwapRouter02: USDC -uniswap/v3 3000-> WETH -wrap-> ETH'],
    },
    {
      name: 'wrap through WETH9',
      net: 'A',
      tokenIn: 'ETH',
      tokenOut: 'WETH',
      amount: '3',
      maxSplits: 1,
      deployments: ALL,
      shape: ['WETH9: ETH -wrap-> WETH'],
    },
  ];
  return cases.map((c) => ({ ...c, name: `exact output: ${c.name}`, tradeType: 'exactOut' }));
}

/** The slippage the exact-output cases are sent with (amountInMaximum = maximumAmountIn(amountIn, SLIPPAGE_BPS)). */
const SLIPPAGE_BPS = 50;

/** The trade's limits as the quote service sets them: amountOutMinimum = amountOut, and amountInMaximum for exactOut. */
function limits(trade: Trade, slippageBps = SLIPPAGE_BPS): { amountOutMinimum: bigint; amountInMaximum?: bigint } {
  return trade.tradeType === 'exactOut'
    ? { amountOutMinimum: trade.amountOut, amountInMaximum: maximumAmountIn(trade.amountIn, slippageBps) }
    : { amountOutMinimum: trade.amountOut };
}

/** Storage slots of `pool` a transaction wrote from zero, from the chain's own trace (prestateTracer, diff mode). */
async function slotsWrittenFromZero(net: Net, hash: Hex, pool: string): Promise<number> {
  type Diff = Record<string, { storage?: Record<string, Hex> }>;
  const trace = await jsonRpc<{ pre: Diff; post: Diff }>(net.devnet.rpcUrl, 'debug_traceTransaction', [
    hash,
    { tracer: 'prestateTracer', tracerConfig: { diffMode: true } },
  ]);
  const storage = (d: Diff) => Object.entries(d).find(([a]) => a.toLowerCase() === pool.toLowerCase())?.[1].storage ?? {};
  const pre = storage(trace.pre);
  return Object.entries(storage(trace.post)).filter(([slot, v]) => BigInt(v) !== 0n && BigInt(pre[slot] ?? '0x0') === 0n).length;
}

for (const pools of ['cold', 'warm'] as const) {
  if (pools === 'warm')
    t.test('every pool of both devnets traded both ways, then seeded again', async (t) => {
      for (const net of Object.values(nets)) {
        await freshState(net);
        warmed.push(
          await warmPools(net.devnet.rpcUrl, net.wallet, catalog, net.chain, privateKeyToAccount(net.devnet.accounts[3].privateKey)),
        );
      }
      await seedBoth(join(snapshotDir, 'warm'));
      phase = 'warm';
      t.strictSame(warmed, [40, 40], '20 pools x 2 directions on each devnet');
    });
  for (const c of CASES) tradeCase(c, pools);
}

function tradeCase(c: TradeCase, pools: 'cold' | 'warm'): void {
  const label = c.tradeType === 'exactOut' ? `${c.tokenIn} -> ${c.amount} ${c.tokenOut}` : `${c.amount} ${c.tokenIn} -> ${c.tokenOut}`;
  t.test(`${c.name} (${nets[c.net].name}, ${pools} pools): ${label} delivers exactly amountOut for exactly amountIn`, async (t) => {
    if (phase !== pools) throw new Error(`the pools are ${phase}, the case wants them ${pools}`);
    const net = nets[c.net];
    await freshState(net);
    const trade = tradeFor(net, c);
    t.strictSame(shape(net, trade), c.shape, 'the routes of the case');
    const ticksCrossed = trade.splits.reduce((n, x) => n + x.route.legs.reduce((m, l) => m + l.ticksCrossed, 0), 0);
    if (c.minTicks !== undefined) t.ok(ticksCrossed >= c.minTicks, `crosses ${ticksCrossed} initialized ticks (>= ${c.minTicks})`);
    const tokenIn = token(net, c.tokenIn);
    const tokenOut = token(net, c.tokenOut);
    const account = sender(net);
    const wrapCase = trade.splits.length === 0;
    // A fresh recipient; a wrap or unwrap pays the wallet itself unless the case says otherwise.
    const recipient = wrapCase && !c.otherRecipient ? account.address : addressFor(`trade-steps:${c.name}`);
    const bounds = limits(trade);
    // An exact-output sender holds all it may spend: the routers must still take only amountIn.
    await fund(net, account.address, tokenIn, bounds.amountInMaximum ?? trade.amountIn);
    const steps = buildTradeSteps({
      chain: net.chain,
      trade,
      tokenIn,
      tokenOut,
      ...bounds,
      recipient,
      wallet: account.address,
      deadline: await deadline(net),
    });
    if (bounds.amountInMaximum !== undefined && !wrapCase) {
      const granted = steps.reduce(
        (s, x) => s + BigInt(tokenIn.address === NATIVE_TOKEN_ADDRESS ? (x.value ?? '0') : x.spender ? x.amount : '0'),
        0n,
      );
      t.equal(granted, bounds.amountInMaximum, 'approvals (ERC-20) or values (native) add up to exactly amountInMaximum');
    }
    const { balanceOf } = net.wallet;
    const outBefore = await balanceOf(tokenOut.address, recipient);
    const inBefore = await balanceOf(tokenIn.address, account.address);
    const receipts = await sendWithLimits(net, account, steps);
    const gas = gasPaid(receipts);
    const received = (await balanceOf(tokenOut.address, recipient)) - outBefore;
    t.equal(
      received,
      trade.amountOut - (recipient === account.address && tokenOut.address === NATIVE_TOKEN_ADDRESS ? gas : 0n),
      'the recipient received exactly amountOut',
    );
    const spent = inBefore - (await balanceOf(tokenIn.address, account.address));
    t.equal(
      spent,
      trade.amountIn + (tokenIn.address === NATIVE_TOKEN_ADDRESS ? gas : 0n),
      'the sender spent exactly amountIn (plus gas when it is ether)',
    );
    for (const router of new Set(trade.splits.map((s) => s.route.executor.address))) {
      if (router === getAddress(net.chain.wrappedNativeToken)) continue;
      for (const held of [NATIVE_TOKEN_ADDRESS, net.chain.wrappedNativeToken, tokenIn.address, tokenOut.address]) {
        t.equal(await balanceOf(held, router as Address), 0n, `${symbolOf(net, held)} left in ${router}: none`);
      }
    }
    const used = receipts.reduce((s, r) => s + r.gasUsed, 0n);
    // The trade's gasEstimate covers its steps; a wrap's hand-over to another recipient is a step beyond the trade.
    const handOver =
      recipient !== account.address && wrapCase ? GAS.send[tokenOut.address === NATIVE_TOKEN_ADDRESS ? 'native' : 'erc20'] : 0n;
    const estimate = trade.gasEstimate + handOver;
    const name = `${c.name} (${net.name}, ${pools})`;
    gasRows.push({ name, ticks: ticksCrossed, perStep: receipts.map((r) => r.gasUsed), estimate, used });
    gasFixture.push(tradeGasCase(name, pools, net.chain, trade, steps, receipts));
    for (const [i, r] of receipts.entries())
      t.ok(r.gasUsed <= BigInt(steps[i].gasLimit!), `step ${i + 1} used ${r.gasUsed} <= its gasLimit ${steps[i].gasLimit}`);
    // The slots the model charges as written from zero are the ones the chain's trace shows written from zero.
    for (const { route } of trade.splits) {
      for (const leg of route.legs) {
        let fromZero = 0;
        for (const [i, r] of receipts.entries())
          if (!steps[i].spender) fromZero += await slotsWrittenFromZero(net, r.transactionHash, leg.pool);
        t.equal(leg.coldSlots, fromZero, `${leg.dex}/${leg.version} ${leg.pool}: ${fromZero} slot(s) written from zero, as charged`);
      }
    }
    const off = Number(((estimate - used) * 10_000n) / used) / 100;
    t.ok(Math.abs(off) <= 5, `gas estimate ${estimate} is within 5% of the ${used} used (${off}%)`);
  });
}

t.test('gas table', async (t) => {
  const lines = [
    '| case | ticks crossed | gasUsed per step | gasUsed | estimate | estimate/used |',
    '| --- | --- | --- | --- | --- | --- |',
  ];
  for (const r of gasRows)
    lines.push(
      `| ${r.name} | ${r.ticks} | ${r.perStep.join(' + ')} | ${r.used} | ${r.estimate} | ${(Number(r.estimate) / Number(r.used)).toFixed(3)} |`,
    );
  t.comment(`\n${lines.join('\n')}`);
  t.equal(gasRows.length, 2 * CASES.length, 'every case executed, on never-traded and on traded pools');
  if (process.env.RECORD_GAS_FIXTURE === '1') {
    writeDevnetGasFixture(gasFixture);
    t.comment(`recorded ${gasFixture.length} cases in test/fixtures/gas/devnetGasUsed.json`);
  }
});

/** The mover swaps `amount` the same way through one pool first, so the quoted trade's part through that pool gets less. */
async function movePool(net: Net, tokenIn: string, tokenOut: string, amount: string, deployment: string, poolKey: string): Promise<void> {
  const account = mover(net);
  const amountIn = parseUnits(amount, token(net, tokenIn).decimals);
  await fund(net, account.address, token(net, tokenIn), amountIn);
  const onlyThat = (e: PoolEntry): boolean => pools(net, [deployment])(e) && !pools(net, [deployment], [`${deployment} ${poolKey}`])(e);
  const steps = poolSwapSteps(net.index, onlyThat, {
    chain: net.chain,
    tokenIn: token(net, tokenIn),
    tokenOut: token(net, tokenOut),
    amountIn,
    account: account.address,
    deadline: await deadline(net),
  });
  await net.wallet.sendSteps(account, steps);
}

t.test('price moved: a 2-hop trade reverts on its minimum and delivers nothing, on each router kind', async (t) => {
  const cases: { net: 'A' | 'B'; c: TradeSpec; move: [string, string, string, string, string]; reason: string }[] = [
    {
      net: 'A',
      c: { tokenIn: 'LINK', tokenOut: 'USDC', amount: '5000', maxSplits: 1, deployments: V3 },
      move: ['LINK', 'WETH', '20000', 'uniswap/v3', 'LINK/WETH 3000'],
      reason: 'Too little received',
    },
    {
      net: 'B',
      c: { tokenIn: 'LINK', tokenOut: 'USDC', amount: '5000', maxSplits: 1, deployments: V3 },
      move: ['LINK', 'WETH', '20000', 'uniswap/v3', 'LINK/WETH 3000'],
      reason: 'Too little received',
    },
    {
      net: 'A',
      c: { tokenIn: 'WBTC', tokenOut: 'DAI', amount: '2', maxHops: 2, maxSplits: 1, deployments: V2 },
      move: ['WBTC', 'WETH', '5', 'uniswap/v2', 'WBTC/WETH'],
      reason: 'UniswapV2Router: INSUFFICIENT_OUTPUT_AMOUNT',
    },
    // Two fee tiers in one multicall: the sum is enforced by sweepToken, so one moved pool reverts the whole call.
    {
      net: 'B',
      c: { tokenIn: 'WETH', tokenOut: 'USDC', amount: '300', maxHops: 1, maxSplits: 2, deployments: V3 },
      move: ['WETH', 'USDC', '100', 'uniswap/v3', 'USDC/WETH 3000'],
      reason: 'Insufficient token',
    },
  ];
  for (const { net: which, c, move, reason } of cases) {
    const net = nets[which];
    await freshState(net);
    const trade = tradeFor(net, c);
    const account = sender(net);
    const recipient = addressFor(`trade-steps:moved:${which}:${c.tokenIn}:${c.tokenOut}`);
    await fund(net, account.address, token(net, c.tokenIn), trade.amountIn);
    const steps = buildTradeSteps({
      chain: net.chain,
      trade,
      tokenIn: token(net, c.tokenIn),
      tokenOut: token(net, c.tokenOut),
      amountOutMinimum: trade.amountOut,
      recipient,
      wallet: account.address,
      deadline: await deadline(net),
    });
    await movePool(net, ...move);
    t.equal(steps.length, 2, 'an approval and one swap');
    t.equal((await net.wallet.sendStep(account, steps[0])).status, 'success', 'the approval still goes through');
    const swap = steps[1];
    await t.rejects(
      net.wallet.client.estimateGas({ account, to: swap.to, data: swap.data }),
      { message: new RegExp(reason) },
      `${trade.splits[0].route.executor.kind}: simulation reverts: ${reason}`,
    );
    const before = await net.wallet.balanceOf(token(net, c.tokenOut).address, recipient);
    const receipt = await net.wallet.sendStep(account, swap, BigInt(swap.gasLimit!));
    t.equal(receipt.status, 'reverted', 'the mined swap reverted');
    t.equal(await net.wallet.balanceOf(token(net, c.tokenOut).address, recipient), before, 'the recipient got nothing');
    t.equal(await net.wallet.balanceOf(token(net, c.tokenIn).address, account.address), trade.amountIn, 'the sender kept its input');
  }
});

t.test('price moved under one part of a trade through two routers: that part reverts, the other delivers its own share', async (t) => {
  const net = nets.A;
  await freshState(net);
  const trade = tradeFor(net, {
    tokenIn: 'WETH',
    tokenOut: 'USDC',
    amount: '500',
    maxHops: 1,
    maxSplits: 2,
    deployments: ['sushiswap/v2', 'uniswap/v3'],
    without: ['uniswap/v3 USDC/WETH 3000'],
  });
  const sushi = trade.splits.find((s) => s.route.executor.kind === 'UniswapV2Router02')!.route;
  const v3 = trade.splits.find((s) => s.route.executor.kind === 'SwapRouter02')!.route;
  const account = sender(net);
  const recipient = addressFor('trade-steps:moved:two-routers');
  const WETH = token(net, 'WETH');
  const USDC = token(net, 'USDC');
  await fund(net, account.address, WETH, trade.amountIn);
  const steps = buildTradeSteps({
    chain: net.chain,
    trade,
    tokenIn: WETH,
    tokenOut: USDC,
    amountOutMinimum: trade.amountOut,
    recipient,
    wallet: account.address,
    deadline: await deadline(net),
  });
  t.equal(steps.length, 4, 'an approval and a swap per router');
  await movePool(net, 'WETH', 'USDC', '200', 'uniswap/v3', `USDC/WETH ${v3.legs[0].fee}`);
  const statuses: string[] = [];
  for (const step of steps) statuses.push((await net.wallet.sendStep(account, step, BigInt(step.gasLimit!))).status);
  const v3Swap = steps.findIndex((s) => s.to === getAddress(v3.executor.address) && s.spender === undefined);
  t.strictSame(
    statuses.map((s, i) => [steps[i].message, s]),
    steps.map((s, i) => [s.message, i === v3Swap ? 'reverted' : 'success']),
    'only the moved part reverted',
  );
  t.equal(await net.wallet.balanceOf(USDC.address, recipient), sushi.amountOut, 'the recipient got exactly the SushiSwap part');
  t.equal(await net.wallet.balanceOf(WETH.address, account.address), v3.amountIn, "the wallet kept the reverted part's input");
});

t.test('a passed deadline reverts on every router kind', async (t) => {
  const cases: { net: 'A' | 'B'; deployments: readonly string[]; reason: string }[] = [
    { net: 'A', deployments: V2, reason: 'UniswapV2Router: EXPIRED' },
    { net: 'A', deployments: V3, reason: 'Transaction too old' },
    { net: 'B', deployments: V3, reason: 'Transaction too old' },
  ];
  for (const { net: which, deployments, reason } of cases) {
    const net = nets[which];
    await freshState(net);
    const trade = tradeFor(net, { tokenIn: 'ETH', tokenOut: 'USDC', amount: '0.1', maxSplits: 1, deployments });
    const account = sender(net);
    const [swap] = buildTradeSteps({
      chain: net.chain,
      trade,
      tokenIn: token(net, 'ETH'),
      tokenOut: token(net, 'USDC'),
      amountOutMinimum: 0n,
      recipient: account.address,
      wallet: account.address,
      deadline: await deadline(net, -1),
    });
    await t.rejects(
      net.wallet.client.estimateGas({ account, to: swap!.to, data: swap!.data as Hex, value: BigInt(swap!.value!) }),
      { message: new RegExp(reason) },
      `${trade.splits[0].route.executor.kind}: ${reason}`,
    );
  }
});

const QUOTER_V2_ABI = artifactAbi('@uniswap/v3-periphery/artifacts/contracts/lens/QuoterV2.sol/QuoterV2.json');
const V2_ROUTER_ABI = artifactAbi('@uniswap/v2-periphery/build/UniswapV2Router02.json');

/**
 * What the chain asks now for a route's exact output: QuoterV2.quoteExactOutput (v3 routes, reversed packed path)
 * or the DEX's UniswapV2Router02.getAmountsIn (v2 routes).
 */
async function chainAmountIn(net: Net, route: Route): Promise<bigint> {
  const legs = route.legs;
  const tokens = [legs[0].tokenIn, ...legs.map((l) => l.tokenOut)].map((x) => getAddress(x));
  const dex = net.chain.dexes.find((d) => d.slug === legs[0].dex && d.version === legs[0].version)!;
  if (dex.version === 'v2') {
    const amounts = (await net.wallet.client.readContract({
      address: dex.v2RouterAddress as Address,
      abi: V2_ROUTER_ABI,
      functionName: 'getAmountsIn',
      args: [route.amountOut, tokens],
    })) as readonly bigint[];
    return amounts[0];
  }
  const reversed = [...tokens].reverse();
  const fees = legs.map((l) => l.fee).reverse();
  const path = encodePacked(
    reversed.flatMap((_, i) => (i === 0 ? ['address'] : ['uint24', 'address'])) as ('address' | 'uint24')[],
    reversed.flatMap((x, i) => (i === 0 ? [x] : [fees[i - 1], x])),
  );
  const { result } = await net.wallet.client.simulateContract({
    address: dex.v3QuoterAddress as Address,
    abi: QUOTER_V2_ABI,
    functionName: 'quoteExactOutput',
    args: [path, route.amountOut],
  });
  return (result as readonly [bigint])[0];
}

interface ExactOutputMove {
  readonly net: 'A' | 'B';
  readonly c: TradeSpec;
  /** [tokenIn, tokenOut, deployment, pool] of the mover's swap; the amounts in display units of its tokenIn. */
  readonly pool: readonly [string, string, string, string];
  readonly within: string;
  readonly beyond: string;
  /** The revert reason beyond the slippage. */
  readonly reason: string;
}

/**
 * A v3 router's exact-output swap pulls the input in the pool's callback before it checks amountInMaximum: with the
 * approval (or the value, which the router wraps only while it covers the amount) exactly amountInMaximum, the pull
 * of more fails first, as TransferHelper's `STF`.
 */
const V3_BEYOND = 'STF';

const EXACT_OUTPUT_MOVES: readonly ExactOutputMove[] = [
  {
    net: 'A',
    c: { tokenIn: 'LINK', tokenOut: 'USDC', tradeType: 'exactOut', amount: '5000', maxSplits: 1, deployments: V3 },
    pool: ['LINK', 'WETH', 'uniswap/v3', 'LINK/WETH 3000'],
    within: '20',
    beyond: '5000',
    reason: V3_BEYOND,
  },
  {
    net: 'B',
    c: { tokenIn: 'LINK', tokenOut: 'USDC', tradeType: 'exactOut', amount: '5000', maxSplits: 1, deployments: V3 },
    pool: ['LINK', 'WETH', 'uniswap/v3', 'LINK/WETH 3000'],
    within: '20',
    beyond: '5000',
    reason: V3_BEYOND,
  },
  {
    net: 'A',
    c: { tokenIn: 'WBTC', tokenOut: 'DAI', tradeType: 'exactOut', amount: '50000', maxHops: 2, maxSplits: 1, deployments: V2 },
    pool: ['WBTC', 'WETH', 'uniswap/v2', 'WBTC/WETH'],
    within: '0.02',
    beyond: '5',
    reason: 'UniswapV2Router: EXCESSIVE_INPUT_AMOUNT',
  },
  {
    net: 'A',
    c: { tokenIn: 'ETH', tokenOut: 'USDC', tradeType: 'exactOut', amount: '100000', maxHops: 1, maxSplits: 1, deployments: V3 },
    pool: ['WETH', 'USDC', 'uniswap/v3', 'USDC/WETH 500'],
    within: '3',
    beyond: '300',
    reason: V3_BEYOND,
  },
  {
    net: 'A',
    c: {
      tokenIn: 'ETH',
      tokenOut: 'USDT',
      tradeType: 'exactOut',
      amount: '20000',
      maxSplits: 1,
      deployments: V2,
      without: ['uniswap/v2 USDT/WETH'],
    },
    pool: ['WETH', 'USDC', 'uniswap/v2', 'USDC/WETH'],
    within: '0.5',
    beyond: '100',
    reason: 'UniswapV2Router: EXCESSIVE_INPUT_AMOUNT',
  },
  {
    net: 'B',
    c: {
      tokenIn: 'ETH',
      tokenOut: 'WBTC',
      tradeType: 'exactOut',
      amount: '0.5',
      maxSplits: 1,
      deployments: V3,
      without: ['uniswap/v3 WBTC/WETH 3000'],
    },
    pool: ['WETH', 'USDC', 'uniswap/v3', 'USDC/WETH 500'],
    within: '1',
    beyond: '300',
    reason: V3_BEYOND,
  },
];

for (const m of EXACT_OUTPUT_MOVES) {
  const net = nets[m.net];
  const routerOf = (trade: Trade): string => trade.splits[0].route.executor.kind;
  t.test(
    `exact output, ${m.c.tokenIn} -> ${m.c.amount} ${m.c.tokenOut} (${net.name}): price moved within the slippage, exactly amountOut for what the chain asks, at most amountInMaximum`,
    async (t) => {
      await freshState(net);
      const trade = tradeFor(net, m.c);
      const tokenIn = token(net, m.c.tokenIn);
      const tokenOut = token(net, m.c.tokenOut);
      const account = sender(net);
      const recipient = addressFor(`trade-steps:exact-output:within:${m.net}:${m.c.tokenIn}:${m.c.tokenOut}`);
      const bounds = limits(trade);
      await fund(net, account.address, tokenIn, bounds.amountInMaximum!);
      const steps = buildTradeSteps({
        chain: net.chain,
        trade,
        tokenIn,
        tokenOut,
        ...bounds,
        recipient,
        wallet: account.address,
        deadline: await deadline(net),
      });
      await movePool(net, m.pool[0], m.pool[1], m.within, m.pool[2], m.pool[3]);
      const asked = await chainAmountIn(net, trade.splits[0].route);
      t.ok(
        asked > trade.amountIn && asked <= bounds.amountInMaximum!,
        `${routerOf(trade)}: the chain now asks ${asked}, more than amountIn ${trade.amountIn}, at most amountInMaximum ${bounds.amountInMaximum}`,
      );
      const outBefore = await net.wallet.balanceOf(tokenOut.address, recipient);
      const inBefore = await net.wallet.balanceOf(tokenIn.address, account.address);
      const receipts = await sendWithLimits(net, account, steps);
      t.equal(
        (await net.wallet.balanceOf(tokenOut.address, recipient)) - outBefore,
        trade.amountOut,
        'the recipient received exactly amountOut',
      );
      const spent = inBefore - (await net.wallet.balanceOf(tokenIn.address, account.address));
      t.equal(
        spent,
        asked + (tokenIn.address === NATIVE_TOKEN_ADDRESS ? gasPaid(receipts) : 0n),
        'the sender spent exactly what the chain asked (native: the refund returned the rest of the value, to the wei net of gas)',
      );
      for (const held of [NATIVE_TOKEN_ADDRESS, net.chain.wrappedNativeToken, tokenIn.address, tokenOut.address]) {
        t.equal(
          await net.wallet.balanceOf(held, trade.splits[0].route.executor.address as Address),
          0n,
          `${symbolOf(net, held)} left in the router: none`,
        );
      }
    },
  );

  t.test(
    `exact output, ${m.c.tokenIn} -> ${m.c.amount} ${m.c.tokenOut} (${net.name}): price moved beyond the slippage, the swap reverts and only gas is spent`,
    async (t) => {
      await freshState(net);
      const trade = tradeFor(net, m.c);
      const tokenIn = token(net, m.c.tokenIn);
      const tokenOut = token(net, m.c.tokenOut);
      const account = sender(net);
      const recipient = addressFor(`trade-steps:exact-output:beyond:${m.net}:${m.c.tokenIn}:${m.c.tokenOut}`);
      const bounds = limits(trade);
      await fund(net, account.address, tokenIn, bounds.amountInMaximum!);
      const steps = buildTradeSteps({
        chain: net.chain,
        trade,
        tokenIn,
        tokenOut,
        ...bounds,
        recipient,
        wallet: account.address,
        deadline: await deadline(net),
      });
      await movePool(net, m.pool[0], m.pool[1], m.beyond, m.pool[2], m.pool[3]);
      const asked = await chainAmountIn(net, trade.splits[0].route);
      t.ok(asked > bounds.amountInMaximum!, `the chain now asks ${asked} > amountInMaximum ${bounds.amountInMaximum}`);
      const swap = steps[steps.length - 1];
      if (steps.length === 2) t.equal((await net.wallet.sendStep(account, steps[0])).status, 'success', 'the approval still goes through');
      const value = swap.value === undefined ? undefined : BigInt(swap.value);
      await t.rejects(
        net.wallet.client.estimateGas({ account, to: swap.to, data: swap.data, value }),
        { message: new RegExp(m.reason) },
        `${routerOf(trade)}: simulation reverts: ${m.reason}`,
      );
      const outBefore = await net.wallet.balanceOf(tokenOut.address, recipient);
      const inBefore = await net.wallet.balanceOf(tokenIn.address, account.address);
      const receipt = await net.wallet.sendStep(account, swap, BigInt(swap.gasLimit!));
      t.equal(receipt.status, 'reverted', 'the mined swap reverted');
      t.equal(await net.wallet.balanceOf(tokenOut.address, recipient), outBefore, 'the recipient got nothing');
      const spent = inBefore - (await net.wallet.balanceOf(tokenIn.address, account.address));
      t.equal(spent, tokenIn.address === NATIVE_TOKEN_ADDRESS ? gasPaid([receipt]) : 0n, 'the sender spent nothing but gas');
    },
  );
}
