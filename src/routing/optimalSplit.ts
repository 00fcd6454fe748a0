import type { TradeType } from '../protocols/PoolProtocol.ts';
import { type PathCurve, pathCurve, rateAtZero } from './pathCurve.ts';
import type { PricedPath } from './priceRoutes.ts';
import { priceSolved } from './priceSolved.ts';
import { feeFloorOf, mayReach, setMemo, solveSet } from './solveSet.ts';
import { BOUND_SLACK, type PricedSplit, type Solved, type SplitContext, type SplitPath } from './splitContext.ts';

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
  const memo = setMemo(candidates.length, context.maxSplits);
  // Per candidate: 1 once the set holds it or one of its pools (marked as each member is taken, blockWith).
  const blocked = new Uint8Array(candidates.length);
  let current: Solved | undefined;
  const ceilings = context.ceilings;
  const fixed = Number(context.amount);
  for (let round = 0; round < context.maxSplits; round++) {
    let best: Solved | undefined;
    const taken = current?.members ?? [];
    const feasible = current?.split.feasible ? current : undefined;
    const atRate = feasible && { members: taken, lambda: feasible.split.lambda, value: feasible.net + feasible.fee };
    for (let j = 0; j < candidates.length; j++) {
      if (blocked[j] === 1) continue;
      // A path that cannot join the set (its rate at zero not above the set's rate), or in the first round cannot
      // alone beat the best set of one so far, by its rate's ceiling: not weighed further (no bound taken, no curve).
      if (
        ceilings !== undefined &&
        (feasible
          ? ceilings[j] <= feasible.split.lambda
          : !current && best?.split.feasible && aloneCeiling(ceilings[j], context.tradeType, fixed) <= best.net)
      )
        continue;
      if (context.admit && (round === 0 || curves[j].x.length === 0)) {
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
        feasible &&
        !mayReach(
          context,
          curves,
          feasible,
          j,
          best ? Math.max(best.net, feasible.net) : feasible.net,
          context.feeFloor ? feeFloorOf(context.feeFloor, candidates, taken, j) : 0,
        )
      )
        continue;
      const next = solveSet(context, candidates, curves, [...taken, j], memo);
      if (better(next, best)) best = next;
    }
    if (!best || (current && !better(best, current))) break;
    current = best;
    blockWith(candidates, blocked, best.members[best.members.length - 1]);
  }
  if (!current?.split.feasible) return undefined;
  if (context.singlesKnown && current.members.length < 2) return undefined;
  return priceSolved(context, candidates, curves, current, memo);
}

/**
 * An upper bound of the value (output, or minus the input) of a path alone for the fixed amount, from a ceiling of its
 * rate at zero: a curve's output is at most its rate at zero times the input (its rates only fall), with BOUND_SLACK
 * for the float solve.
 */
function aloneCeiling(ceiling: number, tradeType: TradeType, fixed: number): number {
  return tradeType === 'exactIn' ? fixed * ceiling * (1 + BOUND_SLACK) + 1 : -(fixed / ceiling) * (1 - BOUND_SLACK) + 1;
}

/** A path's curve built as far as a trade of `amount` on its fixed side can reach. */
export function fixedAmountCurve(path: PricedPath, tradeType: TradeType, amount: bigint): PathCurve {
  const fixed = Number(amount);
  return tradeType === 'exactIn'
    ? pathCurve(path, tradeType, fixed, Number.POSITIVE_INFINITY)
    : pathCurve(path, tradeType, Number.POSITIVE_INFINITY, fixed);
}

/**
 * Marks in `blocked` candidate m, just taken into the set, and every candidate that goes through one of its pools: a
 * later round weighs none of them (sets are pool-disjoint). From m's list of those candidates (conflictsOf), made the
 * first time m is taken from this candidate list and kept with it: a pair's candidate list is kept per state (its pair
 * memo) and its requests take mostly the same members, so a taken member costs its own list, not a pass over every
 * candidate's pools.
 */
function blockWith(candidates: readonly SplitPath[], blocked: Uint8Array, m: number): void {
  let lists = conflictLists.get(candidates);
  if (!lists) {
    lists = new Array<Int32Array | undefined>(candidates.length);
    conflictLists.set(candidates, lists);
  }
  lists[m] ??= conflictsOf(candidates, m);
  const list = lists[m];
  for (let k = 0; k < list.length; k++) blocked[list[k]] = 1;
}

/** blockWith's lists per candidate list (a candidate list is never changed once searched). */
const conflictLists = new WeakMap<readonly SplitPath[], (Int32Array | undefined)[]>();

/** Candidate m and every other candidate that goes through one of its pools (by pool address), in position order. */
function conflictsOf(candidates: readonly SplitPath[], m: number): Int32Array {
  const taken = candidates[m].poolAddresses;
  const found: number[] = [];
  for (let j = 0; j < candidates.length; j++) {
    if (j === m) {
      found.push(j);
      continue;
    }
    const pools = candidates[j].poolAddresses;
    outer: for (let i = 0; i < pools.length; i++) {
      const address = pools[i];
      for (let t = 0; t < taken.length; t++) {
        if (taken[t] === address) {
          found.push(j);
          break outer;
        }
      }
    }
  }
  return Int32Array.from(found);
}
