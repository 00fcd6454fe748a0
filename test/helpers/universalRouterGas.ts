import type { Test } from 'tap';
import type { Address, TransactionReceipt } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import { jsonRpc } from '../../seeds/devnet/jsonRpc.ts';
import { type CatalogChain, type CatalogToken, NATIVE_TOKEN_ADDRESS } from '../../src/catalog/Catalog.ts';
import type { ApprovalMode } from '../../src/routing/RoutingLimits.ts';
import { maximumAmountIn } from '../../src/routing/slippageLimits.ts';
import type { Trade } from '../../src/routing/Trade.ts';
import { buildTradeSteps } from '../../src/tx/buildTradeSteps.ts';
import { permit2Of } from '../../src/tx/executorSteps.ts';
import { type PermitSingle, permitTypedData } from '../../src/tx/permit2.ts';
import type { Step } from '../../src/tx/Step.ts';
import { type DevnetGasCase, type TradeGasFixture, tradeGasCase, writeTradeGasFixture } from './devnetGas.ts';
import type { DevnetWallet } from './devnetWallet.ts';

// Test support (not a test): Universal Router trades of the devnet built as a wallet would send them (approve or
// Permit2 mode, the permit signed by the account's key), and their gas held to the gas model: each swap step's
// estimate (read back from its gasLimit) and the trade's gasEstimate within UR_GAS_TOLERANCE of what the chain used;
// the measurements recorded, with the route shapes, for the chain-free fixture (RECORD_GAS_FIXTURE=1).

/**
 * How far (percent) an estimate may be from the gasUsed of a Universal Router trade. The swap step: ±4% on pools
 * never traded (the fit's cases, all within ±3.4%), ±5% on pools traded before (−4.6% … +4.2%: a v4 pool charging a
 * protocol fee pays protocolFeesAccrued[currency] as a write from zero only while it is zero, which the snapshot
 * records, SnapshotPoolV4.protocolFeesAccruedSet; charged from zero always, those trades read up to +9.2%). The
 * trade's gasEstimate against all its steps: ±5% in either approval mode (approve −3.6% … +4.2%, permit2 −1.9% …
 * +1.1%: the search prices the approval mode, the permit in the swap and no `Permit2.approve`).
 */
export const UR_GAS_TOLERANCE = { swap: { cold: 4, warm: 5 }, trade: { approve: 5, permit2: 5 } } as const;

/** A trade to build steps for: its tokens, the account that sends it, its recipient, the approval mode. */
export interface UniversalRouterTradeParams {
  readonly chain: CatalogChain;
  readonly wallet: DevnetWallet;
  readonly trade: Trade;
  readonly tokenIn: CatalogToken;
  readonly tokenOut: CatalogToken;
  readonly account: PrivateKeyAccount;
  readonly recipient: Address;
  readonly approvalMode?: ApprovalMode;
}

/**
 * The steps of a Universal Router trade for `account`, paying `recipient` at least amountOut (exact output: at most
 * amountIn + 0.5%), with a deadline 5 minutes after the devnet's head; approvalMode "permit2" with an ERC-20 input
 * signs the PermitSingle with the account's key (the devnet's Permit2 answers the domain as on real chains).
 */
export async function universalRouterSteps(p: UniversalRouterTradeParams): Promise<Step[]> {
  const { chain, trade } = p;
  const exactOut = trade.tradeType === 'exactOut';
  const amountInMaximum = exactOut ? maximumAmountIn(trade.amountIn, 50) : trade.amountIn;
  const end = Number((await p.wallet.client.getBlock()).timestamp) + 300;
  const mode = p.approvalMode ?? 'approve';
  const router = trade.splits[0].route.executor.address as Address;
  let permit2Permit: { permit: PermitSingle; signature: `0x${string}` } | undefined;
  if (mode === 'permit2' && p.tokenIn.address !== NATIVE_TOKEN_ADDRESS) {
    const permit: PermitSingle = {
      details: { token: p.tokenIn.address as Address, amount: amountInMaximum, expiration: end, nonce: 0 },
      spender: router,
      sigDeadline: BigInt(end),
    };
    const signature = await p.account.signTypedData(permitTypedData(chain.chainId, permit2Of(chain, router), permit));
    permit2Permit = { permit, signature };
  }
  return buildTradeSteps({
    chain,
    trade,
    tokenIn: p.tokenIn,
    tokenOut: p.tokenOut,
    amountOutMinimum: trade.amountOut,
    ...(exactOut ? { amountInMaximum } : {}),
    recipient: p.recipient,
    wallet: p.account.address,
    deadline: end,
    approvalMode: mode,
    ...(permit2Permit ? { permit2Permit } : {}),
  });
}

