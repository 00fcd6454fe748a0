import type { Address } from 'viem';
import type { CatalogChain } from '../catalog/Catalog.ts';
import { catalogDex } from '../routing/describeTrade.ts';
import { gasLimit, transactionGas } from '../routing/gasModel.ts';
import type { ApprovalMode } from '../routing/RoutingLimits.ts';
import type { Executor, ExecutorKind, Route, Trade } from '../routing/Trade.ts';
import { approveSteps, type Permit2Allowance, permit2ApproveSteps } from './approveStep.ts';
import type { SignedPermit } from './permit2.ts';
import { balancerVault } from './routers/balancerVault.ts';
import { pancakeSmartRouter } from './routers/pancakeSmartRouter.ts';
import { type RouterContext, type RouterEncoder, transactionMaximum } from './routers/RouterEncoder.ts';
import { swapRouter } from './routers/swapRouter.ts';
import { swapRouter02 } from './routers/swapRouter02.ts';
import { uniswapV2Router02 } from './routers/uniswapV2Router02.ts';
import { universalRouter } from './routers/universalRouter.ts';
import { displayAmount, type Step, type StepToken, stepAddress } from './Step.ts';
import { StepBuildError } from './StepBuildError.ts';

/** What the steps of every executor of a trade share (buildTradeSteps' parameters extend it). */
export interface StepsContext {
  readonly chain: CatalogChain;
  readonly trade: Pick<Trade, 'tradeType'>;
  /** The trade's input token: the allowances below are its own. */
  readonly tokenIn: StepToken;
  /** Unix seconds; the routers revert once `block.timestamp` is past it. */
  readonly deadline: number;
  /**
   * The wallet's current allowance of tokenIn per router (spender address, lower case), read from the chain; a router
   * missing from it (or no map) is approved as if the allowance were unknown (approveSteps).
   */
  readonly allowances?: ReadonlyMap<string, bigint>;
  /**
   * How a router that pulls through Permit2 (the Universal Router) is allowed to: 'approve' (default) with the plain
   * transaction `Permit2.approve(token, router, amount, deadline)`; 'permit2' with a PermitSingle the wallet signs
   * (`permit2Permit`, submitted by the swap itself). Either way after the token's approval of Permit2.
   */
  readonly approvalMode?: ApprovalMode;
  /** The wallet's Permit2 allowances of tokenIn per router (lower case), read from the chain (Permit2.allowance). */
  readonly permit2Allowances?: ReadonlyMap<string, Permit2Allowance>;
  /**
   * approvalMode 'permit2': the wallet's signed PermitSingle, put first in the Universal Router's call. Without it the
   * swap is built without the permit (its gasLimit counting the permit's gas) for universalRouter.withPermit to add
   * it once signed.
   */
  readonly permit2Permit?: SignedPermit;
}

/** The encoder of each router contract (src/tx/routers/). */
export const ENCODERS: Readonly<Record<ExecutorKind, RouterEncoder>> = {
  UniswapV2Router02: uniswapV2Router02,
  SwapRouter: swapRouter,
  SwapRouter02: swapRouter02,
  PancakeSmartRouter: pancakeSmartRouter,
  UniversalRouter: universalRouter,
  BalancerVault: balancerVault,
};

/** One executor's transactions of a trade, with what they take, pay out and to whom. */
export interface ExecutorCalls {
  readonly executor: Executor;
  readonly routes: readonly Route[];
  readonly txs: readonly Route[][];
  /** What the calls spend and pay out (a stage of a route: the tokens handed over). */
  readonly tokenIn: StepToken;
  readonly tokenOut: StepToken;
  readonly nativeIn: boolean;
  readonly nativeOut: boolean;
  readonly poolTokenOut: Address;
  readonly recipient: Address;
  readonly wallet: Address;
  /** Each route's most input. */
  readonly maximums: ReadonlyMap<Route, bigint>;
  /** Each transaction's minimum, parallel to txs. */
  readonly minimums: readonly bigint[];
  /** Appended to each swap message (a stage's minimum and hand-over). */
  readonly note?: string;
}

