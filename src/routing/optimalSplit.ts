import type { TradeType } from '../protocols/PoolProtocol.ts';
import { type Equalised, equalise } from './equalise.ts';
import { type PathCurve, pathCurve, rateAtZero, surplusAt, ticksAt } from './pathCurve.ts';
import { type PathQuote, type PricedPath, pricePath } from './priceRoutes.ts';

/** A priced path quote that went through. */
export type OkQuote = PathQuote & { ok: true };

/** A path the split search may use. */
export interface SplitPath {
  readonly path: PricedPath;
  /** Pool addresses (the paths of a split share none): those of `path.pools`. */
  readonly pools: ReadonlySet<string>;
  /** Its pools and directions: names its curve in a CurveCache. */
  readonly key: string;
  /** The one DEX deployment whose pools it goes through; undefined when it mixes deployments. */
  readonly deployment: string | undefined;
}

/** What the split search needs from the trade search. */
export interface SplitContext<P extends SplitPath> {
  readonly tradeType: TradeType;
  /** The fixed amount: tokenIn's for exactIn, tokenOut's for exactOut. */
  readonly amount: bigint;
  readonly maxSplits: number;
  /** Whether trades are ranked net of a network fee (a gas price and a rate to convert it): paths must pay for theirs. */
  readonly ranksFees: boolean;
  /** Exact value of priced shares net of their network fee, as trades are ranked (higher is better). */
  score(members: readonly P[], quotes: readonly OkQuote[]): bigint;
  /**
   * The network fee of a set of paths estimated before pricing, each crossing about `ticks` initialized ticks, in the
   * priced token; 0 when gas is not ranked.
   */
  feeEstimate(members: readonly P[], ticks: readonly number[]): number;
  /**
   * The caller already has the best single path for the whole amount, priced exactly and scored as `score` would:
   * a set of one path cannot beat it, so none is priced (undefined instead of a split of one).
   */
  readonly singlesKnown?: boolean;
  /**
   * Sets already solved by earlier searches of the same request (bestTradesByDeployment: same side, amount and fee
   * terms, so the same float solve and fee estimate for the same paths in the same order): with `record` (the search
   * over all deployments), the sets kept to one deployment are added, the only ones a search kept to one can meet;
   * without, they are only read.
   */
  readonly solves?: { readonly tree: SolveCache; readonly record: boolean };
  /**
   * Candidates whose curve is built only when a round may take them (paths of stages: bestTrade): called before
   * candidate j is weighed, with the round's set (undefined in the first round or while no set carries the amount)
   * and the net value a set with j must exceed to be chosen (undefined: any). False when a bound says it cannot (the
   * search would not choose it either); else true, once `curves[j]` is its curve.
   */
  admit?(j: number, set: SetAtRate | undefined, toBeat: number | undefined): boolean;
}

/**
 * Float solves of a request's searches (SplitContext.solves): a tree by the members in order (the float sums add in
 * that order), each path by identity (a request's searches share their candidates: the index's tree of kept paths),
 * whatever its position in a search's list.
 */
export interface SolveCache {
  solved?: Omit<Solved, 'members'>;
  next?: Map<SplitPath, SolveCache>;
}

/** A feasible set of the split search as admit sees it: its members, common marginal rate and value before fees. */
export interface SetAtRate {
  readonly members: readonly number[];
  readonly lambda: number;
  readonly value: number;
}

/** A split priced exactly: each member's share of the fixed amount and its quote. */
export interface PricedSplit<P extends SplitPath> {
  readonly members: readonly P[];
  readonly shares: readonly bigint[];
  readonly quotes: readonly OkQuote[];
  readonly score: bigint;
}

/** A share smaller than this part of the amount is not worth a path (millionths: percent's precision). */
const MIN_SHARE_PPM = 1n;
/** Relative slack of the greedy's float bound (mayReach) over the float solves it stands for. */
export const BOUND_SLACK = 1e-9;
/** Most exact moves of the integer polish. */
const MAX_POLISH_MOVES = 8;

