import type { TradeType } from '../protocols/PoolProtocol.ts';
import type { Equalised } from './equalise.ts';
import type { PathQuote, PricedPath } from './priceRoutes.ts';

/** A priced path quote that went through. */
export type OkQuote = PathQuote & { ok: true };

/** A path the split search may use. */
export interface SplitPath {
  readonly path: PricedPath;
  /** Its pools and directions: names its curve in a CurveCache. */
  readonly key: string;
  /** The one DEX deployment whose pools it goes through; undefined when it mixes deployments. */
  readonly deployment: string | undefined;
  /**
   * Its pools' addresses, hop by hop (path.pools' `address`; a pool of more than two tokens has one address for all
   * its pair views): a split's paths share none. Read from this array of strings, not from the pool objects, whose
   * shapes differ by protocol (a property read that sees many shapes is a slow lookup).
   */
  readonly poolAddresses: readonly string[];
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
   * search would not choose it either); else true, once `curves[j]` is its curve. Asked in the first round, and in
   * later ones only while `curves[j]` has no pieces: a later round weighs a path with a curve without asking (its
   * bound there is the search's own, mayReach, on the curve).
   */
  admit?(j: number, set: SetAtRate | undefined, toBeat: number | undefined): boolean;
  /**
   * Each candidate's ceiling of its rate at zero (rateCeiling): a round passes over a path at or below the set's rate,
   * and in the first round one worth alone no more than the best so far, before anything else is asked of it.
   */
  readonly ceilings?: readonly number[];
  /**
   * Where fees are ranked: what any set's fee estimate is at least (FeeFloor). A later round passes over a path whose
   * set, at its value bound (mayReach) less that floor, cannot win: its gain would not pay for its swaps.
   */
  readonly feeFloor?: FeeFloor<P>;
}

/** A floor of feeEstimate: per gas unit (never above its fee per unit), and each path's least gas in any set. */
export interface FeeFloor<P extends SplitPath> {
  readonly perGas: number;
  gas(path: P): number;
}

/** Paths' positions by descending ceiling of their rate at zero (ties by position), and the ceilings by position. */
export interface RateOrder {
  readonly order: readonly number[];
  readonly ceilings: readonly number[];
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

/** Relative slack of the greedy's float bound (mayReach) over the float solves it stands for. */
export const BOUND_SLACK = 1e-9;

/** The value a path quote is ranked by: output for exactIn, minus the input for exactOut. */
export function quoteValue(q: OkQuote, tradeType: TradeType): bigint {
  return tradeType === 'exactIn' ? q.legs[q.legs.length - 1].amountOut : -q.legs[0].amountIn;
}

/** A set of paths solved in floating point. */
export interface Solved {
  readonly members: readonly number[];
  readonly split: Equalised;
  /** Its value (output, or minus the input) less the estimated fee; for a set that cannot carry the amount, -Infinity. */
  readonly net: number;
  /** What the set carries of the fixed amount. */
  readonly reach: number;
  /** The estimated network fee of the set. */
  readonly fee: number;
}
