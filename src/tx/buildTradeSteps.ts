import { NATIVE_TOKEN_ADDRESS, type CatalogChain, type CatalogToken } from '../catalog/loadCatalog.ts';
import { chainExecutors, type ExecutorKind } from '../routing/executors.ts';
import { gasLimit, transactionGas } from '../routing/gasModel.ts';
import type { Executor, Route, Trade } from '../routing/Trade.ts';
import { approveStep } from './approveStep.ts';
import { buildWrapSteps } from './buildWrapSteps.ts';
import type { RouterContext, RouterEncoder } from './routers/RouterEncoder.ts';
import { swapRouter } from './routers/swapRouter.ts';
import { swapRouter02 } from './routers/swapRouter02.ts';
import { uniswapV2Router02 } from './routers/uniswapV2Router02.ts';
import { StepBuildError } from './StepBuildError.ts';
import { checkUint256, displayAmount, stepAddress, type Step } from './Step.ts';

/** Parameters of {@link buildTradeSteps}. */
export interface TradeStepsParams {
  readonly chain: CatalogChain;
  /** An exact-input trade of this chain (bestTrade), each split carrying the executor of its route. */
  readonly trade: Trade;
  /** The trade's tokens as the catalogue lists them (either may be the native asset). */
  readonly tokenIn: CatalogToken;
  readonly tokenOut: CatalogToken;
  /** Enforced on chain over the whole trade: the recipient never receives less when every step succeeds. */
  readonly amountOutMinimum: bigint;
  /** Receives the output. */
  readonly recipient: string;
  /** Sends every step (SPEC `walletAddress`). */
  readonly wallet: string;
  /** Unix seconds; the routers revert once `block.timestamp` is past it. */
  readonly deadline: number;
}

/** The router contracts (WETH9 is served by buildWrapSteps). */
type RouterKind = Exclude<ExecutorKind, 'WETH9'>;

/** The encoder of each router contract (src/tx/routers/). */
const ENCODERS: Readonly<Record<RouterKind, RouterEncoder>> = {
  UniswapV2Router02: uniswapV2Router02,
  SwapRouter: swapRouter,
  SwapRouter02: swapRouter02,
};

/**
 * The ordered steps of an exact-input trade. A trade that is only a wrap or unwrap is buildWrapSteps'. Otherwise
 * the splits are grouped by the router executing their route (src/routing/executors.ts), in the trade's order
 * (largest share first); for each router: an ERC-20 approval of exactly what it pulls (the sum of its routes'
 * amountIn; none for native input), then its transaction(s), encoded by src/tx/routers/: UniswapV2Router02 takes
 * one transaction per route, SwapRouter and SwapRouter02 all of their routes in one.
 *
 * Minimums: each transaction enforces its own, so that when they all succeed the recipient gets at least
 * `amountOutMinimum` (see {@link partMinimums}). With several transactions, one may revert (its part of the
 * market moved beyond the slippage) while the others go through: a partial fill, whose unspent input stays in
 * the wallet (with its approval).
 *
 * `gasLimit` of each step: the gas model's estimate of that transaction (src/routing/gasModel.ts
 * `transactionGas`, `GAS.approve`) with the margin of `gasLimit`; the estimates add up to the trade's
 * gasEstimate.
 *
 * Messages (amounts in display units, exact; symbols and DEX names from the catalogue):
 * - `Approve <amount> <tokenIn> for <router name>`, e.g. `Approve 1500.25 USDC for Uniswap V3 router`
 * - `Swap <amountIn> <tokenIn> for <tokenOut> on <DEX names>`, the DEXes of the transaction's pools in route
 *   order joined by ` + `, e.g. `Swap 1.5 ETH for USDC on Uniswap V3` or `Swap 200 AAVE for USDC on Uniswap V2 +
 *   Uniswap V3`
 * `amount` is what the step approves or swaps; `value` (= amount) only on native-input swap steps.
 */