/** The value a path quote is ranked by: output for exactIn, minus the input for exactOut. */
export function quoteValue(q: OkQuote, tradeType: TradeType): bigint {
  return tradeType === 'exactIn' ? q.legs[q.legs.length - 1].amountOut : -q.legs[0].amountIn;
}

/** A set of paths solved in floating point. */
interface Solved {
  readonly members: readonly number[];
  readonly split: Equalised;
  /** Its value (output, or minus the input) less the estimated fee; for a set that cannot carry the amount, -Infinity. */
  readonly net: number;
  /** What the set carries of the fixed amount. */
  readonly reach: number;
  /** The estimated network fee of the set. */
  readonly fee: number;
}

/** Whether `a` is a better set than `b`: one that carries the amount beats one that does not, then by value net of fees. */
function better(a: Solved, b: Solved | undefined): boolean {
  if (!b) return true;
  if (a.split.feasible !== b.split.feasible) return a.split.feasible;
  return a.split.feasible ? a.net > b.net : a.reach > b.reach;
}

/**
 * The split of the amount over up to maxSplits pool-disjoint candidates at the optimum of their exact curves.
 * Paths are added greedily, each round the one that raises the float optimum's value net of the estimated fee most
 * (a path whose marginal rate at zero is below the set's common rate cannot add anything and is not tried), while one
 * does; then the shares are priced exactly, polished on integers, and a member that does not pay for its own network
 * fee (exactly, the others re-balanced without it) is dropped. Undefined when no set carries the amount.
 */
export function optimalSplit<P extends SplitPath>(
  context: SplitContext<P>,
  candidates: readonly P[],
  curves: readonly PathCurve[] = candidates.map((c) => fixedAmountCurve(c.path, context.tradeType, context.amount)),
): PricedSplit<P> | undefined {
  let current: Solved | undefined;
  for (let round = 0; round < context.maxSplits; round++) {
    let best: Solved | undefined;
    const taken = current?.members ?? [];
    const feasible = current?.split.feasible ? current : undefined;
    const atRate = feasible && { members: taken, lambda: feasible.split.lambda, value: feasible.net + feasible.fee };
    for (let j = 0; j < candidates.length; j++) {
      if (taken.includes(j)) continue;
      let disjoint = true;
      for (let t = 0; t < taken.length && disjoint; t++) disjoint = !shares(candidates[taken[t]], candidates[j]);
      if (!disjoint) continue;
      if (context.admit) {
        // As mayReach's: what the set with j must exceed (in the first round, the best set of one so far).
        const toBeat = feasible
          ? Math.max(best?.net ?? feasible.net, feasible.net)
          : !current && best?.split.feasible
            ? best.net
            : undefined;
        if (!context.admit(j, atRate || undefined, toBeat)) continue;
      }
      if (curves[j].x.length === 0) continue;
      if (current?.split.feasible && rateAtZero(curves[j]) <= current.split.lambda) continue;
      // A set that cannot beat the current one nor this round's best so far is not solved: it would not be chosen.
      if (
        current?.split.feasible &&
        !mayReach(context, candidates, curves, current, j, best ? Math.max(best.net, current.net) : current.net)
      )
        continue;
      const next = solve(context, candidates, curves, [...taken, j]);
      if (better(next, best)) best = next;
    }
    if (!best || (current && !better(best, current))) break;
    current = best;
  }
  if (!current?.split.feasible) return undefined;
  if (context.singlesKnown && current.members.length < 2) return undefined;
  return priceSolved(context, candidates, curves, current);
}

// The set's solve and its bound are module-level functions, not closures per search: tsx names every named closure it
// creates (esbuild keepNames: a defineProperty per call), which the hot path paid on every search.

/**
 * The working arrays solve and mayReach hand to equalise and feeEstimate, reused (the split search is synchronous, and
 * neither keeps the arrays it is given): a set's curves, paths and ticks, instead of three arrays per set weighed.
 */
const setCurves: PathCurve[] = [];
const setPaths: SplitPath[] = [];
const setTicks: number[] = [];

