import type { TradeType } from '../protocols/PoolProtocol.ts';
import { insertionOrder } from './insertionOrder.ts';
import type { PathCurve } from './pathCurve.ts';
import { legsOf, type PathHops, type PathQuote, type PricedPath, pricePathHops } from './priceRoutes.ts';
import { type SetMemo, solveSet } from './solveSet.ts';
import { type OkQuote, type PricedSplit, quoteValue, type Solved, type SplitContext, type SplitPath } from './splitContext.ts';

/** A share smaller than this part of the amount is not worth a path (millionths: percent's precision). */
const MIN_SHARE_PPM = 1n;
/** Most exact moves of the integer polish. */
const MAX_POLISH_MOVES = 8;

/**
 * Prices a solved set exactly: members whose share rounds below a millionth of the amount, or whose exact price
 * refuses its share, are left out and the rest solved again; then the integer polish and the fee check.
 */
export function priceSolved<P extends SplitPath>(
  context: SplitContext<P>,
  candidates: readonly P[],
  curves: readonly PathCurve[],
  solved: Solved,
  memo?: SetMemo,
): PricedSplit<P> | undefined {
  let set = solved;
  for (let attempt = 0; attempt < candidates.length && set.split.feasible; attempt++) {
    if (context.singlesKnown && set.members.length < 2) return undefined;
    const priced = priceShares(context, candidates, set);
    if (priced === undefined) return undefined;
    if (typeof priced === 'number') {
      set = solveSet(
        context,
        candidates,
        curves,
        set.members.filter((_, i) => i !== priced),
        memo,
      );
      continue;
    }
    return dropUnpaid(context, candidates, curves, priced, memo);
  }
  return undefined;
}

/** A member's exact share and its quote. */
export interface Share {
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
  // Loops, not map/findIndex/reduce closures: the split search prices every set it settles on and dropUnpaid's.
  const n = floats.length;
  const wanted: bigint[] = new Array(n);
  for (let i = 0; i < n; i++) wanted[i] = BigInt(Math.max(0, Math.round(floats[i])));
  const least = amount * MIN_SHARE_PPM;
  let tiny = -1;
  for (let i = 0; i < n && tiny < 0; i++) if (wanted[i] * 1_000_000n < least) tiny = i;
  if (tiny >= 0 && set.members.length > 1) return tiny;
  // The rounding remainder goes to the largest share.
  let largest = 0;
  let total = 0n;
  for (let i = 0; i < n; i++) {
    if (wanted[i] > wanted[largest]) largest = i;
    total += wanted[i];
  }
  wanted[largest] += amount - total;
  if (wanted[largest] <= 0n) return set.members.length > 1 ? largest : undefined;
  const count = set.members.length;
  const result: Share[] = new Array(count);
  // With several members, each is priced in one walk at its share and one polish step either side (polish's moves):
  // its quotes a step below (none where the share is not above a step) and above, their legs not made (Side).
  const step = polishStep(amount);
  const polished = count > 1;
  const below: (Side | undefined)[] = polished ? new Array(count) : NO_SIDES;
  const above: Side[] = polished ? new Array(count) : NO_SIDES;
  for (let i = 0; i < count; i++) {
    const w = wanted[i];
    const amounts = !polished ? [w] : w > step ? [w - step, w, w + step] : [w, w + step];
    const at = amounts.length === 3 ? 1 : 0;
    const priced = pricePathHops(candidates[set.members[i]].path, tradeType, amounts, at);
    const q = priced[at] as PathQuote;
    if (!q.ok) return count > 1 ? i : undefined;
    result[i] = { member: set.members[i], share: w, quote: q };
    if (polished) {
      below[i] = amounts.length === 3 ? priced[0] : undefined;
      above[i] = priced[amounts.length - 1];
    }
  }
  polish(context, candidates, result, below, above);
  return { shares: result, score: context.score(members(candidates, result), quotes(result)) };
}

/** A single member's sides: none (polish moves nothing). */
const NO_SIDES: never[] = [];

/** The shares' paths and quotes (loops: no closure per priced set). */
function members<P>(candidates: readonly P[], s: readonly Share[]): P[] {
  const into: P[] = new Array(s.length);
  for (let i = 0; i < s.length; i++) into[i] = candidates[s[i].member];
  return into;
}

function quotes(s: readonly Share[]): OkQuote[] {
  const into: OkQuote[] = new Array(s.length);
  for (let i = 0; i < s.length; i++) into[i] = s[i].quote;
  return into;
}

/** The integer polish's step: a millionth of the amount, at least 1. */
function polishStep(amount: bigint): bigint {
  const step = amount / 1_000_000n;
  return step > 0n ? step : 1n;
}

/**
 * Moves of one millionth of the amount between members while the exact value gained by one exceeds what the other
 * loses (the float optimum is already within rounding of the exact one: this corrects what floats cannot see).
 */