export function buildTradeSteps(p: TradeStepsParams): Step[] {
  const { chain, trade } = p;
  checkUint256(p.amountOutMinimum, 'amountOutMinimum', true);
  if (!Number.isSafeInteger(p.deadline) || p.deadline <= 0) throw new StepBuildError(`deadline: must be a positive integer of Unix seconds, got ${p.deadline}`);
  if (trade.tradeType !== 'exactIn') throw new StepBuildError(`trade.tradeType: "${trade.tradeType}" trades are not encoded yet`);
  const tokenIn = stepAddress(p.tokenIn.address, 'tokenIn');
  const tokenOut = stepAddress(p.tokenOut.address, 'tokenOut');
  if (trade.tokenIn !== tokenIn.toLowerCase() || trade.tokenOut !== tokenOut.toLowerCase()) {
    throw new StepBuildError(`trade: swaps ${trade.tokenIn} -> ${trade.tokenOut}, not ${tokenIn} -> ${tokenOut}`);
  }
  if (trade.splits.length === 0) throw new StepBuildError('trade.splits: empty');
  checkUint256(trade.amountIn, 'trade.amountIn');
  if (trade.splits.reduce((s, x) => s + x.route.amountIn, 0n) !== trade.amountIn) throw new StepBuildError('trade.splits: their amountIn do not add up to trade.amountIn');
  if (trade.splits.reduce((s, x) => s + x.route.amountOut, 0n) !== trade.amountOut) throw new StepBuildError('trade.splits: their amountOut do not add up to trade.amountOut');
  if (p.amountOutMinimum > trade.amountOut) throw new StepBuildError(`amountOutMinimum: ${p.amountOutMinimum} is more than the trade's amountOut ${trade.amountOut}`);
  const wallet = stepAddress(p.wallet, 'wallet');
  const recipient = stepAddress(p.recipient, 'recipient');

  const routes = trade.splits.map((s, i) => checkRoute(chain, trade, s.route, `trade.splits[${i}].route`));
  if (routes.some((r) => r.executor.kind === 'WETH9')) {
    if (routes.length !== 1) throw new StepBuildError('trade.splits: a wrap or unwrap is a trade of its own');
    return buildWrapSteps({ chainId: chain.chainId, tokenIn: p.tokenIn, tokenOut: p.tokenOut, wrappedNativeToken: chain.wrappedNativeToken, amount: trade.amountIn, recipient, wallet });
  }

  // Routers in the order of their first split; their transactions; each transaction's minimum.
  const groups = new Map<string, { executor: Executor; routes: Route[] }>();
  for (const route of routes) {
    const group = groups.get(route.executor.address);
    if (group) group.routes.push(route);
    else groups.set(route.executor.address, { executor: route.executor, routes: [route] });
  }
  const batches = [...groups.values()].map((g) => {
    const kind = g.executor.kind as RouterKind;
    return { ...g, kind, txs: ENCODERS[kind].batch(g.routes) };
  });
  const minimums = partMinimums(p.amountOutMinimum, batches.flatMap((b) => b.txs.map((tx) => sum(tx, 'amountOut'))));

  const nativeIn = tokenIn === NATIVE_TOKEN_ADDRESS;
  const nativeOut = tokenOut === NATIVE_TOKEN_ADDRESS;
  const steps: Step[] = [];
  let part = 0;
  for (const batch of batches) {
    const router = stepAddress(batch.executor.address, 'executor.address');
    if (!nativeIn) {
      steps.push(approveStep({ chainId: chain.chainId, token: p.tokenIn, spender: router, spenderName: batch.executor.name, amount: sum(batch.routes, 'amountIn'), wallet }));
    }
    const ctx: RouterContext = { router, nativeIn, nativeOut, poolTokenOut: nativeOut ? stepAddress(chain.wrappedNativeToken, 'chain.wrappedNativeToken') : tokenOut, recipient, deadline: BigInt(p.deadline) };
    for (const txRoutes of batch.txs) {
      const amountIn = sum(txRoutes, 'amountIn');
      const amount = amountIn.toString();
      steps.push({
        message: `Swap ${displayAmount(amountIn, p.tokenIn)} ${p.tokenIn.symbol} for ${p.tokenOut.symbol} on ${dexNames(chain, txRoutes)}`,
        from: wallet,
        to: router,
        data: ENCODERS[batch.kind].encode(ctx, { routes: txRoutes, amountOutMinimum: minimums[part++]! }),
        amount,
        chainId: chain.chainId,
        ...(nativeIn ? { value: amount } : {}),
        gasLimit: gasLimit(transactionGas(batch.kind, txRoutes.map((r) => r.legs), nativeIn, nativeOut)).toString(),
      });
    }
  }
  return steps;
}

/**
 * Minimums of the transactions of a trade that together enforce `amountOutMinimum`: each gets its share in
 * proportion to its amountOut, rounded down; the remainder goes to the largest (then the next largest, …),
 * never above a transaction's own amountOut. They add up to exactly `amountOutMinimum` (at most the total output).
 */