/** The approval steps (where the input is a token) and swap steps of one executor's calls. */
export function executorSteps(p: StepsContext, g: ExecutorCalls): Step[] {
  const { chain, trade } = p;
  const exactOut = trade.tradeType === 'exactOut';
  const kind = g.executor.kind;
  const steps: Step[] = [];
  const router = stepAddress(g.executor.address, 'executor.address');
  const viaPermit2 = ENCODERS[kind].pullsThroughPermit2 === true;
  const permit2 = viaPermit2 ? permit2Of(chain, router) : undefined;
  // Allowances read from the chain are the trade's input token's.
  const ownToken = g.tokenIn.address.toLowerCase() === p.tokenIn.address.toLowerCase();
  if (!g.nativeIn) {
    const pulls = g.routes.reduce((s, r) => s + g.maximums.get(r)!, 0n);
    const spender = permit2 ?? router;
    steps.push(
      ...approveSteps({
        chainId: chain.chainId,
        token: g.tokenIn,
        spender,
        spenderName: permit2 ? 'Permit2' : g.executor.name,
        amount: pulls,
        wallet: g.wallet,
        allowance: ownToken ? p.allowances?.get(spender.toLowerCase()) : undefined,
      }),
    );
    if (permit2 && (p.approvalMode ?? 'approve') === 'approve') {
      steps.push(
        ...permit2ApproveSteps({
          chainId: chain.chainId,
          permit2,
          token: g.tokenIn,
          spender: router,
          spenderName: g.executor.name,
          amount: pulls,
          expiration: p.deadline,
          wallet: g.wallet,
          allowance: ownToken ? p.permit2Allowances?.get(router.toLowerCase()) : undefined,
        }),
      );
    }
  }
  const ctx: RouterContext = {
    router,
    nativeIn: g.nativeIn,
    nativeOut: g.nativeOut,
    poolTokenOut: g.poolTokenOut,
    recipient: g.recipient,
    sender: g.wallet,
    deadline: BigInt(p.deadline),
    ...(viaPermit2 && p.permit2Permit ? { permit2Permit: p.permit2Permit } : {}),
  };
  // The swap carries the wallet's signed permit: given now, or (approvalMode 'permit2' without it) put in later
  // (universalRouter.withPermit, POST /quotes/{quoteId}/swap); its gasLimit counts the permit either way.
  const signs = viaPermit2 && !g.nativeIn && (ctx.permit2Permit !== undefined || p.approvalMode === 'permit2');
  g.txs.forEach((txRoutes, i) => {
    const tx = {
      tradeType: trade.tradeType,
      routes: txRoutes,
      amountOutMinimum: g.minimums[i],
      amountInMaximums: txRoutes.map((r) => g.maximums.get(r)!),
    };
    const most = transactionMaximum(tx);
    const amount = most.toString();
    const swap = exactOut
      ? `Swap at most ${displayAmount(most, g.tokenIn)} ${g.tokenIn.symbol} for ${displayAmount(sum(txRoutes, 'amountOut'), g.tokenOut)} ${g.tokenOut.symbol}`
      : `Swap ${displayAmount(most, g.tokenIn)} ${g.tokenIn.symbol} for ${g.tokenOut.symbol}`;
    steps.push({
      message: `${swap} on ${dexNames(chain, txRoutes)}${g.note ?? ''}`,
      from: g.wallet,
      to: router,
      data: ENCODERS[kind].encode(ctx, tx),
      amount,
      chainId: chain.chainId,
      ...(g.nativeIn ? { value: amount } : {}),
      gasLimit: gasLimit(
        transactionGas(
          kind,
          txRoutes.map((r) => r.legs),
          g.nativeIn,
          g.nativeOut,
          trade.tradeType,
          signs,
        ),
      ).toString(),
    });
  });
  return steps;
}

export function sum(routes: readonly Route[], field: 'amountIn' | 'amountOut'): bigint {
  return routes.reduce((s, r) => s + r[field], 0n);
}

/** Permit2's address for a Universal Router of the chain: its DEX entry's `permit2Address`. */
export function permit2Of(chain: CatalogChain, router: string): Address {
  const dex = chain.dexes.find((d) => d.universalRouterAddress !== '' && d.universalRouterAddress.toLowerCase() === router.toLowerCase());
  if (!dex?.permit2Address) throw new StepBuildError(`executor: the catalogue names no Permit2 for Universal Router ${router}`);
  return stepAddress(dex.permit2Address, 'permit2Address');
}

/** The catalogue names of the DEXes of some routes' pools, in route order, each once, joined by ' + '. */
function dexNames(chain: CatalogChain, routes: readonly Route[]): string {
  const names: string[] = [];
  for (const route of routes) {
    for (const leg of route.legs) {
      const name = catalogDex(chain, leg.dex, leg.version)!.name;
      if (!names.includes(name)) names.push(name);
    }
  }
  return names.length === 1 ? names[0] : names.join(' + ');
}