function polish<P extends SplitPath>(
  context: SplitContext<P>,
  candidates: readonly P[],
  s: Share[],
  below: readonly (Side | undefined)[],
  above: readonly Side[],
): void {
  if (s.length < 2) return;
  const step = polishStep(context.amount);
  const marginal: Gains[] = new Array(s.length);
  for (let i = 0; i < s.length; i++) marginal[i] = gains(context, candidates, step, s[i], below[i], above[i]);
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
    // Each moved member's former quote is now its quote one step below (to) or above (from).
    const formerTo = s[to].quote;
    const formerFrom = s[from].quote;
    s[to].share += step;
    s[to].quote = quoteOf(candidates[s[to].member].path, marginal[to].upQ!);
    s[from].share -= step;
    s[from].quote = quoteOf(candidates[s[from].member].path, marginal[from].downQ!);
    marginal[to] = gains(context, candidates, step, s[to], formerTo);
    marginal[from] = gains(context, candidates, step, s[from], undefined, formerFrom);
  }
}

/**
 * A member's gains one step up and down, and its quotes there (undefined where refused, or below when the share is
 * not above a step). `below` and `above`: its quotes one step below and above where already priced (a priced amount
 * is the same quote in any ladder); only the others are priced.
 */
function gains<P extends SplitPath>(
  context: SplitContext<P>,
  candidates: readonly P[],
  step: bigint,
  x: Share,
  below?: Side,
  above?: Side,
): Gains {
  const { tradeType } = context;
  const hasDown = x.share > step;
  let down = hasDown ? below : undefined;
  let up = above;
  if ((hasDown && !down) || !up) {
    const path = candidates[x.member].path;
    // Sides only: no legs made (NO_LEGS is no amount's position).
    if (hasDown && !down) {
      const priced = pricePathHops(path, tradeType, up ? [x.share - step] : [x.share - step, x.share + step], NO_LEGS);
      down = priced[0];
      up ??= priced[1];
    } else up = pricePathHops(path, tradeType, [x.share + step], NO_LEGS)[0];
  }
  const v = quoteValue(x.quote, tradeType);
  const downQ = okSide(down);
  const upQ = okSide(up);
  return {
    up: upQ && sideValue(upQ, tradeType) - v,
    down: downQ && v - sideValue(downQ, tradeType),
    downQ,
    upQ,
  };
}

/** A member's exact gain one step up and loss one step down, and its quotes there (undefined where refused or none). */
interface Gains {
  readonly up: bigint | undefined;
  readonly down: bigint | undefined;
  readonly downQ: OkSide | undefined;
  readonly upQ: OkSide | undefined;
}

/**
 * A member's quote a polish step from its share: a quote (its legs made: a former share), or an amount priced without
 * its legs (pricePathHops), or a refusal.
 */
type Side = PathQuote | PathHops;
/** A Side that went through. */
type OkSide = OkQuote | PathHops;

/** pricePathHops' position for no amount's legs. */
const NO_LEGS = -1;

function okSide(side: Side | undefined): OkSide | undefined {
  if (side === undefined) return undefined;
  if (isHops(side)) return side;
  return side.ok ? side : undefined;
}

function isHops(side: Side): side is PathHops {
  return Array.isArray(side);
}

/** quoteValue of a side: its last pool's output (exact input) or minus its first pool's input (exact output). */
function sideValue(side: OkSide, tradeType: TradeType): bigint {
  if (!isHops(side)) return quoteValue(side, tradeType);
  return tradeType === 'exactIn' ? side[side.length - 1].amountOut : -side[0].amountIn;
}

/** A side that becomes a share: its quote, its legs made now where they were not. */
function quoteOf(path: PricedPath, side: OkSide): OkQuote {
  return isHops(side) ? { ok: true, legs: legsOf(path, side) } : side;
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
  memo: SetMemo | undefined,
): PricedSplit<P> | undefined {
  let best = priced;
  if (!context.ranksFees) return result(candidates, best);
  // Two members and the best single path known: without either, the other alone is never priced (below).
  if (context.singlesKnown && best.shares.length === 2) return result(candidates, best);
  for (let dropped = true; dropped && best.shares.length > 1; ) {
    dropped = false;
    const shares = best.shares;
    const n = shares.length;
    // Loops, not map/filter/some closures (the member lists are new arrays: solveSet's memo keeps them).
    const all: number[] = new Array(n);
    for (let i = 0; i < n; i++) all[i] = shares[i].member;
    const whole = solveSet(context, candidates, curves, all, memo);
    const order = smallestOrder(shares);
    for (let o = 0; o < n; o++) {
      const leave = order[o];
      const rest: number[] = new Array(n - 1);
      let unbuilt = false;
      for (let i = 0, r = 0; i < n; i++) {
        if (i === leave) continue;
        rest[r++] = shares[i].member;
        if (curves[shares[i].member].x.length === 0) unbuilt = true;
      }
      if (unbuilt) continue;
      // Without a member of two, the other alone: the caller's best single path is at least as good.
      if (context.singlesKnown && rest.length < 2) continue;
      const set = solveSet(context, candidates, curves, rest, memo);
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

/** Shares by size, the smallest first (equal ones in their order). */
export function smallestFirst(shares: readonly Share[]): Share[] {
  return smallestOrder(shares).map((i) => shares[i]);
}

/** smallestFirst's positions. */
function smallestOrder(shares: readonly Share[]): number[] {
  return insertionOrder(shares.length, (i, k) => shares[i].share < shares[k].share);
}

function result<P extends SplitPath>(candidates: readonly P[], priced: { shares: Share[]; score: bigint }): PricedSplit<P> {
  return {
    members: members(candidates, priced.shares),
    shares: priced.shares.map((x) => x.share),
    quotes: quotes(priced.shares),
    score: priced.score,
  };
}
