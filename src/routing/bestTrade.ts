import type { RefusalCode } from '../errors/RefusalCode.ts';
import type { ChainPoolIndex, PoolEntry } from '../graph/PricingGraph.ts';
import type { Fraction, TradeType } from '../protocols/PoolProtocol.ts';
import { executorsFor } from './executors.ts';
import { findRoutes } from './findRoutes.ts';
import { callGas, routeGas } from './gasModel.ts';
import { type LadderCache, type PathQuote, type PricedPath, pricePath, toPricedPath } from './priceRoutes.ts';
import type { RoutingLimits } from './RoutingLimits.ts';
import type { Executor, Leg, Route, Split, Trade } from './Trade.ts';
import { type TradeEnds, tradeEnds } from './tradeEnds.ts';
import { gasRate, lpFees, priceImpactBps } from './tradeMetrics.ts';
import { wrapTrade } from './wrapTrade.ts';

/** What to trade, on one chain, within which limits (the deployments as a pool filter). */
export interface TradeRequest extends Pick<RoutingLimits, 'maxHops' | 'maxSplits' | 'gasPriceWei'> {
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

/** How hard bestTrade searches. */
export interface BestTradeOptions {
  /** Units the amount is cut into for the split search (20 = 5% steps, as Uniswap's router). */
  readonly grid?: number;
  /** Finer units the chosen routes are re-balanced on (100 = 1% steps); 0 or <= grid: no refinement. */
  readonly refineGrid?: number;
  /** Most paths priced. */
  readonly maxRoutes?: number;
  /**
   * Ladders priced by earlier searches on the same index and side (bestTradesByDeployment shares one between the
   * search over all deployments and those kept to one): a path priced there at the same amounts is not priced again.
   */
  readonly ladders?: LadderCache;
}

/**
 * The best trade, or why none was found (NO_EXACT_OUTPUT_ROUTE: see src/routing/executors.ts, one protocol per path,
 * v2 through the DEX's Router02).
 */
export type TradeOutcome = { readonly ok: true; readonly trade: Trade } | { readonly ok: false; readonly code: RefusalCode };

const DEFAULT_GRID = 20;
const DEFAULT_REFINE_GRID = 100;
/** Routes considered for joining a split, by their value at a quarter of the amount. */
const SPLIT_CANDIDATES = 24;
/** Paths priced over the whole grid: the best this many by their value at a quarter, and at the whole amount. */
const GRID_CANDIDATES = 12;

/** A path that some router can execute, priced over the grid. */
interface Candidate {
  readonly path: PricedPath;
  readonly executors: readonly Executor[];
  /** Pool addresses (splits may not share them). */
  readonly pools: ReadonlySet<string>;
  /** ladder[k - first]: the path priced for k grid units (k >= 1). */
  ladder: PathQuote[];
  first: number;
}

/** The path quote for k units (undefined outside the priced range). */
function at(c: Candidate, k: number): PathQuote | undefined {
  return c.ladder[k - c.first];
}

/** Everything one search shares. */
interface Search {
  readonly index: ChainPoolIndex;
  readonly request: TradeRequest;
  /** Wei -> the priced token (tokenOut for exactIn, tokenIn for exactOut) at the mid price; undefined when unpriced. */
  readonly rate: Fraction | undefined;
  readonly ends: TradeEnds;
  /** Whether the executor wraps the input or unwraps the output. */
  readonly nativeIn: boolean;
  readonly nativeOut: boolean;
  /** tokenIn is flagged approvalReset in the catalogue: each router's approval is two steps. */
  readonly approvalReset: boolean;
}

/**
 * The best executable trade for a request over a chain's pools. The native asset is an end of the trade: routes are
 * searched between the tokens the pools hold (its wrapped token, tradeEnds), and native ↔ wrapped alone is the bare
 * wrap or unwrap (wrapTrade). Otherwise: candidate paths up to maxHops (findRoutes), each
 * priced over a grid of amounts with one walk per pool, a greedy search for up to maxSplits pool-disjoint paths
 * whose grid shares are balanced by water-filling on the marginal amounts (optimal on the grid for concave
 * pricing curves), a re-balancing of the chosen paths on a finer grid, and exact pricing of the final shares.
 * Ranked by output minus the network fee in tokenOut (exactIn), or input plus the network fee in tokenIn
 * (exactOut). Pure: same state and request, same trade.
 */
export function bestTrade(index: ChainPoolIndex, request: TradeRequest, options: BestTradeOptions = {}): TradeOutcome {
  const grid = options.grid ?? DEFAULT_GRID;
  const refineGrid = options.refineGrid ?? DEFAULT_REFINE_GRID;
  const ends = tradeEnds(index.wrappedNative, request.tokenIn, request.tokenOut);
  if (ends.bareWrap) return { ok: true, trade: wrapTrade({ ...request, nativeIn: ends.nativeIn }) };
  const found =
    request.allowKey === undefined
      ? executablePaths(index, ends, request, options)
      : index.memo(
          `paths:${ends.poolTokenIn}:${ends.poolTokenOut}:${request.maxHops}:${request.tradeType}:${options.maxRoutes ?? ''}:${request.allowKey}`,
          () => executablePaths(index, ends, request, options),
        );
  if (found.paths.length === 0)
    return { ok: false, code: found.pathsFound && request.tradeType === 'exactOut' ? 'NO_EXACT_OUTPUT_ROUTE' : 'NO_ROUTE' };
  const cache: LadderCache = options.ladders ?? new Map();
  let candidates: Candidate[] = found.paths.map((p) => ({ path: p.path, executors: p.executors, pools: p.pools, ladder: [], first: 1 }));
  const rate = gasRate(index, request.tradeType === 'exactIn' ? request.tokenOut : request.tokenIn);
  const search: Search = {
    index,
    request,
    rate: rate ?? undefined,
    ends,
    nativeIn: ends.nativeIn === 'wrapped',
    nativeOut: ends.nativeOut === 'wrapped',
    approvalReset: index.token(request.tokenIn)?.approvalReset === true,
  };

  // One-hop paths share no pool prefix: nothing for the ladder cache to share.
  if (request.maxSplits === 1) return bestSinglePath(search, candidates, request.maxHops > 1 ? cache : undefined);

  // Every path is first priced at a quarter and at the whole amount; the best by either get the whole grid.
  const amounts = gridAmounts(request.amount, grid);
  const quarter = Math.max(1, Math.floor(grid / 4));
  const probes = candidates.map((c) => priceGrid(c.path, request.tradeType, [amounts[quarter - 1], amounts[grid - 1]], cache));
  const kept = new Set<Candidate>();
  for (const j of [0, 1]) {
    const ranked = candidates.map((c, i) => ({ c, q: probes[i][j] })).filter((x) => x.q.ok) as {
      c: Candidate;
      q: PathQuote & { ok: true };
    }[];
    ranked.sort((x, y) => {
      const a = value(x.q, request.tradeType);
      const b = value(y.q, request.tradeType);
      return a > b ? -1 : a < b ? 1 : 0;
    });
    for (const x of ranked.slice(0, GRID_CANDIDATES)) kept.add(x.c);
  }
  if (kept.size === 0) return { ok: false, code: refusalCode(probes) };
  candidates = candidates.filter((c) => kept.has(c));
  for (const c of candidates) c.ladder = priceGrid(c.path, request.tradeType, amounts, cache);
  let chosen = growSplits(search, candidates, grid);
  if (!chosen) return { ok: false, code: refusalCode(candidates.map((c) => c.ladder)) };
  if (refineGrid > grid && refineGrid % grid === 0 && chosen.units.length > 1) {
    // Re-balance on the finer grid within one coarse step of the coarse shares: only those amounts are priced.
    const ratio = refineGrid / grid;
    const low = chosen.units.map((u) => Math.max(0, (u - 1) * ratio));
    const high = chosen.units.map((u) => Math.min(refineGrid, (u + 1) * ratio));
    const refined = chosen.members.map((c, i) => {
      const first = Math.max(1, low[i]);
      const amounts = Array.from({ length: high[i] - first + 1 }, (_, j) => (request.amount * BigInt(first + j)) / BigInt(refineGrid));
      return { ...c, ladder: priceGrid(c.path, request.tradeType, amounts, undefined), first };
    });
    const units = waterFill(refined, refineGrid, request.tradeType, low, high);
    if (units) {
      const score = allocationScore(search, refined, units);
      if (score >= chosen.score) chosen = { members: refined, units, score, grid: refineGrid };
    }
  }
  const trade = exactTrade(search, chosen.members, chosen.units, chosen.grid);
  if (trade) return { ok: true, trade };
  // The exact shares moved off the grid into a refusal (a pool's edge): fall back to the best single path.
  const single = growSplits(search, candidates, grid, 1);
  const fallback = single && exactTrade(search, single.members, single.units, single.grid);
  return fallback ? { ok: true, trade: fallback } : { ok: false, code: 'INSUFFICIENT_LIQUIDITY' };
}

/**
 * One split: every path priced at the whole amount only, the best net of its network fee wins (ties: the earlier
 * path, as findRoutes orders them). No grid is needed, since nothing is shared between paths.
 */
function bestSinglePath(search: Search, candidates: readonly Candidate[], cache: LadderCache | undefined): TradeOutcome {
  const { request } = search;
  let best: { c: Candidate; score: bigint } | undefined;
  for (const c of candidates) {
    c.ladder = priceGrid(c.path, request.tradeType, [request.amount], cache);
    if (!c.ladder[0].ok) continue;
    const score = allocationScore(search, [c], [1]);
    if (!best || score > best.score) best = { c, score };
  }
  if (!best) return { ok: false, code: refusalCode(candidates.map((c) => c.ladder)) };
  // The winner's whole-amount quote is already its exact pricing (same path, same amount): not priced again.
  const trade = exactTrade(search, [best.c], [1], 1, true);
  return trade ? { ok: true, trade } : { ok: false, code: 'INSUFFICIENT_LIQUIDITY' };
}

/** A pair's paths that some router can execute, with what a search needs to know of each before pricing. */
interface ExecutablePaths {
  readonly paths: readonly Pick<Candidate, 'path' | 'executors' | 'pools'>[];
  /** Whether findRoutes found any path within the hop limit (executable or not). */
  readonly pathsFound: boolean;
}

/** The candidate paths of a request between the tokens its pools hold (findRoutes) that convert and that a router can execute. */
function executablePaths(index: ChainPoolIndex, ends: TradeEnds, request: TradeRequest, options: BestTradeOptions): ExecutablePaths {
  const found = findRoutes(index, ends.poolTokenIn, ends.poolTokenOut, {
    maxHops: request.maxHops,
    allow: request.allow,
    maxRoutes: options.maxRoutes,
  });
  const paths: Pick<Candidate, 'path' | 'executors' | 'pools'>[] = [];
  for (const path of found) {
    const executors = executorsFor(index.chain, path.pools, request.tradeType);
    if (executors.length === 0) continue;
    const priced = toPricedPath(index, path);
    if (!priced) continue;
    paths.push({ path: priced, executors, pools: new Set(priced.pools.map((p) => p.address)) });
  }
  return { paths, pathsFound: found.length > 0 };
}

/** amount x k / grid for k = 1..grid (0 where the share rounds to nothing). */
function gridAmounts(amount: bigint, grid: number): bigint[] {
  const g = BigInt(grid);
  return Array.from({ length: grid }, (_, i) => (amount * BigInt(i + 1)) / g);
}

/** Prices a path over grid amounts; zero amounts are refused as too small. */
function priceGrid(path: PricedPath, tradeType: TradeType, amounts: readonly bigint[], cache: LadderCache | undefined): PathQuote[] {
  const positive = amounts.filter((a) => a > 0n);
  const priced = pricePath(path, tradeType, positive, cache);
  const skipped = amounts.length - positive.length;
  return amounts.map((_, i) => (i < skipped ? { ok: false, code: 'AMOUNT_TOO_SMALL' } : priced[i - skipped]));
}

/** The amount a path quote is ranked by: output for exactIn, minus the input for exactOut. */
function value(q: PathQuote & { ok: true }, tradeType: TradeType): bigint {
  return tradeType === 'exactIn' ? q.legs[q.legs.length - 1].amountOut : -q.legs[0].amountIn;
}

/**
 * Shares of `grid` units over the members by water-filling: starting from `low` units each (none by default),
 * each further unit goes to the member whose value grows most with it, up to `high` units each. Undefined when the
 * members cannot carry the whole amount, unless `partial`: then the units they can carry (fewer than `grid`).
 */
function waterFill(
  members: readonly Candidate[],
  grid: number,
  tradeType: TradeType,
  low?: readonly number[],
  high?: readonly number[],
  partial = false,
): number[] | undefined {
  const units = members.map((_, i) => low?.[i] ?? 0);
  for (let u = units.reduce((a, b) => a + b, 0); u < grid; u++) {
    let best = -1;
    let bestGain = 0n;
    for (let i = 0; i < members.length; i++) {
      if (high && units[i] >= high[i]) continue;
      const next = at(members[i], units[i] + 1);
      if (!next?.ok) continue;
      const prev = units[i] > 0 ? at(members[i], units[i]) : undefined;
      if (prev && !prev.ok) continue;
      const gain = value(next, tradeType) - (prev ? value(prev as PathQuote & { ok: true }, tradeType) : 0n);
      if (best < 0 || gain > bestGain) {
        best = i;
        bestGain = gain;
      }
    }
    if (best < 0) return partial ? units : undefined;
    units[best]++;
  }
  return units;
}

/** Groups active routes by the executor they will use: a common one when every route can use it. */
function assignExecutors(members: readonly { executors: readonly Executor[] }[]): Executor[] {
  const common = members[0]?.executors.find((e) => members.every((m) => m.executors.some((x) => x.address === e.address)));
  return members.map((m) => common ?? m.executors[0]);
}

/** Gas of the steps of a set of routes with their executors. */
function tradeGas(search: Search, routes: readonly { legs: readonly Leg[]; executor: Executor }[]): bigint {
  let gas = 0n;
  const groups = new Map<string, { executor: Executor; count: number }>();
  for (const r of routes) {
    gas += routeGas(r.legs, search.request.tradeType);
    const g = groups.get(r.executor.address);
    if (g) g.count++;
    else groups.set(r.executor.address, { executor: r.executor, count: 1 });
  }
  for (const { executor, count } of groups.values())
    gas += callGas(
      executor.kind,
      count,
      search.nativeIn,
      search.nativeOut,
      !search.nativeIn,
      search.request.tradeType,
      search.approvalReset,
    );
  return gas;
}

/** Value of an allocation net of its network fee (in the priced token, signed as `value`). */
function allocationScore(search: Search, members: readonly Candidate[], units: readonly number[]): bigint {
  const active = members.map((m, i) => ({ m, u: units[i] })).filter((x) => x.u > 0);
  const executors = assignExecutors(active.map((x) => x.m));
  let gross = 0n;
  const routes: { legs: readonly Leg[]; executor: Executor }[] = [];
  active.forEach(({ m, u }, i) => {
    const q = at(m, u)! as PathQuote & { ok: true };
    gross += value(q, search.request.tradeType);
    routes.push({ legs: q.legs, executor: executors[i] });
  });
  return gross - gasCost(search, tradeGas(search, routes));
}

interface Allocation {
  readonly members: readonly Candidate[];
  readonly units: readonly number[];
  readonly score: bigint;
  readonly grid: number;
}

/** Paths that together carry only part of the amount: how many grid units, and their value net of gas. */
interface PartialSet {
  readonly members: readonly Candidate[];
  readonly filled: number;
  readonly score: bigint;
}

/** Of the options each added to `base`, the set whose water-filling carries the most units (then the best value). */
function widestPartial(search: Search, base: readonly Candidate[], options: readonly Candidate[], grid: number): PartialSet | undefined {
  let widest: PartialSet | undefined;
  for (const c of options) {
    const members = [...base, c];
    const carried = waterFill(members, grid, search.request.tradeType, undefined, undefined, true)!;
    const filled = carried.reduce((a, b) => a + b, 0);
    if (filled === 0) continue;
    const score = allocationScore(search, members, carried);
    if (!widest || filled > widest.filled || (filled === widest.filled && score > widest.score)) widest = { members, filled, score };
  }
  return widest;
}

/**
 * Greedy breadth of splits: start from nothing, and at each round add the pool-disjoint path that improves the
 * water-filled allocation most, until maxSplits paths or no improvement. While no set of paths yet carries the whole
 * amount (each path refuses a larger share: its pools run dry, or cannot hold it), the round adds the path that lets
 * the set carry the most units (then the best value), so a split can route around pools that take only part.
 */
function growSplits(
  search: Search,
  candidates: readonly Candidate[],
  grid: number,
  maxSplits = search.request.maxSplits,
): Allocation | undefined {
  const tradeType = search.request.tradeType;
  const quarter = Math.max(0, Math.floor(grid / 4) - 1);
  const rank = (c: Candidate): bigint | undefined => {
    const q = at(c, quarter + 1);
    return q?.ok ? value(q, tradeType) : undefined;
  };
  const pool = [...candidates]
    .filter((c) => c.ladder.some((q) => q.ok))
    .sort((a, b) => {
      const ra = rank(a);
      const rb = rank(b);
      if (ra === undefined || rb === undefined) return ra === undefined ? (rb === undefined ? 0 : 1) : -1;
      return ra > rb ? -1 : ra < rb ? 1 : 0;
    });
  const singles = pool.filter((c) => at(c, grid)!.ok);
  const joiners = pool.slice(0, SPLIT_CANDIDATES);
  let current: Allocation | undefined;
  // Before any allocation carries the whole amount: the paths chosen so far and how many units they carry together.
  let partial: PartialSet = { members: [], filled: 0, score: 0n };
  for (let round = 0; round < maxSplits; round++) {
    let best: Allocation | undefined;
    const base = current ? current.members : partial.members;
    const options = (round === 0 ? [...new Set([...singles, ...joiners])] : joiners).filter(
      (c) => !base.includes(c) && !base.some((m) => [...c.pools].some((p) => m.pools.has(p))),
    );
    for (const c of options) {
      const members = [...base, c];
      const units = waterFill(members, grid, tradeType);
      if (!units) continue;
      const score = allocationScore(search, members, units);
      if (!best || score > best.score) best = { members, units, score, grid };
    }
    if (!best) {
      if (current) break;
      // No set carries the whole amount yet: keep the one that carries the most and try one more path beside it.
      const widest = widestPartial(search, base, options, grid);
      if (!widest || widest.filled <= partial.filled) break;
      partial = widest;
      continue;
    }
    if (current && best.score <= current.score) break;
    current = best;
  }
  if (!current) return undefined;
  // Members the water-filling left without a share are dropped.
  const keep = current.units.map((u, i) => [u, i] as const).filter(([u]) => u > 0);
  return { members: keep.map(([, i]) => current!.members[i]), units: keep.map(([u]) => u), score: current.score, grid: current.grid };
}

/**
 * Refusal code of a search that found paths but no trade, from the paths' refusals of the whole amount:
 * AMOUNT_TOO_SMALL when some path rounds it to nothing (a larger amount may be served), else AMOUNT_TOO_LARGE when
 * some path overflows on it (a smaller amount may be served), INSUFFICIENT_LIQUIDITY otherwise.
 */
function refusalCode(ladders: readonly (readonly PathQuote[])[]): RefusalCode {
  const refused = (code: RefusalCode) =>
    ladders.some((l) => {
      const q = l[l.length - 1];
      return !q.ok && q.code === code;
    });
  if (refused('AMOUNT_TOO_SMALL')) return 'AMOUNT_TOO_SMALL';
  return refused('AMOUNT_TOO_LARGE') ? 'AMOUNT_TOO_LARGE' : 'INSUFFICIENT_LIQUIDITY';
}

/**
 * Prices the final shares exactly and assembles the trade; undefined when a share is refused. `priced`: the members'
 * ladders already hold the quote of each final share (one split over the whole amount), which is used as is.
 */
function exactTrade(
  search: Search,
  members: readonly Candidate[],
  units: readonly number[],
  grid: number,
  priced = false,
): Trade | undefined {
  const { request } = search;
  const order = units.map((_u, i) => i).sort((a, b) => units[b] - units[a] || a - b);
  const shares = order.map((i) => (request.amount * BigInt(units[i])) / BigInt(grid));
  shares[0] += request.amount - shares.reduce((s, x) => s + x, 0n);
  const executors = assignExecutors(order.map((i) => members[i]));
  const splits: Split[] = [];
  for (let j = 0; j < order.length; j++) {
    const member = members[order[j]];
    if (shares[j] <= 0n) return undefined;
    const q = priced ? at(member, units[order[j]]) : pricePath(member.path, request.tradeType, [shares[j]])[0];
    if (!q?.ok) return undefined;
    const legs = q.legs;
    const route: Route = {
      legs,
      amountIn: legs[0].amountIn,
      amountOut: legs[legs.length - 1].amountOut,
      executor: executors[j],
      gas: routeGas(legs, request.tradeType),
    };
    splits.push({ percent: (units[order[j]] * 100) / grid, route });
  }
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

/** Network fee of `gas` units in the search's priced token; 0 when unpriced. */
function gasCost(search: Search, gas: bigint): bigint {
  const { rate, request } = search;
  return rate && request.gasPriceWei > 0n ? (gas * request.gasPriceWei * rate.num) / rate.den : 0n;
}

/** A network fee of `wei` in `token` at the mid price; null where no pool path prices it. */
function networkFeeIn(index: ChainPoolIndex, token: string, wei: bigint): bigint | null {
  const rate = gasRate(index, token);
  return rate ? (wei * rate.num) / rate.den : null;
}
