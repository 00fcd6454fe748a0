import type { TradeType } from '../protocols/PoolProtocol.ts';
import { callGas, callNativeWork, routeGas } from './gasModel.ts';
import type { Executor, Leg, Route, RouteStage } from './Trade.ts';

/** One stage of a route (Route.stages) with its own legs: what one executor call swaps. */
export interface StageCall {
  readonly executor: Executor;
  readonly legs: readonly Leg[];
  /** The least output the call accepts (RouteStage.amountOutMinimum). */
  readonly amountOutMinimum: bigint;
  readonly first: boolean;
  readonly last: boolean;
}

/** The executor calls of a route: each stage with its legs, or the route itself as one call. */
export function stageCalls(
  route: Pick<Route, 'legs' | 'executor' | 'amountOut'> & { readonly stages?: readonly RouteStage[] },
): StageCall[] {
  const stages = route.stages ?? [{ executor: route.executor, legs: route.legs.length, amountOutMinimum: route.amountOut }];
  let start = 0;
  return stages.map((s, i) => {
    const legs = route.legs.slice(start, start + s.legs);
    start += s.legs;
    return { executor: s.executor, legs, amountOutMinimum: s.amountOutMinimum, first: i === 0, last: i === stages.length - 1 };
  });
}

/**
 * Gas of the steps of a route of stages, its swaps included: per stage its approval (the trade's input for the first
 * stage unless native, with `approvalReset` as flagged; the token handed over for the others, `handoverReset` telling
 * which of those is flagged), its call, its native work (a wrap of native input in the first stage, an unwrap of
 * native output in the last) and its swaps (routeGas). Each stage is its own transaction: nothing is shared.
 */
export function stagesGas(
  calls: readonly StageCall[],
  nativeIn: boolean,
  nativeOut: boolean,
  tradeType: TradeType,
  approvalReset: boolean,
  handoverReset: (token: string) => boolean,
): bigint {
  let gas = 0n;
  for (const c of calls) {
    const work = callNativeWork([c.legs], nativeIn && c.first, nativeOut && c.last);
    const erc20In = !c.first || !nativeIn;
    const reset = c.first ? approvalReset : handoverReset(c.legs[0].tokenIn);
    gas += callGas(c.executor.kind, 1, work.wrapIn, work.unwrapOut, erc20In, tradeType, reset, work) + routeGas(c.legs, tradeType);
  }
  return gas;
}
