import { basename } from 'node:path';
import type { Test } from 'tap';
import { type Address, parseUnits, type TransactionReceipt, zeroAddress } from 'viem';
import { type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import { fundAccount } from '../../seeds/devnet/fundAccount.ts';
import { jsonRpc } from '../../seeds/devnet/jsonRpc.ts';
import { type CatalogToken, NATIVE_TOKEN_ADDRESS } from '../../src/catalog/Catalog.ts';
import type { ChainPoolIndex, PoolEntry } from '../../src/graph/ChainPoolIndex.ts';
import { PoolGraph } from '../../src/graph/PoolGraph.ts';
import { PricingGraph } from '../../src/graph/PricingGraph.ts';
import type { Snapshot } from '../../src/graph/snapshot.ts';
import type { TradeType } from '../../src/protocols/PoolProtocol.ts';
import type { SnapshotPoolV4 } from '../../src/protocols/uniswapV4/SnapshotPoolV4.ts';
import { bestTrade } from '../../src/routing/bestTrade.ts';
import type { ApprovalMode } from '../../src/routing/RoutingLimits.ts';
import { maximumAmountIn } from '../../src/routing/slippageLimits.ts';
import type { Trade } from '../../src/routing/Trade.ts';
import type { Step } from '../../src/tx/Step.ts';
import type { TradeGasFixture } from './devnetGas.ts';
import { devnetWallet, freshAddress, gasPaid } from './devnetWallet.ts';
import { startSeededDevnet } from './followDevnet.ts';
import { nextBlockLater, UniversalRouterGasRecord, type UniversalRouterTradeParams, universalRouterSteps } from './universalRouterGas.ts';

// Test support (not a test): the set-up the Universal Router devnet tests share (test/tx/universalRouter.devnet.test.ts,
// universalRouterNative.devnet.test.ts): a seeded devnet with Uniswap v4, its state reset per case (evm_revert), trades
// steered by the pools a case allows to the shape it names, their steps built as a wallet would send them
// (universalRouterGas.ts) and sent exactly as returned, with their own gasLimit. Each case runs from the seeded state
// (pools cold), then again a block later, priced on the new state, from another account on the pools the first run
// traded (pools warm); the amounts are checked beside each file's own checks and the gas is held to the model and
// recorded (RECORD_GAS_FIXTURE=1).

/** A trade case: the pools it may use (poolKey) steer bestTrade to the shape named. */
export interface RouterCase {
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

/** One run of a case, ready to send: its trade, the account funded with the most it may spend, the steps built. */
export interface CaseRun {
  readonly case: RouterCase;
  readonly trade: Trade;
  readonly tokenIn: CatalogToken;
  readonly tokenOut: CatalogToken;
  readonly nativeIn: boolean;
  /** The most the steps may spend: amountIn, or exact output's maximum at 0.5% slippage. */
  readonly most: bigint;
  readonly steps: readonly Step[];
}

/**
 * A test file's own checks of a run: called on the steps before they are sent, it returns the checks to make once they
 * are sent and the amounts checked (what the router and other contracts hold).
 */
export type RunChecks = (t: Test, run: CaseRun) => Promise<() => Promise<void>>;

export interface UniversalRouterDevnetOptions {
  /** Names the temporary snapshot folder. */
  readonly prefix: string;
  /** Starts the seed of each recipient's fresh address (`${recipients} cold ${case}`): each file pays its own. */
  readonly recipients: string;
  /** The fixture RECORD_GAS_FIXTURE=1 records the receipts into, and the test file that records it. */
  readonly fixture: TradeGasFixture;
  readonly test: string;
}

/** Starts the seeded devnet with Uniswap v4 for a Universal Router devnet test; `t.teardown` stops it. */
export async function startUniversalRouterDevnet(t: Test, options: UniversalRouterDevnetOptions) {
  const seeded = await startSeededDevnet(t.teardown, options.prefix, { v4: true });
  const { devnet, catalog, chain, seedNow } = seeded;
  if (!devnet.v4) throw new Error('startSeededDevnet({ v4: true }) returned no v4 deployment');
  /** A snapshot priced as the service prices it. */
  const pricing = (s: Snapshot): ChainPoolIndex => new PricingGraph(new PoolGraph([s], catalog), catalog).chain(chain.chainId)!;
  // The seeding run's snapshot itself.
  const index = pricing(await seedNow());
  const wallet = devnetWallet(devnet);
  let baseline = await jsonRpc<string>(devnet.rpcUrl, 'evm_snapshot');
  const router = chain.dexes.find((d) => d.version === 'v4')!.universalRouterAddress as Address;
  const sender = privateKeyToAccount(devnet.accounts[1].privateKey);
  const mover = privateKeyToAccount(devnet.accounts[2].privateKey);
  const warmSender = privateKeyToAccount(devnet.accounts[3].privateKey);
  const gas = new UniversalRouterGasRecord(options.fixture, options.test);

  /** Back to the seeded state (evm_revert), kept for the next case. */
  async function freshState(): Promise<void> {
    if (!(await jsonRpc<boolean>(devnet.rpcUrl, 'evm_revert', [baseline]))) throw new Error('evm_revert failed');
    baseline = await jsonRpc<string>(devnet.rpcUrl, 'evm_snapshot');
  }

  const token = (symbol: string): CatalogToken => chain.tokens.find((x) => x.symbol === symbol)!;
  /** Native ETH as a v4 pool holds it shows as 'ETH', the catalogue's native asset too. */
  const symbolOf = (address: string): string =>
    address === zeroAddress ? 'ETH' : chain.tokens.find((x) => x.address.toLowerCase() === address.toLowerCase())!.symbol;

  /** A pool as `uniswap/v4 ETH/USDC 500` (v2 without a fee; ` hooked` after a v4 pool with a hook). */
  function poolKey(e: PoolEntry): string {
    const pair = [symbolOf(e.token0), symbolOf(e.token1)].sort().join('/');
    const hooked = e.version === 'v4' && BigInt((e.state as SnapshotPoolV4).hooks) !== 0n ? ' hooked' : '';
    return `${e.dex}/${e.version} ${pair}${e.version === 'v2' ? '' : ` ${e.state.fee}`}${hooked}`;
  }

  /** The trade's routes as `executor: TOKEN -dex/version fee-> TOKEN …`, ` | TOKEN` where the next pool holds the other of ETH/WETH. */
  function shape(trade: Trade): string[] {
    return trade.splits.map(({ route }) => {
      const hops = route.legs.map((l, i) => {
        const cross = i > 0 && route.legs[i - 1].tokenOut !== l.tokenIn ? ` | ${symbolOf(l.tokenIn)}` : '';
        return `${cross} -${l.dex}/${l.version}${l.version === 'v2' ? '' : ` ${l.fee}`}-> ${symbolOf(l.tokenOut)}`;
      });
      return `${route.executor.kind}: ${symbolOf(route.legs[0].tokenIn)}${hops.join('')}`;
    });
  }

  /** bestTrade's trade for a case on `on` (the seeded state by default), gas priced at zero. */
  function tradeFor(c: RouterCase, on: ChainPoolIndex = index): Trade {
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

  /** A case's trade as universalRouterSteps takes it: sent by `account`, paying `recipient`, in the case's approval mode. */
  function paramsFor(c: RouterCase, trade: Trade, account: PrivateKeyAccount, recipient: Address): UniversalRouterTradeParams {
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

  const stepsFor = (c: RouterCase, trade: Trade, account: PrivateKeyAccount, recipient: Address): Promise<Step[]> =>
    universalRouterSteps(paramsFor(c, trade, account, recipient));

  /** Sends each step exactly as returned, with its own gasLimit; throws on a revert. */
  async function send(steps: readonly Step[], account: PrivateKeyAccount): Promise<TransactionReceipt[]> {
    const receipts: TransactionReceipt[] = [];
    for (const step of steps) {
      const receipt = await wallet.sendStep(account, step, BigInt(step.gasLimit!));
      if (receipt.status !== 'success') throw new Error(`step "${step.message}" reverted (gasUsed ${receipt.gasUsed} of ${step.gasLimit})`);
      receipts.push(receipt);
    }
    return receipts;
  }

  /**
   * Executes a case's trade priced on `on` from `account` and checks it: the shape, the amounts, the file's own
   * `checks`, the gas (`pools`: whether the trade's pools were traded before).
   */
  async function execute(
    t: Test,
    c: RouterCase,
    on: ChainPoolIndex,
    account: PrivateKeyAccount,
    pools: 'cold' | 'warm',
    checks: RunChecks,
  ) {
    const trade = tradeFor(c, on);
    t.strictSame(shape(trade), c.shape, 'the trade has the shape the case names');
    const recipient = freshAddress(`${options.recipients} ${pools} ${c.name}`);
    const tIn = token(c.tokenIn);
    const tOut = token(c.tokenOut);
    const nativeIn = tIn.address === NATIVE_TOKEN_ADDRESS;
    const most = trade.tradeType === 'exactOut' ? maximumAmountIn(trade.amountIn, 50) : trade.amountIn;
    if (!nativeIn) await fundAccount(devnet.rpcUrl, account.address, tIn.address as Address, most);
    const steps = await stepsFor(c, trade, account, recipient);
    const afterSend = await checks(t, { case: c, trade, tokenIn: tIn, tokenOut: tOut, nativeIn, most, steps });
    const inBefore = await wallet.balanceOf(tIn.address, account.address);
    const receipts = await send(steps, account);
    const spent = inBefore - (await wallet.balanceOf(tIn.address, account.address)) - (nativeIn ? gasPaid(receipts) : 0n);
    t.equal(await wallet.balanceOf(tOut.address, recipient), trade.amountOut, 'the recipient receives exactly amountOut');
    // Exact output spends what the pools asked on the unmoved state: the trade's amountIn.
    t.equal(spent, trade.amountIn, 'the wallet spends exactly amountIn');
    await afterSend();
    gas.check(t, `${c.name} (${pools})`, pools, paramsFor(c, trade, account, recipient), steps, receipts);
  }

  return {
    ...seeded,
    v4: devnet.v4,
    pricing,
    index,
    wallet,
    router,
    sender,
    mover,
    token,
    symbolOf,
    poolKey,
    shape,
    tradeFor,
    stepsFor,
    send,
    freshState,
    /** A subtest per case: executed from the seeded state by `sender`, then a block later by another account (pools warm). */
    testCases(t: Test, cases: readonly RouterCase[], checks: RunChecks): void {
      for (const c of cases) {
        t.test(c.name, async (t) => {
          await freshState();
          await execute(t, c, index, sender, 'cold', checks);
          // The same trade again from a wallet that never held the token, on the pools the first one traded, a block later.
          await nextBlockLater(devnet.rpcUrl);
          await execute(t, c, pricing(await seedNow()), warmSender, 'warm', checks);
        });
      }
    },
    /** The subtest printing the gas table of `cases` (all run by testCases) and, with RECORD_GAS_FIXTURE=1, recording it. */
    testGas(t: Test, cases: readonly RouterCase[]): void {
      t.test('gas: estimate vs gasUsed', async (t) => {
        gas.finish(
          t,
          2 * cases.length,
          `receipts of ${basename(options.test, '.test.ts')}'s trades, each case from the seeded devnet (evm_revert; its v4 pools never traded: pools cold), then again, priced on the new state, from another account on the pools the first run traded (pools warm); every step sent with its own gasLimit by an account that never held the input token; gasUsed per step as the receipt reports it`,
        );
      });
    },
  };
}
