import type { ChainPoolIndex, PoolEntry } from '../graph/ChainPoolIndex.ts';
import type { PathNode } from '../graph/pathTree.ts';
import type { TradeType } from '../protocols/PoolProtocol.ts';
import { protocolGas, protocolOf } from '../protocols/registry.ts';
import { chainMeetsNativePools, executorsFor, routeStages, type StagePlan } from './executors.ts';
import { DEFAULT_MAX_ROUTES, findRoutes, type NativeNode, type PoolPath } from './findRoutes.ts';
import { leastRouteGas, routeGas } from './gasModel.ts';
import { crossesNative, heldAt } from './nativePools.ts';
import { pathRateAtZero } from './pathCurve.ts';
import { legKey, type PricedPath, toPricedPath } from './priceRoutes.ts';
import type { RoutingLimits } from './RoutingLimits.ts';
import type { RateOrder, SplitPath } from './splitContext.ts';
import { type OutputBound, outputBound, rateCeiling } from './stagedRoutes.ts';
import type { Executor, Leg } from './Trade.ts';
import type { TradeEnds } from './tradeEnds.ts';

/**
 * A search's candidate paths: the paths findRoutes finds between a request's pool tokens that a router (or routers,
 * as stages) can execute, each with what the search needs before pricing (executors, nominal legs and gas), kept in
 * the index's tree of pool entries (ChainPoolIndex.paths) so that later searches reuse them, on the same state and on
 * the states later blocks derive for the paths through none of the pools they change (bestTrade.ts prices and ranks
 * them).
 */
/** A path that some router can execute, or (stages) some routers one after the other. */
export interface Candidate extends SplitPath {
  /** The executors of the whole path (a path of stages: of its first stage). */
  readonly executors: readonly Executor[];
  /**
   * A path no single executor runs, executed as consecutive stages (executors.ts routeStages): alone or as one part
   * of a split, its own steps either way.
   */
  readonly stages?: readonly StagePlan[];
  /** Its legs before pricing (no ticks, no cold slots): the network fee the split search estimates. */
  readonly nominal: readonly Leg[];
  /**
   * Gas of its nominal legs' swaps (routeGas), and what each initialized tick crossed adds (the first leg that charges
   * for ticks): numbers (integers far below 2^53), as the split search's fee estimate sums them for every set it weighs
   * (a BigInt's conversion per member and set was most of that estimate's own time).
   */
  readonly nominalGas: number;
  readonly tickGas: number;
  /** The least gas of its swaps priced: its nominal legs moving no tick (pricing only adds ticks, cold slots, tick moves). */
  readonly floorGas: bigint;
  /**
   * Whether one of its pools refuses every swap in the path's direction (PoolProtocol.paysNothing: a 100% fee v4
   * pool): the path is refused whatever the amount, so never part of a trade.
   */
  readonly paysNothing: boolean;
  /** Its rate at zero and whole output, from its pools (stagedRoutes' OutputBound), on its side (a candidate has one). */
  readonly bound: OutputBound;
}

/** What of a trade request decides its candidate paths (bestTrade's TradeRequest is one). */
export interface PathRequest extends Pick<RoutingLimits, 'maxHops' | 'handoverSlippageBps'> {
  readonly tradeType: TradeType;
  /** Which pools may be used (DEX filters). */
  readonly allow: (entry: PoolEntry) => boolean;
}

/** A pair's paths that some router can execute, with what a search needs to know of each before pricing. */
export interface ExecutablePaths {
  /**
   * The paths the search steers over (curves, splits): findRoutes' first maxRoutes that a router executes, but for
   * those in `unpaid`.
   */
  readonly paths: readonly Candidate[];
  /**
   * `paths` by descending rateCeiling of their OutputBound: the search visits the paths that may matter first and
   * stops at the first that cannot (optimalSplit's rounds, bestSinglePath), whatever the number of paths.
   */
  readonly byRate: RateOrder;
  /**
   * Of findRoutes' first maxRoutes, the paths through a pool that refuses every swap their way (Candidate.paysNothing),
   * in findRoutes' order: refused whatever the amount, so no part of any trade; the search leaves them out and prices
   * them only for a refusal code (bestTrade). They count among the maxRoutes as before, so the steered paths are the
   * same. Empty when executablePaths is asked to keep them among `paths`.
   */
  readonly unpaid: readonly Candidate[];
  /** The other executable paths findRoutes found, by descending rate at zero: single-path candidates (bestOtherPath). */
  readonly others: readonly OtherPath[];
  /** The least leastGas of `others` (0 when none). */
  readonly othersFloorGas: bigint;
  /** Whether findRoutes found any path within the hop limit (executable or not). */
  readonly pathsFound: boolean;
}