/** `into`, emptied, holding the `members` (positions in `all`) of `all`. */
function setOf<T>(into: T[], all: readonly T[], members: readonly number[]): T[] {
  into.length = members.length;
  for (let j = 0; j < members.length; j++) into[j] = all[members[j]];
  return into;
}

/** A set of candidates (positions in `candidates`) solved in floating point, with its estimated fee. */
function solve<P extends SplitPath>(
  context: SplitContext<P>,
  candidates: readonly P[],
  curves: readonly PathCurve[],
  members: readonly number[],
): Solved {
  let node = context.solves && keptToOne(candidates, members) ? context.solves.tree : undefined;
  const record = context.solves?.record === true;
  for (let m = 0; node && m < members.length; m++) {
    let child = node.next?.get(candidates[members[m]]);
    if (!child && record) {
      child = {};
      node.next ??= new Map();
      node.next.set(candidates[members[m]], child);
    }
    node = child;
  }
  const known = node?.solved;
  if (known) return { members, split: known.split, net: known.net, reach: known.reach, fee: known.fee };
  const { tradeType } = context;
  const split = equalise(setOf(setCurves, curves, members), tradeType, Number(context.amount));
  const value = tradeType === 'exactIn' ? sum(split.outputs) : -sum(split.inputs);
  const reach = tradeType === 'exactIn' ? sum(split.inputs) : sum(split.outputs);
  setTicks.length = members.length;
  for (let j = 0; j < members.length; j++) setTicks[j] = ticksAt(curves[members[j]], split.inputs[j]);
  const fee = context.feeEstimate(setOf(setPaths as P[], candidates, members), setTicks);
  const net = split.feasible ? value - fee : Number.NEGATIVE_INFINITY;
  if (node && record) node.solved = { split, net, reach, fee };
  return { members, split, net, reach, fee };
}

/** Whether a set's paths all go through one deployment's pools. */
function keptToOne<P extends SplitPath>(candidates: readonly P[], members: readonly number[]): boolean {
  const deployment = candidates[members[0]].deployment;
  if (deployment === undefined) return false;
  for (let m = 1; m < members.length; m++) if (candidates[members[m]].deployment !== deployment) return false;
  return true;
}

/**
 * Whether adding candidate j to a feasible set can give a net value above `toBeat`: its value is at most the set's
 * plus j's surplus at the set's marginal rate (surplusAt), and its fee at least the estimate with no tick crossed.
 */
function mayReach<P extends SplitPath>(
  context: SplitContext<P>,
  candidates: readonly P[],
  curves: readonly PathCurve[],
  set: Solved,
  j: number,
  toBeat: number,
): boolean {
  const lambda = set.split.lambda;
  const surplus = surplusAt(curves[j], lambda);
  const value = set.net + set.fee;
  const bound = value + (context.tradeType === 'exactIn' ? surplus : surplus / lambda) + BOUND_SLACK * (Math.abs(value) + 1);
  if (!(bound <= toBeat)) {
    if (!context.ranksFees) return true;
    const members = setOf(setPaths as P[], candidates, set.members);
    members.push(candidates[j]);
    setTicks.length = members.length;
    setTicks.fill(0);
    const floor = context.feeEstimate(members, setTicks);
    return !(bound - floor <= toBeat);
  }
  return false;
}

/** A path's curve built as far as a trade of `amount` on its fixed side can reach. */
export function fixedAmountCurve(path: PricedPath, tradeType: TradeType, amount: bigint): PathCurve {
  const fixed = Number(amount);
  return tradeType === 'exactIn' ? pathCurve(path, fixed, Number.POSITIVE_INFINITY) : pathCurve(path, Number.POSITIVE_INFINITY, fixed);
}

/** Whether two paths share a pool (a's pools read from its array: iterating a Set allocates an iterator per call). */
function shares(a: SplitPath, b: SplitPath): boolean {
  const pools = a.path.pools;
  for (let i = 0; i < pools.length; i++) if (b.pools.has(pools[i].address)) return true;
  return false;
}

function sum(xs: readonly number[]): number {
  let total = 0;
  for (let i = 0; i < xs.length; i++) total += xs[i];
  return total;
}

