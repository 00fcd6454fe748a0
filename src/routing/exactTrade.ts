import type { ChainPoolIndex } from '../graph/ChainPoolIndex.ts';
import type { Candidate } from './candidates.ts';
import { routeGas } from './gasModel.ts';
import { insertionOrder } from './insertionOrder.ts';
import type { PricedPath } from './priceRoutes.ts';
import { assignExecutors, plainExecutor, routeStagesOf, type Search, tradeGas } from './searchGas.ts';
import type { OkQuote } from './splitContext.ts';
import type { Route, Split, Trade } from './Trade.ts';
import { gasRate, lpFees, priceImpactBps } from './tradeMetrics.ts';

/** The trade of exactly priced shares (largest first; the quotes are final). */
export function exactTrade(search: Search, members: readonly Candidate[], shares: readonly bigint[], quotes: readonly OkQuote[]): Trade {
  const { request } = search;
  // The shares by size, the largest first (equal ones in their order).
  const n = shares.length;
  const order = insertionOrder(n, (i, k) => shares[i] > shares[k]);
  // Loops, not map/reduce closures: the members, shares and paths in that order, and the routes.
  const ordered: Candidate[] = new Array(n);
  const orderedShares: bigint[] = new Array(n);
  const paths: PricedPath[] = new Array(n);
  for (let j = 0; j < n; j++) {
    ordered[j] = members[order[j]];
    orderedShares[j] = shares[order[j]];
    paths[j] = ordered[j].path;
  }
  const executors = assignExecutors(ordered);
  const percents = sharePercents(orderedShares);
  const splits: Split[] = new Array(n);
  const routes: Route[] = new Array(n);
  let amountIn = 0n;
  let amountOut = 0n;
  let fees = 0n;
  for (let j = 0; j < n; j++) {
    const legs = quotes[order[j]].legs;
    const stages = routeStagesOf(ordered[j], legs);
    const first = legs[0].amountIn;
    const last = legs[legs.length - 1].amountOut;
    const executor = plainExecutor(executors[j]);
    const gas = routeGas(legs, request.tradeType);
    // Its fields in this order either way (a trade's JSON), stages only where it has them.
    const route: Route = stages
      ? { legs, amountIn: first, amountOut: last, executor, stages, gas }
      : { legs, amountIn: first, amountOut: last, executor, gas };
    routes[j] = route;
    splits[j] = { percent: percents[j], route };
    amountIn += first;
    amountOut += last;
    fees += lpFees(route);
  }
  const gasEstimate = tradeGas(search, routes);
  const wei = gasEstimate * request.gasPriceWei;
  return {
    tradeType: request.tradeType,
    tokenIn: request.tokenIn,
    tokenOut: request.tokenOut,
    nativeIn: search.ends.nativeIn,
    nativeOut: search.ends.nativeOut,
    amountIn,
    amountOut,
    splits,
    gasEstimate,
    gasPriceWei: request.gasPriceWei,
    gasCost: { tokenIn: networkFeeIn(search.index, request.tokenIn, wei), tokenOut: networkFeeIn(search.index, request.tokenOut, wei) },
    priceImpactBps: priceImpactBps(splits, paths),
    fees,
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
  // Each floor is at most a million (an exact number): summed as numbers, no BigInt per addition.
  const ppm: number[] = new Array(n);
  const rest: bigint[] = new Array(n);
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const scaled = shares[i] * 1_000_000n;
    const p = Number(scaled / total);
    ppm[i] = p;
    rest[i] = scaled % total;
    sum += p;
  }
  // Fewer than n millionths are missing (each floor drops less than one): they go to the largest remainders, the
  // first of equal ones first; a remainder that got one is marked -1 (every remainder is at least 0).
  for (let missing = 1_000_000 - sum; missing > 0; missing--) {
    let k = -1;
    for (let i = 0; i < n; i++) if (rest[i] >= 0n && (k < 0 || rest[i] > rest[k])) k = i;
    ppm[k]++;
    rest[k] = -1n;
  }
  const percents: number[] = new Array(n);
  for (let i = 0; i < n; i++) percents[i] = ppm[i] / 10_000;
  return percents;
}

/** A network fee of `wei` in `token` at the mid price; null where no pool path prices it. */
function networkFeeIn(index: ChainPoolIndex, token: string, wei: bigint): bigint | null {
  const rate = gasRate(index, token);
  return rate ? (wei * rate.num) / rate.den : null;
}