/**
 * A path beyond the steered ones: its pools, its rate at zero (pathRateAtZero), a floor of its swaps' gas (leastRouteGas),
 * its place among them in findRoutes' order, and where its facts are kept (keptPath): its candidate is built when a
 * search first needs it (otherCandidate) and kept there for the later searches that meet the path.
 */
export interface OtherPath {
  readonly path: PricedPath;
  readonly rate: number;
  readonly leastGas: bigint;
  readonly order: number;
  readonly kept: KeptFacts;
}

/**
 * The candidate paths of a request between the tokens its pools hold (every path findRoutes finds) that convert and
 * that a router can execute: the first maxRoutes of them (direct paths always) steered, the others by rate at zero.
 */
export function executablePaths(
  index: ChainPoolIndex,
  ends: TradeEnds,
  request: PathRequest,
  maxRoutes: number | undefined,
  keepUnpaid = false,
): ExecutablePaths {
  const nativeNode: NativeNode | undefined = chainMeetsNativePools(index.chain)
    ? { wrapped: index.wrappedNative, atIn: ends.nativeIn === 'wrapped', atOut: ends.nativeOut === 'wrapped' }
    : undefined;
  const found = findRoutes(index, ends.poolTokenIn, ends.poolTokenOut, {
    maxHops: request.maxHops,
    allow: request.allow,
    maxRoutes: Number.MAX_SAFE_INTEGER,
    ...(nativeNode ? { nativeNode } : {}),
  });
  let direct = 0;
  for (const p of found) if (p.pools.length <= 1) direct++;
  const steered = Math.max(direct, maxRoutes ?? DEFAULT_MAX_ROUTES);
  const paths: Candidate[] = [];
  const unpaid: Candidate[] = [];
  /** Steered paths run in one call. */
  let calls = 0;
  const others: OtherPath[] = [];
  let othersFloorGas: bigint | undefined;
  const root = pathsRoot(index, request, nativeNode !== undefined);
  for (const path of found) {
    const kept = keptPath(index, root, path);
    if (calls < steered) {
      // A path of stages is steered too (the split search may give it a share: its own steps), beside the paths run in
      // one call rather than in the place of one of them.
      const c = candidateOf(index, kept, path, request);
      if (c) (c.paysNothing && !keepUnpaid ? unpaid : paths).push(c);
      if (c && !c.stages) calls++;
      continue;
    }
    const facts = otherFacts(index, kept, path, request.tradeType);
    if (!facts) continue;
    others.push({ path: facts.path, rate: facts.rate, leastGas: facts.leastGas, order: others.length, kept });
    if (othersFloorGas === undefined || facts.leastGas < othersFloorGas) othersFloorGas = facts.leastGas;
  }
  others.sort((a, b) => b.rate - a.rate || a.order - b.order);
  const ceilings = paths.map((c) => rateCeiling(c.bound));
  const order = paths.map((_c, i) => i).sort((a, b) => ceilings[b] - ceilings[a] || a - b);
  return { paths, byRate: { order, ceilings }, unpaid, others, othersFloorGas: othersFloorGas ?? 0n, pathsFound: found.length > 0 };
}

/** How a request's paths are made candidates: its side and the slippage of hand-overs between stages. */
type CandidateTerms = Pick<PathRequest, 'tradeType' | 'handoverSlippageBps'>;

/**
 * A path's facts kept in the index's tree of paths (ChainPoolIndex.paths): what a search learns of a path before
 * pricing (its candidate, or its rate at zero and least gas) depends only on its pools' states (an entry's), the path
 * (its pools and directions; node names differ only with a nativeNode), the side and the hand-over slippage of
 * stages, so the searches of other pairs, amounts and filters that meet the path reuse it, on this state and on the
 * states later blocks derive (which drop the paths through the pools they change).
 */
function keptPath(index: ChainPoolIndex, root: PathNode<PoolEntry>, path: PoolPath): KeptFacts {
  let node = root;
  for (let h = 0; h < path.pools.length; h++) {
    const e = path.pools[h];
    // Its direction: whether it pays out its token1 (a native pool's ETH end is named by the wrapped token's node).
    const out = path.tokens[h + 1];
    node = index.paths.child(node, e, out === e.token1 || (out !== e.token0 && path.tokens[h] === e.token0) ? 1 : 0);
  }
  node.value ??= {};
  return node.value as KeptFacts;
}

/** The root of a search's kept paths (keptPath): one per side, hand-over slippage and whether ETH pools join the wrapped node. */
function pathsRoot(index: ChainPoolIndex, terms: CandidateTerms, native: boolean): PathNode<PoolEntry> {
  return index.paths.root(`candidates:${terms.tradeType}:${terms.handoverSlippageBps ?? ''}:${native}`);
}

/**
 * A path beyond the steered ones as a search candidate (kept at its node, as candidateOf keeps a steered path's), or
 * undefined when no router executes it: built once per state and side, not in every search that weighs the path.
 */
