import type { Address } from 'viem';
import { type CatalogChain, type CatalogToken, deploymentId, NATIVE_TOKEN_ADDRESS } from '../catalog/Catalog.ts';
import { chainExecutors, executorsFor, meetsNativePools } from '../routing/executors.ts';
import { gasLimit, transactionGas } from '../routing/gasModel.ts';
import { POOL_NATIVE, crossesNative as routeCrossesNative } from '../routing/nativePools.ts';
import type { ApprovalMode } from '../routing/RoutingLimits.ts';
import type { Executor, ExecutorKind, Route, Trade } from '../routing/Trade.ts';
import { approveSteps, type Permit2Allowance, permit2ApproveSteps } from './approveStep.ts';
import { buildWrapSteps } from './buildWrapSteps.ts';
import type { SignedPermit } from './permit2.ts';
import { balancerVault } from './routers/balancerVault.ts';
import { pancakeSmartRouter } from './routers/pancakeSmartRouter.ts';
import { type RouterContext, type RouterEncoder, transactionMaximum } from './routers/RouterEncoder.ts';
import { swapRouter } from './routers/swapRouter.ts';
import { swapRouter02 } from './routers/swapRouter02.ts';
import { uniswapV2Router02 } from './routers/uniswapV2Router02.ts';
import { universalRouter } from './routers/universalRouter.ts';
import { checkUint256, displayAmount, type Step, stepAddress } from './Step.ts';
import { StepBuildError } from './StepBuildError.ts';