/**
 * Moves the devnet's clock on by a block's time and mines, so the next trade runs in a later block than the last one,
 * as on a live chain (a v2 pair writes its price accumulators and a v3 pool its oracle only when time has passed).
 */
export async function nextBlockLater(rpcUrl: string, seconds = 12): Promise<void> {
  await jsonRpc(rpcUrl, 'evm_increaseTime', [seconds]);
  await jsonRpc(rpcUrl, 'evm_mine', []);
}

/** The estimate a gasLimit was made from (gasModel.gasLimit: estimate x 5/4 rounded up, + 50,000), to the unit. */
export function estimateOfLimit(limit: string): bigint {
  return ((BigInt(limit) - 50_000n) * 4n) / 5n;
}

/** (estimate - gasUsed) / gasUsed in percent, to 0.1. */
export function errorPercent(estimate: bigint, gasUsed: bigint): number {
  return Number(((estimate - gasUsed) * 1000n) / gasUsed) / 10;
}

/** The executed trades of one devnet test, their table and (RECORD_GAS_FIXTURE=1) their fixture. */
export class UniversalRouterGasRecord {
  readonly rows: string[] = [];
  readonly cases: DevnetGasCase[] = [];

  constructor(
    private readonly fixture: TradeGasFixture,
    private readonly test: string,
  ) {}

  /**
   * Holds an executed trade's gas to the model and keeps it: the swap step's estimate (from its gasLimit) within
   * UR_GAS_TOLERANCE.swap of its gasUsed and under its gasLimit, the trade's gasEstimate the sum of its steps'
   * estimates and within UR_GAS_TOLERANCE.trade (by approval mode) of all its steps' gasUsed.
   */
  check(
    t: Test,
    name: string,
    pools: 'cold' | 'warm',
    p: UniversalRouterTradeParams,
    steps: readonly Step[],
    receipts: readonly TransactionReceipt[],
  ): void {
    const permit = (p.approvalMode ?? 'approve') === 'permit2' && p.tokenIn.address !== NATIVE_TOKEN_ADDRESS;
    const gasCase = tradeGasCase(name, pools, p.chain, p.trade, steps, receipts, permit);
    this.cases.push(gasCase);
    const swap = receipts[receipts.length - 1].gasUsed;
    const limit = steps[steps.length - 1].gasLimit!;
    const estimate = estimateOfLimit(limit);
    const used = receipts.reduce((s, r) => s + r.gasUsed, 0n);
    const legs = gasCase.steps.flatMap((s) =>
      s.step === 'swap'
        ? s.routes.map((r) =>
            r.map((l) => `${l.tokenIn}>${l.tokenOut} ${l.kind.replace('uniswap', '')} t${l.ticksCrossed} c${l.coldSlots}`).join(' + '),
          )
        : [],
    );
    const row = `${name}: swap ${estimate} / ${swap} (${errorPercent(estimate, swap)}%); trade ${p.trade.gasEstimate} / ${used} (${errorPercent(p.trade.gasEstimate, used)}%) [${legs.join(' | ')}]`;
    this.rows.push(row);
    t.comment(row);
    t.ok(swap <= BigInt(limit), `the swap used ${swap} <= its gasLimit ${limit}`);
    const swapTolerance = UR_GAS_TOLERANCE.swap[pools];
    t.ok(
      Math.abs(errorPercent(estimate, swap)) <= swapTolerance,
      `the swap step's estimate ${estimate} is within ±${swapTolerance}% of its gasUsed ${swap}`,
    );
    t.equal(
      steps.reduce((s, step) => s + estimateOfLimit(step.gasLimit!), 0n),
      p.trade.gasEstimate,
      "the trade's gasEstimate is the sum of its steps' estimates (read back from their gasLimit)",
    );
    const tradeTolerance = UR_GAS_TOLERANCE.trade[permit ? 'permit2' : 'approve'];
    t.ok(
      Math.abs(errorPercent(p.trade.gasEstimate, used)) <= tradeTolerance,
      `the trade's gasEstimate ${p.trade.gasEstimate} is within ±${tradeTolerance}% of its steps' gasUsed ${used}`,
    );
  }

  /** The table; with RECORD_GAS_FIXTURE=1 also writes the fixture (every case must have run). */
  finish(t: Test, expected: number, conditions: string): void {
    t.comment(`estimate / gasUsed (error):\n${this.rows.join('\n')}`);
    t.equal(this.cases.length, expected, 'every case executed and measured');
    if (process.env.RECORD_GAS_FIXTURE === '1' && this.cases.length === expected) {
      writeTradeGasFixture(this.fixture, this.test, conditions, this.cases);
      t.comment(`recorded ${this.cases.length} cases in test/fixtures/gas/`);
    }
  }
}