/**
 * Prices a solved set exactly: members whose share rounds below a millionth of the amount, or whose exact price
 * refuses its share, are left out and the rest solved again; then the integer polish and the fee check.
 */
function priceSolved<P extends SplitPath>(
  context: SplitContext<P>,
  candidates: readonly P[],
  curves: readonly PathCurve[],
  solved: Solved,
): PricedSplit<P> | undefined {
  let set = solved;
  for (let attempt = 0; attempt < candidates.length && set.split.feasible; attempt++) {
    if (context.singlesKnown && set.members.length < 2) return undefined;
    const priced = priceShares(context, candidates, set);
    if (priced === undefined) return undefined;
    if (typeof priced === 'number') {
      set = solve(
        context,
        candidates,
        curves,
        set.members.filter((_, i) => i !== priced),
      );
      continue;
    }
    return dropUnpaid(context, candidates, curves, priced);
  }
  return undefined;
}

/** A member's exact share and its quote. */
interface Share {
  readonly member: number;
  share: bigint;
  quote: OkQuote;
}

/**
 * Integer shares of a solved set priced exactly, or the position of a member to leave out (its share too small or
 * refused), or undefined when the set is a single path its exact price refuses.
 */
function priceShares<P extends SplitPath>(
  context: SplitContext<P>,
  candidates: readonly P[],
  set: Solved,
): { shares: Share[]; score: bigint } | number | undefined {
  const { tradeType, amount } = context;
  const floats = tradeType === 'exactIn' ? set.split.inputs : set.split.outputs;
  const wanted = floats.map((v) => BigInt(Math.max(0, Math.round(v))));
  const tiny = wanted.findIndex((v) => v * 1_000_000n < amount * MIN_SHARE_PPM);
  if (tiny >= 0 && set.members.length > 1) return tiny;
  // The rounding remainder goes to the largest share.
  let largest = 0;
  for (let i = 1; i < wanted.length; i++) if (wanted[i] > wanted[largest]) largest = i;
  wanted[largest] += amount - wanted.reduce((a, b) => a + b, 0n);
  if (wanted[largest] <= 0n) return set.members.length > 1 ? largest : undefined;
  const result: Share[] = [];
  // With several members, each is priced in one walk at its share and one polish step either side (polish's moves).
  const step = polishStep(amount);
  const sides: PathQuote[][] = [];
  for (let i = 0; i < set.members.length; i++) {
    const w = wanted[i];
    const polished = set.members.length > 1;
    const amounts = !polished ? [w] : w > step ? [w - step, w, w + step] : [w, w + step];
    const priced = pricePath(candidates[set.members[i]].path, tradeType, amounts);
    const q = priced[amounts.length === 3 ? 1 : 0];
    if (!q.ok) return set.members.length > 1 ? i : undefined;
    result.push({ member: set.members[i], share: w, quote: q });
    sides.push(
      amounts.length === 3 ? [priced[0], priced[2]] : amounts.length === 2 ? [{ ok: false, code: 'AMOUNT_TOO_SMALL' }, priced[1]] : [],
    );
  }
  polish(context, candidates, result, sides);
  return { shares: result, score: context.score(members(candidates, result), quotes(result)) };
}

const members = <P>(candidates: readonly P[], s: readonly Share[]): P[] => s.map((x) => candidates[x.member]);
const quotes = (s: readonly Share[]): OkQuote[] => s.map((x) => x.quote);

/** The integer polish's step: a millionth of the amount, at least 1. */
function polishStep(amount: bigint): bigint {
  return amount / 1_000_000n > 0n ? amount / 1_000_000n : 1n;
}

/**
 * Moves of one millionth of the amount between members while the exact value gained by one exceeds what the other
 * loses (the float optimum is already within rounding of the exact one: this corrects what floats cannot see).
 */
