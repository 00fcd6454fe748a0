import { type CatalogChain, type CatalogToken, deploymentId, NATIVE_TOKEN_ADDRESS } from '../catalog/Catalog.ts';
import { chainExecutors, executorsFor, meetsNativePools } from '../routing/executors.ts';
import { POOL_NATIVE, crossesNative as routeCrossesNative } from '../routing/nativePools.ts';
import { proportionalShares, routeMinimums } from '../routing/slippageLimits.ts';
import type { Executor, Route, Trade } from '../routing/Trade.ts';
import { buildWrapSteps } from './buildWrapSteps.ts';
import { ENCODERS, executorSteps, type StepsContext, sum } from './executorSteps.ts';
import { checkUint256, type Step, stepAddress } from './Step.ts';
import { StepBuildError } from './StepBuildError.ts';
import { stagedSteps } from './stagedSteps.ts';

/** Parameters of {@link buildTradeSteps}. */
export interface TradeStepsParams extends StepsContext {
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
}

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
 * - a route of stages (stagedSteps): each stage's approval of its input and its swap, the tokens of the stage; a
 *   stage before the last adds ` (at least <minimum> <token>, expected <amountOut>, to the wallet: the next step
 *   spends <minimum>, the rest stays with the wallet)`, e.g. `Swap 1000 UNI for WETH on Balancer V2 (at least 0.297
 *   WETH, expected 0.3, to the wallet: the next step spends 0.297, the rest stays with the wallet)`
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
  if (!bareWrap) {
    let amountIn = 0n;
    let amountOut = 0n;
    for (const { route } of trade.splits) {
      amountIn += route.amountIn;
      amountOut += route.amountOut;
    }
    if (amountIn !== trade.amountIn) throw new StepBuildError('trade.splits: their amountIn do not add up to trade.amountIn');
    if (amountOut !== trade.amountOut) throw new StepBuildError('trade.splits: their amountOut do not add up to trade.amountOut');
  }
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

  // Routes of stages (exact input only): each its own steps, its last stage enforcing its share of the minimum
  // (routeMinimums, as the quote states it); the other routes' transactions share the rest.
  const stagedAt = routes.flatMap((r, i) => (r.stages ? [i] : []));
  if (stagedAt.length > 0 && exactOut) throw new StepBuildError('trade: a route of stages is exact input only');
  const stagedMinimums =
    stagedAt.length > 0
      ? routeMinimums(
          p.amountOutMinimum,
          routes.map((r) => r.amountOut),
        )
      : [];
  const callsMinimum = stagedAt.reduce((m, i) => m - stagedMinimums[i], p.amountOutMinimum);
  const calls = routes.filter((r) => !r.stages);
  // Several calls may then approve one spender for the same token, one after the other: each approves exactly its own
  // amount (an allowance read from the chain would let each skip its approval though it covers only one of them).
  const q: TradeStepsParams = stagedAt.length > 0 && routes.length > 1 ? { ...p, allowances: undefined, permit2Allowances: undefined } : p;

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
  for (const route of calls) {
    const group = groups.get(route.executor.address);
    if (group) group.routes.push(route);
    else groups.set(route.executor.address, { executor: route.executor, routes: [route] });
  }
  const batches = [...groups.values()].map(({ executor, routes }) => ({ executor, routes, txs: ENCODERS[executor.kind].batch(routes) }));
  const amountsOut = batches.flatMap((b) => b.txs.map((tx) => sum(tx, 'amountOut')));
  const minimums = exactOut || amountsOut.length === 0 ? amountsOut : partMinimums(callsMinimum, amountsOut);
  let part = 0;
  const batchSteps = new Map(
    batches.map((batch) => [
      batch.routes[0],
      executorSteps(q, {
        executor: batch.executor,
        routes: batch.routes,
        txs: batch.txs,
        tokenIn: p.tokenIn,
        tokenOut: p.tokenOut,
        nativeIn,
        nativeOut,
        poolTokenOut: nativeOut ? wrapped : tokenOut,
        recipient,
        wallet,
        maximums,
        minimums: batch.txs.map(() => minimums[part++]),
      }),
    ]),
  );
  // In the trade's order: a router's steps where its first route is, a route of stages where it is.
  return routes.flatMap((route, i) =>
    route.stages
      ? stagedSteps(q, route, { wallet, recipient, tokenOut, wrapped, nativeIn, nativeOut }, stagedMinimums[i], `trade.splits[${i}].route`)
      : (batchSteps.get(route) ?? []),
  );
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
  // A route of stages: each stage's executor is checked with its legs (stagedSteps).
  if (route.stages) return route;
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
