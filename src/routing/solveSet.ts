import { equalise } from './equalise.ts';
import { type LentArrays, lent } from './lentArrays.ts';
import { type PathCurve, surplusAt, ticksAt } from './pathCurve.ts';
import { BOUND_SLACK, type FeeFloor, type Solved, type SplitContext, type SplitPath } from './splitContext.ts';

// The set's solve and its bound are module-level functions, not closures made per search (the hot path).

/** The `members` (positions in `all`) of `all`, written into the lent array of the set's size. */
function setOf<T>(all: readonly T[], members: readonly number[]): T[] {
  const into = lent(lentSets, members.length) as T[];
  for (let j = 0; j < members.length; j++) into[j] = all[members[j]];
  return into;
}

/**
 * Arrays lent to each fee estimate of a set (SplitContext.feeEstimate reads its members and ticks during the call and
 * keeps neither), one per set size: no two arrays per set weighed (a set's solve is not re-entered).
 */
const lentSets: LentArrays<unknown> = [];
const lentTicks: LentArrays<number> = [];

/**
 * The sets one split search solved, by their members in order (a number: each position plus one, a digit in base
 * `base`, exact below 2^53). The search meets some sets again: dropUnpaid solves the set it was given and the set
 * without each member, and the greedy's rounds had solved the set without its last member (and mostly without the one
 * before). The solve is a pure function of the members in order (the same curves, sums in the same order, the same
 * fee estimate), so a set met again takes its first solve.
 */
export interface SetMemo {
  readonly base: number;
  readonly solved: Map<number, Solved>;
}

/** A SetMemo for a search over `candidates` paths with sets of up to `maxSplits`; undefined where the key would not be exact. */
export function setMemo(candidates: number, maxSplits: number): SetMemo | undefined {
  const base = candidates + 1;
  return base ** maxSplits <= Number.MAX_SAFE_INTEGER ? { base, solved: new Map() } : undefined;
}

/** A set of candidates (positions in `candidates`) solved in floating point, with its estimated fee. */
export function solveSet<P extends SplitPath>(
  context: SplitContext<P>,
  candidates: readonly P[],
  curves: readonly PathCurve[],
  members: readonly number[],
  memo?: SetMemo,
): Solved {
  let key = 0;
  if (memo) {
    for (let m = 0; m < members.length; m++) key = key * memo.base + members[m] + 1;
    const seen = memo.solved.get(key);
    if (seen) return seen;
  }
  const solved = solveAnew(context, candidates, curves, members);
  memo?.solved.set(key, solved);
  return solved;
}

/** solveSet without the search's memo: from the request's SolveCache where an earlier search solved the set, else solved. */
function solveAnew<P extends SplitPath>(
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
  const split = equalise(curves, members, tradeType, Number(context.amount));
  const value = tradeType === 'exactIn' ? sum(split.outputs) : -sum(split.inputs);
  const reach = tradeType === 'exactIn' ? sum(split.inputs) : sum(split.outputs);
  const ticks = lent(lentTicks, members.length);
  for (let j = 0; j < members.length; j++) ticks[j] = ticksAt(curves[members[j]], split.inputs[j]);
  const fee = context.feeEstimate(setOf(candidates, members), ticks);
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
 * plus j's surplus at the set's marginal rate (surplusAt), and its fee at least `feeFloor` (the set's least fee with
 * j: FeeFloor, a few floats; 0 where fees are not ranked). A set it rules out is one that would not be chosen.
 */
export function mayReach(
  context: Pick<SplitContext<SplitPath>, 'tradeType'>,
  curves: readonly PathCurve[],
  set: Solved,
  j: number,
  toBeat: number,
  feeFloor = 0,
): boolean {
  const lambda = set.split.lambda;
  const surplus = surplusAt(curves[j], lambda);
  const value = set.net + set.fee;
  const bound = value + (context.tradeType === 'exactIn' ? surplus : surplus / lambda) + BOUND_SLACK * (Math.abs(value) + 1);
  return !(bound - feeFloor <= toBeat);
}

/**
 * A floor of the fee a set's estimate (SplitContext.feeEstimate) can come to from its paths' own gas alone: each path's
 * gas floor (FeeFloor.gas, summed) at a floor of the fee per gas unit, less 1 for the estimate's rounding down.
 */
export function feeFloorOf<P extends SplitPath>(
  floor: FeeFloor<P>,
  candidates: readonly P[],
  members: readonly number[],
  j: number,
): number {
  let gas = floor.gas(candidates[j]);
  for (let m = 0; m < members.length; m++) gas += floor.gas(candidates[members[m]]);
  return gas * floor.perGas - 1;
}

function sum(xs: readonly number[]): number {
  let total = 0;
  for (let i = 0; i < xs.length; i++) total += xs[i];
  return total;
}