/** Parameters of {@link buildTradeSteps}. */
export interface TradeStepsParams {
  readonly chain: CatalogChain;
  /**
   * A trade of this chain (bestTrade), exact input or exact output, each split carrying the executor of its route;
   * without splits, a bare wrap or unwrap.
   */
  readonly trade: Trade;
  /** The trade's tokens as the catalogue lists them (either may be the native asset). */
  readonly tokenIn: CatalogToken;
  readonly tokenOut: CatalogToken;
  /**
   * Enforced on chain over the whole trade: the recipient never receives less when every step succeeds. Exact
   * output: must be the trade's amountOut (each route delivers exactly its share or reverts).
   */
  readonly amountOutMinimum: bigint;
  /**
   * Exact output only (required there): the most the steps may spend, at least the trade's amountIn; shared over
   * the routes (partMaximums), each route's swap enforcing its share on chain.
   */
  readonly amountInMaximum?: bigint;
  /** Receives the output. */
  readonly recipient: string;
  /** Sends every step (SPEC `walletAddress`). */
  readonly wallet: string;
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

export type { ApprovalMode };

/** The encoder of each router contract (src/tx/routers/). */
const ENCODERS: Readonly<Record<ExecutorKind, RouterEncoder>> = {
  UniswapV2Router02: uniswapV2Router02,
  SwapRouter: swapRouter,
  SwapRouter02: swapRouter02,
  PancakeSmartRouter: pancakeSmartRouter,
  UniversalRouter: universalRouter,
  BalancerVault: balancerVault,
};

/**
 * The ordered steps of a trade. A trade without splits (a bare wrap or unwrap) is buildWrapSteps'. Otherwise the
 * routes run between the tokens the pools hold (the wrapped native token at a native end, which the router wraps
 * or unwraps: the trade's nativeIn and nativeOut), and the splits are grouped by the router executing their route (src/routing/executors.ts), in the trade's order (largest share
 * first); for each router: an ERC-20 approval of exactly what it may pull (the sum of its routes' amountIn; exact
 * output: of their amountInMaximum shares; none for native input; none or fewer with `allowances`, see approveSteps),
 * then its transaction(s), encoded by
 * src/tx/routers/: UniswapV2Router02 takes one transaction per route, SwapRouter and SwapRouter02 all of their
 * routes in one.
 *
 * Limits: exact input: each transaction enforces its own minimum, so that when they all succeed the recipient gets
 * at least `amountOutMinimum` (see {@link partMinimums}). Exact output: each route's swap delivers exactly its
 * amountOut and takes at most its share of `amountInMaximum` (see {@link partMaximums}); the router pulls only
 * what the pools ask for, and unused native value is refunded in the same transaction. With several transactions,
 * one may revert (its part of the market moved beyond the slippage) while the others go through: a partial fill,
 * whose unspent input stays in the wallet (with its approval).
 *
 * `gasLimit` of each step: the gas model's estimate of that transaction (src/routing/gasModel.ts
 * `transactionGas`, `GAS.approve`) with the margin of `gasLimit`; the estimates add up to the trade's
 * gasEstimate.
 *
 * A router that pulls through Permit2 (the Universal Router) is approved in two steps instead: the token's approval of
 * Permit2 (`Approve <amount> <tokenIn> for Permit2`), then, with approvalMode 'approve' (default), Permit2's of the
 * router until the deadline (permit2ApproveSteps); with 'permit2' the swap carries the wallet's signed permit
 * (`permit2Permit`, PERMIT2_PERMIT) and its gasLimit the permit's gas. Each is left out when the allowance read covers it.
 *
 * Messages (amounts in display units, exact; symbols and DEX names from the catalogue):
 * - `Approve <amount> <tokenIn> for <router name>`, e.g. `Approve 1500.25 USDC for Uniswap V3 router`
 * - exact input: `Swap <amountIn> <tokenIn> for <tokenOut> on <DEX names>`, the DEXes of the transaction's pools in
 *   route order joined by ` + `, e.g. `Swap 1.5 ETH for USDC on Uniswap V3` or `Swap 200 AAVE for USDC on Uniswap
 *   V2 + Uniswap V3`
 * - exact output: `Swap at most <amountInMaximum> <tokenIn> for <amountOut> <tokenOut> on <DEX names>`, e.g.
 *   `Swap at most 1515.5 USDC for 0.5 WETH on Uniswap V3`
 * `amount` is what the step approves or may spend (exact input: swaps; exact output: at most); `value` (= amount)
 * only on native-input swap steps.
 */
export function buildTradeSteps(p: TradeStepsParams): Step[] {
  const { chain, trade } = p;
  const exactOut = trade.tradeType === 'exactOut';
  checkUint256(p.amountOutMinimum, 'amountOutMinimum', true);
  if (!Number.isSafeInteger(p.deadline) || p.deadline <= 0)
    throw new StepBuildError(`deadline: must be a positive integer of Unix seconds, got ${p.deadline}`);
  if (trade.tradeType !== 'exactIn' && !exactOut)
    throw new StepBuildError(`trade.tradeType: must be "exactIn" or "exactOut", got "${String(trade.tradeType)}"`);
  const tokenIn = stepAddress(p.tokenIn.address, 'tokenIn');
  const tokenOut = stepAddress(p.tokenOut.address, 'tokenOut');
  if (trade.tokenIn !== tokenIn.toLowerCase() || trade.tokenOut !== tokenOut.toLowerCase()) {
    throw new StepBuildError(`trade: swaps ${trade.tokenIn} -> ${trade.tokenOut}, not ${tokenIn} -> ${tokenOut}`);
  }
  const nativeIn = trade.nativeIn === 'wrapped';
  const nativeOut = trade.nativeOut === 'wrapped';
  if (nativeIn !== (tokenIn === NATIVE_TOKEN_ADDRESS) || nativeOut !== (tokenOut === NATIVE_TOKEN_ADDRESS))
    throw new StepBuildError(`trade: native ends ${trade.nativeIn} -> ${trade.nativeOut} do not fit ${tokenIn} -> ${tokenOut}`);
  const bareWrap = trade.splits.length === 0;
  checkUint256(trade.amountIn, 'trade.amountIn');
  if (bareWrap && trade.amountIn !== trade.amountOut)
    throw new StepBuildError('trade: a trade without splits is a wrap or unwrap, whose amountIn is its amountOut');
  if (!bareWrap && trade.splits.reduce((s, x) => s + x.route.amountIn, 0n) !== trade.amountIn)
    throw new StepBuildError('trade.splits: their amountIn do not add up to trade.amountIn');
  if (!bareWrap && trade.splits.reduce((s, x) => s + x.route.amountOut, 0n) !== trade.amountOut)
    throw new StepBuildError('trade.splits: their amountOut do not add up to trade.amountOut');
  if (p.amountOutMinimum > trade.amountOut)
    throw new StepBuildError(`amountOutMinimum: ${p.amountOutMinimum} is more than the trade's amountOut ${trade.amountOut}`);
  if (exactOut && p.amountOutMinimum !== trade.amountOut)
    throw new StepBuildError(
      `amountOutMinimum: an exact-output trade delivers exactly its amountOut ${trade.amountOut}, not ${p.amountOutMinimum}`,
    );
  if (!exactOut && p.amountInMaximum !== undefined)
    throw new StepBuildError('amountInMaximum: only for exact-output trades (an exact-input trade spends exactly its amountIn)');
  if (exactOut && p.amountInMaximum === undefined) throw new StepBuildError('amountInMaximum: required for an exact-output trade');
  const wallet = stepAddress(p.wallet, 'wallet');
  const recipient = stepAddress(p.recipient, 'recipient');

  if (bareWrap) {
    return buildWrapSteps({
      chainId: chain.chainId,
      tokenIn: p.tokenIn,
      tokenOut: p.tokenOut,
      wrappedNativeToken: chain.wrappedNativeToken,
      amount: trade.amountIn,
      recipient,
      wallet,
    });
  }
  const wrapped = stepAddress(chain.wrappedNativeToken, 'chain.wrappedNativeToken');
  // A native end is the wrapped token as v2/v3 pools hold it, or native ETH itself as a v4 pool holds it (the zero address).
  const ends = {
    tokenIn: nativeIn ? [wrapped.toLowerCase(), POOL_NATIVE] : [trade.tokenIn],
    tokenOut: nativeOut ? [wrapped.toLowerCase(), POOL_NATIVE] : [trade.tokenOut],
    wrapped: wrapped.toLowerCase(),
  };
  const routes = trade.splits.map((s, i) => checkRoute(chain, trade.tradeType, ends, s.route, `trade.splits[${i}].route`));

  // Each route's most input (exact input: its amountIn); routers in the order of their first split; their
  // transactions; each transaction's minimum.
  const shares = exactOut
    ? partMaximums(
        p.amountInMaximum!,
        routes.map((r) => r.amountIn),
      )
    : routes.map((r) => r.amountIn);
  const maximums = new Map(routes.map((route, i) => [route, shares[i]]));
  const groups = new Map<string, { executor: Executor; routes: Route[] }>();
  for (const route of routes) {
    const group = groups.get(route.executor.address);
    if (group) group.routes.push(route);
    else groups.set(route.executor.address, { executor: route.executor, routes: [route] });
  }
  const batches = [...groups.values()].map((g) => {
    return { ...g, kind: g.executor.kind, txs: ENCODERS[g.executor.kind].batch(g.routes) };
  });
  const amountsOut = batches.flatMap((b) => b.txs.map((tx) => sum(tx, 'amountOut')));
  const minimums = exactOut ? amountsOut : partMinimums(p.amountOutMinimum, amountsOut);

  const steps: Step[] = [];
  let part = 0;
  for (const batch of batches) {
    const router = stepAddress(batch.executor.address, 'executor.address');
    const viaPermit2 = ENCODERS[batch.kind].pullsThroughPermit2 === true;
    const permit2 = viaPermit2 ? permit2Of(chain, router) : undefined;
    if (!nativeIn) {
      const pulls = batch.routes.reduce((s, r) => s + maximums.get(r)!, 0n);
      const spender = permit2 ?? router;
      steps.push(
        ...approveSteps({
          chainId: chain.chainId,
          token: p.tokenIn,
          spender,
          spenderName: permit2 ? 'Permit2' : batch.executor.name,
          amount: pulls,
          wallet,
          allowance: p.allowances?.get(spender.toLowerCase()),
        }),
      );
      if (permit2 && (p.approvalMode ?? 'approve') === 'approve') {
        steps.push(
          ...permit2ApproveSteps({
            chainId: chain.chainId,
            permit2,
            token: p.tokenIn,
            spender: router,
            spenderName: batch.executor.name,
            amount: pulls,
            expiration: p.deadline,
            wallet,
            allowance: p.permit2Allowances?.get(router.toLowerCase()),
          }),
        );
      }
    }
    const ctx: RouterContext = {
      router,
      nativeIn,
      nativeOut,
      poolTokenOut: nativeOut ? wrapped : tokenOut,
      recipient,
      sender: wallet,
      deadline: BigInt(p.deadline),
      ...(viaPermit2 && p.permit2Permit ? { permit2Permit: p.permit2Permit } : {}),
    };
    // The swap carries the wallet's signed permit: given now, or (approvalMode 'permit2' without it) put in later
    // (universalRouter.withPermit, POST /quotes/{quoteId}/swap); its gasLimit counts the permit either way.
    const signs = viaPermit2 && !nativeIn && (ctx.permit2Permit !== undefined || p.approvalMode === 'permit2');
    for (const txRoutes of batch.txs) {
      const tx = {
        tradeType: trade.tradeType,
        routes: txRoutes,
        amountOutMinimum: minimums[part++],
        amountInMaximums: txRoutes.map((r) => maximums.get(r)!),
      };
      const most = transactionMaximum(tx);
      const amount = most.toString();
      const swap = exactOut
        ? `Swap at most ${displayAmount(most, p.tokenIn)} ${p.tokenIn.symbol} for ${displayAmount(sum(txRoutes, 'amountOut'), p.tokenOut)} ${p.tokenOut.symbol}`
        : `Swap ${displayAmount(most, p.tokenIn)} ${p.tokenIn.symbol} for ${p.tokenOut.symbol}`;
      steps.push({
        message: `${swap} on ${dexNames(chain, txRoutes)}`,
        from: wallet,
        to: router,
        data: ENCODERS[batch.kind].encode(ctx, tx),
        amount,
        chainId: chain.chainId,
        ...(nativeIn ? { value: amount } : {}),
        gasLimit: gasLimit(
          transactionGas(
            batch.kind,
            txRoutes.map((r) => r.legs),
            nativeIn,
            nativeOut,
            trade.tradeType,
            signs,
          ),
        ).toString(),
      });
    }
  }
  return steps;
}

/**
 * `total` shared over parts in proportion to `weights`: each part gets its floor share, then the remainder goes to
 * the largest weight (then the next largest, …), never beyond a part's cap (`caps`; none by default).
 */
function proportionalShares(total: bigint, weights: readonly bigint[], caps?: readonly bigint[]): bigint[] {
  const whole = weights.reduce((s, x) => s + x, 0n);
  const shares = weights.map((x) => (total * x) / whole);
  let rest = total - shares.reduce((s, x) => s + x, 0n);
  const bySize = weights.map((_, i) => i).sort((a, b) => (weights[b] > weights[a] ? 1 : weights[b] < weights[a] ? -1 : a - b));
  for (const i of bySize) {
    if (rest === 0n) break;
    const room = caps ? caps[i] - shares[i] : rest;
    const add = room < rest ? room : rest;
    shares[i] += add;
    rest -= add;
  }
  return shares;
}

/**
 * Minimums of the transactions of an exact-input trade that together enforce `amountOutMinimum`: each gets its share
 * in proportion to its amountOut, rounded down; the remainder goes to the largest (then the next largest, …), never
 * above a transaction's own amountOut. They add up to exactly `amountOutMinimum` (at most the total output).
 */
export function partMinimums(amountOutMinimum: bigint, amountsOut: readonly bigint[]): bigint[] {
  const total = amountsOut.reduce((s, x) => s + x, 0n);
  if (amountsOut.some((x) => x <= 0n) || amountOutMinimum < 0n || amountOutMinimum > total) {
    throw new StepBuildError(`amountOutMinimum: ${amountOutMinimum} cannot be shared over outputs ${amountsOut.join(', ')}`);
  }
  return proportionalShares(amountOutMinimum, amountsOut, amountsOut);
}

/**
 * The most input each route of an exact-output trade may take, together `amountInMaximum`: each route's amountIn
 * plus its share of the slack (amountInMaximum minus the trade's amountIn) in proportion to its amountIn, rounded
 * down, the remainder to the largest route. Each is at least its route's amountIn; they add up to exactly
 * `amountInMaximum`, so the trade never spends more even when every route takes its whole share.
 */
export function partMaximums(amountInMaximum: bigint, amountsIn: readonly bigint[]): bigint[] {
  const total = amountsIn.reduce((s, x) => s + x, 0n);
  if (amountsIn.some((x) => x <= 0n) || amountInMaximum < total) {
    throw new StepBuildError(`amountInMaximum: ${amountInMaximum} is less than the inputs ${amountsIn.join(' + ')}`);
  }
  return proportionalShares(amountInMaximum - total, amountsIn).map((slack, i) => amountsIn[i] + slack);
}

function sum(routes: readonly Route[], field: 'amountIn' | 'amountOut'): bigint {
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
  for (const leg of routes.flatMap((r) => r.legs)) {
    const name = chain.dexes.find((d) => d.slug === leg.dex && d.version === leg.version)!.name;
    if (!names.includes(name)) names.push(name);
  }
  return names.join(' + ');
}

/**
 * Two legs that meet across native ETH and its wrapped token (one pool holds ETH, the other WETH): the Universal
 * Router wraps or unwraps between them (src/tx/routers/universalRouter.ts).
 */
function crossesNative(prev: Route['legs'][number] | undefined, leg: Route['legs'][number], wrapped: string): boolean {
  if (!prev) return false;
  const [a, b] = [prev.tokenOut, leg.tokenIn];
  return (a === POOL_NATIVE && b === wrapped) || (a === wrapped && b === POOL_NATIVE);
}

/**
 * A route the quote layer must never get wrong, checked: its legs join up from the trade's tokenIn to its tokenOut
 * as the pools hold them (`ends`), its amountIn is its first leg's, and its executor is a router of the chain that
 * swaps every pool of it (for an exact output, one that can execute it backwards).
 */
function checkRoute(
  chain: CatalogChain,
  tradeType: Trade['tradeType'],
  ends: { readonly tokenIn: readonly string[]; readonly tokenOut: readonly string[]; readonly wrapped: string },
  route: Route,
  field: string,
): Route {
  const { legs } = route;
  if (legs.length === 0) throw new StepBuildError(`${field}: no legs`);
  legs.forEach((leg, i) => {
    const from = i === 0 ? ends.tokenIn : [legs[i - 1].tokenOut];
    if (!from.includes(leg.tokenIn) && !crossesNative(legs[i - 1], leg, ends.wrapped))
      throw new StepBuildError(`${field}.legs[${i}]: starts at ${leg.tokenIn}, not ${from.join(' or ')}`);
  });
  if (!ends.tokenOut.includes(legs[legs.length - 1].tokenOut))
    throw new StepBuildError(`${field}: ends at ${legs[legs.length - 1].tokenOut}, not ${ends.tokenOut.join(' or ')}`);
  checkUint256(route.amountIn, `${field}.amountIn`);
  if (route.amountIn !== legs[0].amountIn)
    throw new StepBuildError(`${field}: amountIn ${route.amountIn} is not its first leg's ${legs[0].amountIn}`);
  const { executor } = route;
  const known = chainExecutors(chain).find((e) => e.kind === executor.kind && e.address === executor.address);
  if (!known) throw new StepBuildError(`${field}.executor: ${executor.kind} ${executor.address} is not a router of ${chain.slug}`);
  const foreign = legs.find((l) => !known.deployments.has(deploymentId(l.dex, l.version)));
  if (foreign)
    throw new StepBuildError(`${field}.executor: ${executor.name} does not swap ${foreign.dex} ${foreign.version} pool ${foreign.pool}`);
  const crosses = routeCrossesNative(legs);
  if (crosses && !meetsNativePools(known.kind))
    throw new StepBuildError(`${field}.executor: ${executor.name} cannot wrap or unwrap between the pools of a route`);
  if (tradeType === 'exactOut' && !executorsFor(chain, legs, 'exactOut', crosses).some((e) => e.address === executor.address))
    throw new StepBuildError(`${field}.executor: ${executor.name} cannot execute this route for an exact output`);
  return route;
}