export function otherCandidate(index: ChainPoolIndex, other: OtherPath, terms: CandidateTerms): Candidate | undefined {
  return candidateOf(index, other.kept, other.path.path, terms);
}

/** A path as a search candidate (kept at its node), or undefined when no router executes it or a pool does not convert. */
function candidateOf(index: ChainPoolIndex, node: KeptFacts, path: PoolPath, terms: CandidateTerms): Candidate | undefined {
  if (node.candidate === undefined) {
    const priced = node.other?.path ?? toPricedPath(index, path);
    node.candidate = (priced && pricedCandidate(index, priced, terms)) ?? null;
  }
  return node.candidate ?? undefined;
}

/** A path beyond the steered ones before pricing (kept at its node): undefined when a pool does not convert. */
function otherFacts(
  index: ChainPoolIndex,
  node: KeptFacts,
  path: PoolPath,
  tradeType: TradeType,
): Pick<OtherPath, 'path' | 'rate' | 'leastGas'> | undefined {
  if (node.other === undefined) {
    const priced = toPricedPath(index, path);
    node.other = priced
      ? {
          path: priced,
          rate: pathRateAtZero(priced, tradeType),
          leastGas: leastRouteGas(
            priced.pools.map((p) => p.kind),
            tradeType,
          ),
        }
      : null;
  }
  return node.other ?? undefined;
}

/** What is kept of a path at its node (keptPath). */
export interface KeptFacts {
  /** Its candidate (candidateOf); null: the path has none. */
  candidate?: Candidate | null;
  /** Its facts as a path beyond the steered ones (otherFacts); null: a pool does not convert. */
  other?: Pick<OtherPath, 'path' | 'rate' | 'leastGas'> | null;
}

/**
 * A priceable path as a search candidate, or undefined when no router executes it: one executor call where one runs
 * the whole path, else (with a hand-over slippage) consecutive stages (routeStages), priced with each hand-over at
 * the previous stage's minimum.
 */
export function pricedCandidate(index: ChainPoolIndex, unstaged: PricedPath, terms: CandidateTerms): Candidate | undefined {
  const { tradeType } = terms;
  const path = unstaged.path;
  const nominal = nominalLegs(unstaged);
  const crosses = crossesNative(nominal);
  let executors = executorsFor(index.chain, path.pools, tradeType, crosses);
  let stages: StagePlan[] | undefined;
  let priced = unstaged;
  if (executors.length === 0 && terms.handoverSlippageBps !== undefined) {
    stages = routeStages(index.chain, nominal, tradeType, crosses);
    if (!stages) return undefined;
    executors = [...stages[0].executors];
    const at: number[] = [];
    let hop = 0;
    for (const stage of stages.slice(0, -1)) {
      hop += stage.legs;
      at.push(hop);
    }
    priced = { ...unstaged, handovers: { at, slippageBps: terms.handoverSlippageBps } };
  }
  if (executors.length === 0) return undefined;
  // The pool and its tokens in and out: a pool of more than two tokens is priced per pair (PoolProtocol.pairViews).
  const key = priced.pools.map((p, h) => `${p.address}:${path.tokens[h]}>${path.tokens[h + 1]}`).join('/');
  const ticking = nominal.find((l) => protocolGas(l.kind).tick > 0n);
  const paysNothing = priced.pools.some((p, h) => protocolOf(p.kind).paysNothing?.(p, nominal[h].tokenIn === p.token0) === true);
  return {
    path: priced,
    executors,
    ...(stages ? { stages } : {}),
    nominal,
    nominalGas: Number(routeGas(nominal, tradeType)),
    floorGas: routeGas(
      nominal.map((l) => (l.movesTick ? { ...l, movesTick: false } : l)),
      tradeType,
    ),
    tickGas: ticking ? Number(protocolGas(ticking.kind).tick) : 0,
    paysNothing,
    bound: outputBound(priced, tradeType),
    key,
    poolAddresses: priced.pools.map((p) => p.address),
    deployment: path.pools.every((e) => e.deployment === path.pools[0].deployment) ? path.pools[0].deployment : undefined,
  };
}

/** A path's legs before pricing: no amounts, no ticks crossed, no cold slots; a swap moves the tick where its protocol charges that (gas.tickMove). */
function nominalLegs(path: PricedPath): Leg[] {
  return path.pools.map((pool, h) => ({
    pool: pool.address,
    kind: pool.kind,
    dex: pool.dex,
    version: pool.version,
    fee: pool.fee,
    tokenIn: heldAt(pool, path.path.tokens[h]),
    tokenOut: heldAt(pool, path.path.tokens[h + 1]),
    amountIn: 0n,
    amountOut: 0n,
    ticksCrossed: 0,
    coldSlots: 0,
    movesTick: protocolGas(pool.kind).tickMove > 0n,
    ...legKey(pool),
  }));
}
