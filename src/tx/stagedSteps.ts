import type { Address } from 'viem';
import { deploymentId } from '../catalog/Catalog.ts';
import { chainExecutors } from '../routing/executors.ts';
import { stageCalls } from '../routing/stagedRoutes.ts';
import type { Route, Trade } from '../routing/Trade.ts';
import { ENCODERS, executorSteps, type StepsContext } from './executorSteps.ts';
import { displayAmount, type Step, type StepToken, stepAddress } from './Step.ts';
import { StepBuildError } from './StepBuildError.ts';

/**
 * The steps of a route of a trade that runs as consecutive stages (Route.stages, exact input): per stage its
 * approval and its swap, each through its own executor. Every stage but the last pays the wallet and accepts no less
 * than its amountOutMinimum, which is exactly what the next stage spends (its first leg's amountIn); the last stage
 * pays the recipient and enforces `lastMinimum` (the trade's amountOutMinimum, or the route's share of it when the
 * trade has other routes: routeMinimums). So no step spends more than the steps before it are bound to have
 * delivered; what a stage delivers beyond its minimum stays with the wallet (in the token handed over).
 */
export function stagedSteps(
  p: StepsContext & {
    readonly trade: Pick<Trade, 'tradeType'>;
    readonly tokenOut: StepToken;
  },
  route: Route,
  ends: { wallet: Address; recipient: Address; tokenOut: Address; wrapped: Address; nativeIn: boolean; nativeOut: boolean },
  lastMinimum: bigint,
  routeField: string,
): Step[] {
  const { chain, trade } = p;
  if (trade.tradeType !== 'exactIn') throw new StepBuildError('trade: a route of stages is exact input only');
  if (p.approvalMode === 'permit2') throw new StepBuildError('approvalMode: "permit2" is not offered for a route of stages');
  const calls = stageCalls(route);
  if (calls.reduce((n, c) => n + c.legs.length, 0) !== route.legs.length || calls.some((c) => c.legs.length === 0))
    throw new StepBuildError(`${routeField}.stages: their legs do not add up to the route's`);
  const tokenOf = (address: string, field: string): StepToken => {
    const token = chain.tokens.find((t) => t.address.toLowerCase() === address);
    if (!token) throw new StepBuildError(`${field}: ${address} is not a token of ${chain.slug}`);
    return token;
  };
  return calls.flatMap((c, i) => {
    const field = `${routeField}.stages[${i}]`;
    const known = chainExecutors(chain).find((e) => e.kind === c.executor.kind && e.address === c.executor.address);
    const foreign = c.legs.find((l) => !known?.deployments.has(deploymentId(l.dex, l.version)));
    if (!known || foreign) throw new StepBuildError(`${field}.executor: ${c.executor.name} does not swap every pool of the stage`);
    const stageIn = c.legs[0].amountIn;
    const next = calls[i + 1];
    if (next && next.legs[0].amountIn !== c.amountOutMinimum)
      throw new StepBuildError(`${field}: the next stage spends ${next.legs[0].amountIn}, not this stage's minimum ${c.amountOutMinimum}`);
    if (next && c.amountOutMinimum > c.legs[c.legs.length - 1].amountOut)
      throw new StepBuildError(`${field}: amountOutMinimum ${c.amountOutMinimum} is more than its output`);
    const stage: Route = {
      legs: c.legs,
      amountIn: stageIn,
      amountOut: c.legs[c.legs.length - 1].amountOut,
      executor: c.executor,
      gas: 0n,
    };
    const tokenIn = c.first ? p.tokenIn : tokenOf(c.legs[0].tokenIn, `${field}.legs[0].tokenIn`);
    const tokenOut = c.last ? p.tokenOut : tokenOf(c.legs[c.legs.length - 1].tokenOut, `${field}.tokenOut`);
    const note = c.last
      ? ''
      : ` (at least ${displayAmount(c.amountOutMinimum, tokenOut)} ${tokenOut.symbol}, expected ${displayAmount(stage.amountOut, tokenOut)}, to the wallet: the next step spends ${displayAmount(c.amountOutMinimum, tokenOut)}, the rest stays with the wallet)`;
    return executorSteps(p, {
      executor: c.executor,
      routes: [stage],
      txs: ENCODERS[c.executor.kind].batch([stage]),
      tokenIn,
      tokenOut,
      nativeIn: ends.nativeIn && c.first,
      nativeOut: ends.nativeOut && c.last,
      poolTokenOut: c.last ? (ends.nativeOut ? ends.wrapped : ends.tokenOut) : stepAddress(tokenOut.address, `${field}.tokenOut`),
      recipient: c.last ? ends.recipient : ends.wallet,
      wallet: ends.wallet,
      maximums: new Map([[stage, stageIn]]),
      minimums: [c.last ? lastMinimum : c.amountOutMinimum],
      note,
    });
  });
}
