import type { ChainPoolIndex, PoolEntry } from '../graph/ChainPoolIndex.ts';
import type { Fraction, TradeType } from '../protocols/PoolProtocol.ts';
import type { Candidate } from './candidates.ts';
import type { StagePlan } from './executors.ts';
import { type CallGasFigure, callGasFigure, routeGas } from './gasModel.ts';
import { type LentArrays, lent } from './lentArrays.ts';
import { addNativeWork, type NativeWork, type NativeWorkSum, noNativeWork } from './nativePools.ts';
import type { RoutingLimits } from './RoutingLimits.ts';
import { type OkQuote, quoteValue } from './splitContext.ts';
import { stageCalls, stagesGas } from './stagedRoutes.ts';
import type { Executor, Leg, RouteStage } from './Trade.ts';
import type { TradeEnds } from './tradeEnds.ts';

/*
 * What one route search shares (Search) and the gas of its executor calls: bestTrade.ts prices, searchCurves.ts
 * bounds and steers with these figures.
 */

/** What to trade, on one chain, within which limits (the deployments as a pool filter). */
export interface TradeRequest
  extends Pick<RoutingLimits, 'maxHops' | 'maxSplits' | 'gasPriceWei' | 'handoverSlippageBps' | 'approvalMode'> {
  /** Lower-case token addresses (the native asset as its pseudo-address). */
  readonly tokenIn: string;
  readonly tokenOut: string;
  readonly tradeType: TradeType;
  /** The fixed amount: tokenIn's for exactIn, tokenOut's for exactOut (smallest units). */
  readonly amount: bigint;
  /** Which pools may be used (DEX filters). */
  readonly allow: (entry: PoolEntry) => boolean;
  /**
   * A name for `allow` (e.g. its deployments) under which the pair's candidate paths are kept with the index and
   * reused by later searches of the same pair, hop limit, side and filter; without it they are found anew.
   */
  readonly allowKey?: string;
}

/** Everything one search shares. */
export interface Search {
  readonly index: ChainPoolIndex;
  readonly request: TradeRequest;
  /** Wei -> the priced token (tokenOut for exactIn, tokenIn for exactOut) at the mid price; undefined when unpriced. */
  readonly rate: Fraction | undefined;
  /** The gas price times the rate's numerator when fees are ranked (a rate and a gas price above 0), for gasCost. */
  readonly feeNum: bigint | undefined;
  readonly ends: TradeEnds;
  /** Whether the input or output is the native asset (its routes start or end at WETH pools, wrapped by the executor, or at native ETH pools). */
  readonly nativeIn: boolean;
  readonly nativeOut: boolean;
  /** tokenIn is flagged approvalReset in the catalogue: each router's approval is two steps. */
  readonly approvalReset: boolean;
}

/**
 * Groups active routes by the executor they will use: a common one when every route run in one call can use it. A
 * path of stages keeps its first stage's executor: its stages are steps of their own, never in another route's call.
 * The answer is a lent array (lentArrays.ts), written over by the next call: read it before calling again, keep none
 * of it (its callers read each route's executor once, for every set the split search weighs).
 */
export function assignExecutors(members: readonly { executors: readonly Executor[]; stages?: readonly StagePlan[] }[]): Executor[] {
  // Loops rather than find/every/some closures: the split search calls this for every set it weighs.
  let first = 0;
  while (first < members.length && members[first].stages) first++;
  let common: Executor | undefined;
  // Indexed loops, not for-of: each for-of over an array allocates an iterator.
  const firstExecutors = first < members.length ? members[first].executors : [];
  for (let f = 0; f < firstExecutors.length; f++) {
    const e = firstExecutors[f];
    let everyOne = true;
    for (let m = first + 1; m < members.length && everyOne; m++) {
      if (members[m].stages) continue;
      const executors = members[m].executors;
      // Paths of the same deployments share one list (executorsFor's answer): e is in it.
      let has = executors === firstExecutors;
      for (let x = 0; x < executors.length && !has; x++) has = executors[x].address === e.address;
      everyOne = has;
    }
    if (everyOne) {
      common = e;
      break;
    }
  }
  const executors = lent(lentExecutors, members.length);
  for (let i = 0; i < members.length; i++) executors[i] = members[i].stages ? members[i].executors[0] : (common ?? members[i].executors[0]);
  return executors;
}

const lentExecutors: LentArrays<Executor> = [];

/** A candidate's stages for the gas model before pricing (no minimums: stagesGas reads executors and legs only). */
export function nominalStages(c: Candidate): RouteStage[] | undefined {
  return c.stages?.map((s) => ({ executor: s.executors[0], legs: s.legs, amountOutMinimum: 0n }));
}

