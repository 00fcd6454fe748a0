import type { ChainPoolIndex } from '../graph/PricingGraph.ts';
import type { Candidate } from './candidates.ts';
import { routeGas } from './gasModel.ts';
import { assignExecutors, plainExecutor, routeStagesOf, type Search, tradeGas } from './searchGas.ts';
import type { OkQuote } from './splitContext.ts';
import type { Route, Split, Trade } from './Trade.ts';
import { gasRate, lpFees, priceImpactBps } from './tradeMetrics.ts';

/** The trade of exactly priced shares (largest first; the quotes are final). */
export function exactTrade(search: Search, members: readonly Candidate[], shares: readonly bigint[], quotes: readonly OkQuote[]): Trade {
  const { request } = search;
  const order =
    shares.length === 1 ? [0] : shares.map((_s, i) => i).sort((a, b) => (shares[b] > shares[a] ? 1 : shares[b] < shares[a] ? -1 : a - b));
  const executors = assignExecutors(order.map((i) => members[i]));
  const percents = sharePercents(order.map((i) => shares[i]));
  const splits: Split[] = order.map((i, j) => {
    const legs = quotes[i].legs;
    const stages = routeStagesOf(members[i], legs);
    const route: Route = {
      legs,
      amountIn: legs[0].amountIn,
      amountOut: legs[legs.length - 1].amountOut,
      executor: plainExecutor(executors[j]),
      ...(stages ? { stages } : {}),
      gas: routeGas(legs, request.tradeType),
    };
    return { percent: percents[j], route };
  });
  const gasEstimate = tradeGas(
    search,
    splits.map((s) => s.route),
  );
  return {
    tradeType: request.tradeType,
    tokenIn: request.tokenIn,
    tokenOut: request.tokenOut,
    nativeIn: search.ends.nativeIn,
    nativeOut: search.ends.nativeOut,
    amountIn: splits.reduce((s, x) => s + x.route.amountIn, 0n),
    amountOut: splits.reduce((s, x) => s + x.route.amountOut, 0n),
    splits,
    gasEstimate,
    gasPriceWei: request.gasPriceWei,
    gasCost: {
      tokenIn: networkFeeIn(search.index, request.tokenIn, gasEstimate * request.gasPriceWei),
      tokenOut: networkFeeIn(search.index, request.tokenOut, gasEstimate * request.gasPriceWei),
    },
    priceImpactBps: priceImpactBps(
      splits,
      order.map((i) => members[i].path),
    ),
    fees: splits.reduce((s, x) => s + lpFees(x.route), 0n),
  };
}

/**
 * Each share of the fixed amount in percent to four decimals (millionths of the amount), largest remainders rounded
 * up so the parts add up to exactly 100.
 */
function sharePercents(shares: readonly bigint[]): number[] {
  // One path takes the whole amount (most trades): 100, as below.
  if (shares.length === 1) return [100];
  const total = shares.reduce((a, b) => a + b, 0n);
  const ppm = shares.map((s) => (s * 1_000_000n) / total);
  const rest = shares.map((s, i) => s * 1_000_000n - ppm[i] * total);
  let missing = 1_000_000n - ppm.reduce((a, b) => a + b, 0n);
  const byRest = shares.map((_s, i) => i).sort((a, b) => (rest[b] > rest[a] ? 1 : rest[b] < rest[a] ? -1 : a - b));
  for (const i of byRest) {
    if (missing <= 0n) break;
    ppm[i]++;
    missing--;
  }
  return ppm.map((p) => Number(p) / 10_000);
}

/** A network fee of `wei` in `token` at the mid price; null where no pool path prices it. */
function networkFeeIn(index: ChainPoolIndex, token: string, wei: bigint): bigint | null {
  const rate = gasRate(index, token);
  return rate ? (wei * rate.num) / rate.den : null;
}
