import type { ChainPoolIndex } from '../graph/PricingGraph.ts';
import type { Candidate } from './candidates.ts';
import { routeGas } from './gasModel.ts';
import { insertionOrder } from './insertionOrder.ts';
import { assignExecutors, plainExecutor, routeStagesOf, type Search, tradeGas } from './searchGas.ts';
import type { OkQuote } from './splitContext.ts';
import type { Route, Split, Trade } from './Trade.ts';
import { gasRate, lpFees, priceImpactBps } from './tradeMetrics.ts';

/** The trade of exactly priced shares (largest first; the quotes are final). */
export function exactTrade(search: Search, members: readonly Candidate[], shares: readonly bigint[], quotes: readonly OkQuote[]): Trade {
  const { request } = search;
  // The shares by size, the largest first (equal ones in their order).
  const order = insertionOrder(shares.length, (i, k) => shares[i] > shares[k]);
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
  const wei = gasEstimate * request.gasPriceWei;
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
    gasCost: { tokenIn: networkFeeIn(search.index, request.tokenIn, wei), tokenOut: networkFeeIn(search.index, request.tokenOut, wei) },
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
export function sharePercents(shares: readonly bigint[]): number[] {
  // One path takes the whole amount (most trades): 100, as below.
  const n = shares.length;
  if (n === 1) return [100];
  let total = 0n;
  for (let i = 0; i < n; i++) total += shares[i];
  const ppm: bigint[] = new Array(n);
  const rest: bigint[] = new Array(n);
  let sum = 0n;
  for (let i = 0; i < n; i++) {
    const scaled = shares[i] * 1_000_000n;
    const p = scaled / total;
    ppm[i] = p;
    rest[i] = scaled - p * total;
    sum += p;
  }
  // Fewer than n millionths are missing (each floor drops less than one): they go to the largest remainders, the
  // first of equal ones first; a remainder that got one is marked -1 (every remainder is at least 0).
  for (let missing = Number(1_000_000n - sum); missing > 0; missing--) {
    let k = -1;
    for (let i = 0; i < n; i++) if (rest[i] >= 0n && (k < 0 || rest[i] > rest[k])) k = i;
    ppm[k]++;
    rest[k] = -1n;
  }
  const percents: number[] = new Array(n);
  for (let i = 0; i < n; i++) percents[i] = Number(ppm[i]) / 10_000;
  return percents;
}

/** A network fee of `wei` in `token` at the mid price; null where no pool path prices it. */
function networkFeeIn(index: ChainPoolIndex, token: string, wei: bigint): bigint | null {
  const rate = gasRate(index, token);
  return rate ? (wei * rate.num) / rate.den : null;
}
