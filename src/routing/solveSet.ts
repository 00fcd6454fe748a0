import { equalise } from './equalise.ts';
import { type PathCurve, surplusAt, ticksAt } from './pathCurve.ts';
import { BOUND_SLACK, type Solved, type SplitContext, type SplitPath } from './splitContext.ts';

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
export function solveSet<P extends SplitPath>(
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
export function mayReach<P extends SplitPath>(
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

function sum(xs: readonly number[]): number {
  let total = 0;
  for (let i = 0; i < xs.length; i++) total += xs[i];
  return total;
}