/**
 * A route's executor call(s) as the gas model reads them: a route of stages is one call per stage. `gas`, where
 * given, is routeGas of its legs on the search's side (a trade's Route.gas), not computed again.
 */
export type GasRoute = {
  readonly legs: readonly Leg[];
  readonly executor: Executor;
  readonly stages?: readonly RouteStage[];
  readonly gas?: bigint;
};

/** Gas of the steps of a set of routes with their executors (a route of stages: each stage's steps, stagesGas). */
export function tradeGas(search: Search, routes: readonly GasRoute[]): bigint {
  let gas = 0n;
  // Routes of one call each (most trades): their calls are the routes themselves, not a list copied by push (whose
  // first push allocates room for 17).
  let staged = false;
  for (let i = 0; i < routes.length && !staged; i++) if (routes[i].stages) staged = true;
  if (!staged) {
    for (let i = 0; i < routes.length; i++) gas += routes[i].gas ?? routeGas(routes[i].legs, search.request.tradeType);
    return gas + callsGas(search, routes);
  }
  const calls: GasRoute[] = [];
  for (const r of routes) {
    if (r.stages) {
      // One predicate per index (memo), not a closure made per call.
      const { index } = search;
      const token = index.memo(
        'approvalResetToken',
        () =>
          (t: string): boolean =>
            index.token(t)?.approvalReset === true,
      );
      const staged = stageCalls({ ...r, stages: r.stages, amountOut: 0n });
      gas += stagesGas(staged, search.nativeIn, search.nativeOut, search.request.tradeType, search.approvalReset, token);
      continue;
    }
    gas += r.gas ?? routeGas(r.legs, search.request.tradeType);
    calls.push(r);
  }
  return gas + callsGas(search, calls);
}

/**
 * The stages of a priced candidate's route (Route.stages), undefined for a route of one call: each with its
 * executor (the first that runs it) and, but for the last, the amount the next stage's first leg spends as its least
 * output (pricePath priced that leg at the hand-over minimum).
 */
export function routeStagesOf(c: Candidate, legs: readonly Leg[]): RouteStage[] | undefined {
  if (!c.stages) return undefined;
  let end = 0;
  return c.stages.map((s, i) => {
    end += s.legs;
    const last = i === c.stages!.length - 1;
    return {
      executor: plainExecutor(s.executors[0]),
      legs: s.legs,
      amountOutMinimum: last ? legs[legs.length - 1].amountOut : legs[end].amountIn,
    };
  });
}

/**
 * Gas of the executor calls of routes (with their legs, priced or nominal) and executors: one call per distinct
 * executor, with its route count and the native work of its routes (callNativeWork: wraps only where a route's end
 * pool holds the wrapped token, and its crossings between ETH and WETH pools).
 */
export function callsGas(search: Search, routes: readonly { executor: Executor; legs: readonly Leg[] }[]): bigint {
  return BigInt(callsGasUnits(search, routes));
}

/**
 * callsGas as a number (gas units, an integer far below 2^53): what the split search's fee estimate sums for every
 * set it weighs, without a BigInt sum and conversion each.
 */
export function callsGasUnits(search: Search, routes: readonly { executor: Executor; legs: readonly Leg[] }[]): number {
  let gas = 0;
  for (let i = 0; i < routes.length; i++) {
    const executor = routes[i].executor;
    let first = true;
    for (let k = 0; k < i && first; k++) first = routes[k].executor !== executor && routes[k].executor.address !== executor.address;
    if (!first) continue;
    // This executor's routes and their native work together (callNativeWork's, without an array and an object per
    // route: loops, not filter/findIndex closures, as this runs for every set the search weighs).
    const work = resetNativeWork(callWork);
    let own = 0;
    for (let k = i; k < routes.length; k++) {
      if (routes[k].executor !== executor && routes[k].executor.address !== executor.address) continue;
      addNativeWork(work, routes[k].legs, search.nativeIn, search.nativeOut);
      own++;
    }
    gas += executorCallFigure(search, executor, own, work).units;
  }
  return gas;
}

/** callsGasUnits' record of a call's native work, reset for each call (callGasFigure reads it and keeps none of it). */
const callWork = noNativeWork();

function resetNativeWork(work: NativeWorkSum): NativeWorkSum {
  work.wrapIn = false;
  work.unwrapOut = false;
  work.poolIn = false;
  work.poolOut = false;
  work.wraps = 0;
  work.unwraps = 0;
  return work;
}