export function partMinimums(amountOutMinimum: bigint, amountsOut: readonly bigint[]): bigint[] {
  const total = amountsOut.reduce((s, x) => s + x, 0n);
  if (amountsOut.some((x) => x <= 0n) || amountOutMinimum < 0n || amountOutMinimum > total) {
    throw new StepBuildError(`amountOutMinimum: ${amountOutMinimum} cannot be shared over outputs ${amountsOut.join(', ')}`);
  }
  const minimums = amountsOut.map((x) => (amountOutMinimum * x) / total);
  let rest = amountOutMinimum - minimums.reduce((s, x) => s + x, 0n);
  const bySize = amountsOut.map((_, i) => i).sort((a, b) => (amountsOut[b]! > amountsOut[a]! ? 1 : amountsOut[b]! < amountsOut[a]! ? -1 : a - b));
  for (const i of bySize) {
    if (rest === 0n) break;
    const add = amountsOut[i]! - minimums[i]! < rest ? amountsOut[i]! - minimums[i]! : rest;
    minimums[i]! += add;
    rest -= add;
  }
  return minimums;
}

function sum(routes: readonly Route[], field: 'amountIn' | 'amountOut'): bigint {
  return routes.reduce((s, r) => s + r[field], 0n);
}

/** The catalogue names of the DEXes of some routes' pools, in route order, each once, joined by ' + '. */
function dexNames(chain: CatalogChain, routes: readonly Route[]): string {
  const names: string[] = [];
  for (const leg of routes.flatMap((r) => r.legs)) {
    if (leg.kind === 'wrap') continue;
    const name = chain.dexes.find((d) => d.slug === leg.dex && d.version === leg.version)!.name;
    if (!names.includes(name)) names.push(name);
  }
  return names.join(' + ');
}

/**
 * A route the quote layer must never get wrong, checked: its legs join up from the trade's tokenIn to its tokenOut,
 * a wrap or unwrap only opens or closes it, its amountIn is its first leg's, and its executor is a router of the
 * chain that swaps every pool of it (or WETH9 for a bare wrap or unwrap).
 */
function checkRoute(chain: CatalogChain, trade: Trade, route: Route, field: string): Route {
  const { legs } = route;
  if (legs.length === 0) throw new StepBuildError(`${field}: no legs`);
  legs.forEach((leg, i) => {
    const from = i === 0 ? trade.tokenIn : legs[i - 1]!.tokenOut;
    if (leg.tokenIn !== from) throw new StepBuildError(`${field}.legs[${i}]: starts at ${leg.tokenIn}, not ${from}`);
    if (leg.kind === 'wrap' && i > 0 && i < legs.length - 1) throw new StepBuildError(`${field}.legs[${i}]: a wrap or unwrap only opens or closes a route`);
  });
  if (legs[legs.length - 1]!.tokenOut !== trade.tokenOut) throw new StepBuildError(`${field}: ends at ${legs[legs.length - 1]!.tokenOut}, not ${trade.tokenOut}`);
  checkUint256(route.amountIn, `${field}.amountIn`);
  if (route.amountIn !== legs[0]!.amountIn) throw new StepBuildError(`${field}: amountIn ${route.amountIn} is not its first leg's ${legs[0]!.amountIn}`);
  const { executor } = route;
  const swaps = legs.filter((l) => l.kind !== 'wrap');
  if (executor.kind === 'WETH9') {
    if (swaps.length > 0 || stepAddress(executor.address, `${field}.executor.address`) !== stepAddress(chain.wrappedNativeToken, 'chain.wrappedNativeToken')) {
      throw new StepBuildError(`${field}.executor: WETH9 executes only a bare wrap or unwrap of ${chain.wrappedNativeToken}`);
    }
    return route;
  }
  const known = chainExecutors(chain).find((e) => e.kind === executor.kind && e.address === executor.address);
  if (!known) throw new StepBuildError(`${field}.executor: ${executor.kind} ${executor.address} is not a router of ${chain.slug}`);
  if (swaps.length === 0) throw new StepBuildError(`${field}: a router route needs a pool`);
  const foreign = swaps.find((l) => !known.deployments.has(`${l.dex}/${l.version}`));
  if (foreign) throw new StepBuildError(`${field}.executor: ${executor.name} does not swap ${foreign.dex} ${foreign.version} pool ${foreign.pool}`);
  return route;
}
