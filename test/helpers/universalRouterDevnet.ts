import { type Address, parseUnits, type TransactionReceipt, zeroAddress } from 'viem';
import { type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import { fundAccount } from '../../seeds/devnet/fundAccount.ts';
import { jsonRpc } from '../../seeds/devnet/jsonRpc.ts';
import { type CatalogToken, NATIVE_TOKEN_ADDRESS } from '../../src/catalog/Catalog.ts';
import { PoolGraph } from '../../src/graph/PoolGraph.ts';
import { type ChainPoolIndex, type PoolEntry, PricingGraph } from '../../src/graph/PricingGraph.ts';
import type { Snapshot } from '../../src/graph/snapshot.ts';
import type { TradeType } from '../../src/protocols/PoolProtocol.ts';
import type { SnapshotPoolV4 } from '../../src/protocols/uniswapV4/SnapshotPoolV4.ts';
import { bestTrade } from '../../src/routing/bestTrade.ts';
import { maximumAmountIn } from '../../src/routing/slippageLimits.ts';
import type { Trade } from '../../src/routing/Trade.ts';
import { type ApprovalMode, buildTradeSteps, permit2Of } from '../../src/tx/buildTradeSteps.ts';
import { type PermitSingle, permitTypedData } from '../../src/tx/permit2.ts';
import type { Step } from '../../src/tx/Step.ts';
import { devnetWallet, freshAddress } from './devnetWallet.ts';
import { type SeededDevnet, startSeededDevnet } from './followDevnet.ts';

// Test support (not a test): the set-up the Universal Router devnet tests share (tx/universalRouter*.devnet.test.ts):
// a seeded devnet with Uniswap v4, its state reset per case (evm_revert), trades steered by the pools a case allows,
// their steps built and sent exactly as returned.

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

/** A case made ready to send: the trade, its steps for the sender (funded with the most it may spend), the recipient. */
export interface PreparedCase {
  readonly trade: Trade;
  readonly steps: Step[];
  readonly recipient: Address;
  readonly tokenIn: CatalogToken;
  readonly tokenOut: CatalogToken;
  readonly nativeIn: boolean;
  /** The most the steps may spend: amountIn, or exact output's maximum at 0.5% slippage. */
  readonly most: bigint;
}

export type RouterDevnet = Awaited<ReturnType<typeof startRouterDevnet>>;

/** Starts the seeded devnet with Uniswap v4 (`prefix` names its snapshot folder); `cleanup` registers teardown. */
export async function startRouterDevnet(cleanup: (fn: () => unknown) => void, prefix: string) {
  const seeded: SeededDevnet = await startSeededDevnet(cleanup, prefix, { v4: true });
  const { devnet, catalog, chain, seedNow } = seeded;
  if (!devnet.v4) throw new Error('startSeededDevnet({ v4: true }) returned no v4 deployment');
  /** A snapshot priced as the service prices it. */
  const pricing = (s: Snapshot): ChainPoolIndex => new PricingGraph(new PoolGraph([s], catalog), catalog).chain(chain.chainId)!;
  // The seeding run's snapshot itself.
  const index = pricing(await seedNow());
  const wallet = devnetWallet(devnet);
  let baseline = await jsonRpc<string>(devnet.rpcUrl, 'evm_snapshot');
  const router = chain.dexes.find((d) => d.version === 'v4')!.universalRouterAddress as Address;
  const permit2 = permit2Of(chain, router);
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

  /** bestTrade's trade for a case on `on` (the seeded state by default), gas ignored. */
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
      allow: (e) => c.pools.includes(poolKey(e)),
    });
    if (!outcome.ok) throw new Error(`no trade: ${outcome.code}`);
    return outcome.trade;
  }

  /** The steps of a trade for `account`, paying `recipient`; approvalMode "permit2" signs the permit with the account's key. */
  async function stepsFor(c: RouterCase, trade: Trade, account: PrivateKeyAccount, recipient: Address): Promise<Step[]> {
    const exactOut = trade.tradeType === 'exactOut';
    const amountInMaximum = exactOut ? maximumAmountIn(trade.amountIn, 50) : trade.amountIn;
    const end = Number((await wallet.client.getBlock()).timestamp) + 300;
    const mode = c.approvalMode ?? 'approve';
    const nativeIn = token(c.tokenIn).address === NATIVE_TOKEN_ADDRESS;
    let permit2Permit: { permit: PermitSingle; signature: `0x${string}` } | undefined;
    if (mode === 'permit2' && !nativeIn) {
      const permit: PermitSingle = {
        details: { token: token(c.tokenIn).address as Address, amount: amountInMaximum, expiration: end, nonce: 0 },
        spender: router,
        sigDeadline: BigInt(end),
      };
      // A wallet signs the typed data as given: the devnet's Permit2 answers its domain (devnetPermit2Code).
      const signature = await account.signTypedData(permitTypedData(chain.chainId, permit2, permit));
      permit2Permit = { permit, signature };
    }
    return buildTradeSteps({
      chain,
      trade,
      tokenIn: token(c.tokenIn),
      tokenOut: token(c.tokenOut),
      amountOutMinimum: trade.amountOut,
      ...(exactOut ? { amountInMaximum } : {}),
      recipient,
      wallet: account.address,
      deadline: end,
      approvalMode: mode,
      ...(permit2Permit ? { permit2Permit } : {}),
    });
  }

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

  const sender = privateKeyToAccount(devnet.accounts[1].privateKey);
  return {
    ...seeded,
    v4: devnet.v4,
    pricing,
    index,
    wallet,
    router,
    sender,
    mover: privateKeyToAccount(devnet.accounts[2].privateKey),
    token,
    symbolOf,
    poolKey,
    shape,
    tradeFor,
    stepsFor,
    send,
    /** Back to the seeded state (evm_revert), kept for the next case. */
    async freshState(): Promise<void> {
      if (!(await jsonRpc<boolean>(devnet.rpcUrl, 'evm_revert', [baseline]))) throw new Error('evm_revert failed');
      baseline = await jsonRpc<string>(devnet.rpcUrl, 'evm_snapshot');
    },
    /** The case's trade on the seeded state (its shape is `shape(trade)`), the sender funded and its steps built. */
    async prepare(c: RouterCase, label: string): Promise<PreparedCase> {
      const trade = tradeFor(c);
      const recipient = freshAddress(label);
      const [tokenIn, tokenOut] = [token(c.tokenIn), token(c.tokenOut)];
      const nativeIn = tokenIn.address === NATIVE_TOKEN_ADDRESS;
      const most = trade.tradeType === 'exactOut' ? maximumAmountIn(trade.amountIn, 50) : trade.amountIn;
      if (!nativeIn) await fundAccount(devnet.rpcUrl, sender.address, tokenIn.address as Address, most);
      const steps = await stepsFor(c, trade, sender, recipient);
      return { trade, steps, recipient, tokenIn, tokenOut, nativeIn, most };
    },
  };
}