/** callsGas of one route (its executor and legs), without the list and record callsGas reads: per candidate bound. */
export function routeCallGas(search: Search, executor: Executor, legs: readonly Leg[]): bigint {
  return executorCallFigure(search, executor, 1, addNativeWork(noNativeWork(), legs, search.nativeIn, search.nativeOut)).gas;
}

/** The gas of one executor's call carrying `routes` routes whose native work together is `work` (callGas's figure). */
function executorCallFigure(search: Search, executor: Executor, routes: number, work: NativeWork): CallGasFigure {
  return callGasFigure(
    executor.kind,
    routes,
    work.wrapIn,
    work.unwrapOut,
    !search.nativeIn,
    search.request.tradeType,
    search.approvalReset,
    work,
    search.request.approvalMode === 'permit2',
  );
}

/** Value of priced routes net of their network fee (in the priced token, signed as quoteValue). */
export function score(search: Search, members: readonly Candidate[], quotes: readonly OkQuote[]): bigint {
  const executors = assignExecutors(members);
  let gross = 0n;
  // A loop, not a map closure (and the context its sum would need): the polish scores every set it prices.
  const routes: GasRoute[] = new Array(quotes.length);
  for (let i = 0; i < quotes.length; i++) {
    const q = quotes[i];
    gross += quoteValue(q, search.request.tradeType);
    const stages = routeStagesOf(members[i], q.legs);
    routes[i] = stages ? { legs: q.legs, executor: executors[i], stages } : { legs: q.legs, executor: executors[i] };
  }
  return gross - gasCost(search, tradeGas(search, routes));
}

/**
 * A route's executor as a trade holds it: its kind, address and name only. The chain's executors also carry the
 * sets of deployments they swap (ChainExecutor), which nothing reads from a trade and which a worker's result would
 * otherwise copy across the thread boundary with every route.
 */
export function plainExecutor(e: Executor): Executor {
  return { kind: e.kind, address: e.address, name: e.name };
}

/**
 * Network fee of `gas` units in the search's priced token; 0 when unpriced. gas × gasPriceWei × num / den, with the
 * first product made once per search (Search.feeNum), and each total's fee kept per rate and gas price as
 * gasCostUnits keeps its figures: the exact polish scores many share moves whose gas totals repeat (a BigInt product
 * and a division of the rate's many-word numbers each).
 */
export function gasCost(search: Search, gas: bigint): bigint {
  const feeNum = search.feeNum;
  if (feeNum === undefined) return 0n;
  if (gas < 0n || gas > MAX_KEPT_GAS) return (gas * feeNum) / search.rate!.den;
  return keptFee(search.rate!, feeNum, Number(gas)).exact;
}

/** Gas totals whose fees gasCost keeps: those a number holds exactly (its key). */
const MAX_KEPT_GAS = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * Number(gasCost) of `gas` units (an exact integer): the split search's fee estimate of every set it weighs. The
 * sets share few gas totals, and so do the searches of one request and of later requests on the same rate (gasRate
 * keeps one per index and token) and gas price: each total is converted (a BigInt product and a division of the
 * rate's many-word numbers) once per rate and gas price, not once per search.
 */
export function gasCostUnits(search: Search, gas: number): number {
  const feeNum = search.feeNum;
  if (feeNum === undefined) return 0;
  return keptFee(search.rate!, feeNum, gas).units;
}

/**
 * The fee of `gas` units (an exact integer; converted to a BigInt only when not kept) at a rate and the gas price whose product with the rate's
 * numerator is `feeNum`, exact and as a number, kept by total (one gas price at a time per rate).
 */
function keptFee(rate: Fraction, feeNum: bigint, gas: number): KeptFee {
  let known = feesOfGas.get(rate);
  if (known === undefined || known.feeNum !== feeNum) {
    known = { feeNum, fees: new Map() };
    feesOfGas.set(rate, known);
  }
  let fee = known.fees.get(gas);
  if (fee === undefined) {
    if (known.fees.size >= MAX_FEES_OF_GAS) known.fees.clear();
    const exact = (BigInt(gas) * feeNum) / rate.den;
    fee = { exact, units: Number(exact) };
    known.fees.set(gas, fee);
  }
  return fee;
}

/** A gas total's fee, exact (gasCost) and as a number (gasCostUnits). */
interface KeptFee {
  readonly exact: bigint;
  readonly units: number;
}

/** The kept fees by rate. */
const feesOfGas = new WeakMap<Fraction, { readonly feeNum: bigint; readonly fees: Map<number, KeptFee> }>();
/** Most gas totals kept per rate (a search weighs a few dozen; a long run on one rate stays bounded). */
const MAX_FEES_OF_GAS = 4096;