function polish<P extends SplitPath>(context: SplitContext<P>, candidates: readonly P[], s: Share[], sides: readonly PathQuote[][]): void {
  if (s.length < 2) return;
  const step = polishStep(context.amount);
  const marginal = s.map((x, i) => gains(context, candidates, step, x, sides[i]));
  for (let move = 0; move < MAX_POLISH_MOVES; move++) {
    let to = -1;
    let from = -1;
    for (let i = 0; i < s.length; i++) {
      const m = marginal[i];
      if (m.up !== undefined && (to < 0 || m.up > marginal[to].up!)) to = i;
    }
    for (let i = 0; i < s.length; i++) {
      const m = marginal[i];
      if (i !== to && m.down !== undefined && (from < 0 || m.down < marginal[from].down!)) from = i;
    }
    if (to < 0 || from < 0 || marginal[to].up! <= marginal[from].down!) return;
    s[to].share += step;
    s[to].quote = marginal[to].q[1]!;
    s[from].share -= step;
    s[from].quote = marginal[from].q[0]!;
    marginal[to] = gains(context, candidates, step, s[to]);
    marginal[from] = gains(context, candidates, step, s[from]);
  }
}

/** A member's gains one step up and down; `near`: its quotes one step below and above when already priced. */
function gains<P extends SplitPath>(
  context: SplitContext<P>,
  candidates: readonly P[],
  step: bigint,
  x: Share,
  near?: readonly PathQuote[],
): { up: bigint | undefined; down: bigint | undefined; q: (OkQuote | undefined)[] } {
  const { tradeType } = context;
  const amounts = x.share > step ? [x.share - step, x.share + step] : [x.share + step];
  const priced = near ? (amounts.length === 2 ? near : [near[1]]) : pricePath(candidates[x.member].path, tradeType, amounts);
  const q = priced.map((p) => (p.ok ? p : undefined));
  const v = quoteValue(x.quote, tradeType);
  const upQ = q[q.length - 1];
  const downQ = amounts.length === 2 ? q[0] : undefined;
  return {
    up: upQ && quoteValue(upQ, tradeType) - v,
    down: downQ && v - quoteValue(downQ, tradeType),
    q: amounts.length === 2 ? q : [undefined, q[0]],
  };
}

/**
 * With the network fee ranked: each member, the smallest share first, is dropped when the others, solved again and
 * priced without it, score better exactly (it did not pay for its own fee). Only members whose estimated gross gain
 * is within three times their estimated fee are checked: the others pay for theirs with room to spare.
 */
function dropUnpaid<P extends SplitPath>(
  context: SplitContext<P>,
  candidates: readonly P[],
  curves: readonly PathCurve[],
  priced: { shares: Share[]; score: bigint },
): PricedSplit<P> | undefined {
  let best = priced;
  if (!context.ranksFees) return result(candidates, best);
  for (let dropped = true; dropped && best.shares.length > 1; ) {
    dropped = false;
    const whole = solve(
      context,
      candidates,
      curves,
      best.shares.map((x) => x.member),
    );
    const order = [...best.shares].sort((a, b) => (a.share < b.share ? -1 : a.share > b.share ? 1 : 0));
    for (const leave of order) {
      const rest = best.shares.filter((x) => x !== leave).map((x) => x.member);
      if (rest.some((i) => curves[i].x.length === 0)) continue;
      // Without a member of two, the other alone: the caller's best single path is at least as good.
      if (context.singlesKnown && rest.length < 2) continue;
      const set = solve(context, candidates, curves, rest);
      if (!set.split.feasible) continue;
      const ownFee = whole.fee - set.fee;
      if (whole.net + whole.fee - (set.net + set.fee) > 3 * ownFee) continue;
      const other = priceShares(context, candidates, set);
      if (other === undefined || typeof other === 'number' || other.score <= best.score) continue;
      best = other;
      dropped = true;
      break;
    }
  }
  return result(candidates, best);
}

function result<P extends SplitPath>(candidates: readonly P[], priced: { shares: Share[]; score: bigint }): PricedSplit<P> {
  return {
    members: members(candidates, priced.shares),
    shares: priced.shares.map((x) => x.share),
    quotes: quotes(priced.shares),
    score: priced.score,
  };
}
