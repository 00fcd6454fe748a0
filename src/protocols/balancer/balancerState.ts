/**
 * A Balancer v2 pool's state as the service holds it, shared by the weighted and the composable stable kinds: the
 * Vault's registered tokens and balances (raw), the swap fee, and what each kind prices with (normalized weights;
 * amplification ramp, BPT index, rate providers' cached and current rates). Quotes are taken at a block timestamp:
 * the amplification ramps and an expired rate cache is refreshed, as the pool does at the start of a swap.
 */

import { mulDown } from '../../amm/balancerFixedPoint.ts';
import { type AmpRamp, ampAt, type StableSwapState } from '../balancerStable/stableMath.ts';
import { type InvariantOf, invariantMemo, stableQuoter } from '../balancerStable/stableQuoter.ts';
import { weightedQuoter } from '../balancerWeighted/weightedMath.ts';
import type { TradeType } from '../PoolProtocol.ts';

/** A token's rate provider as the pool caches it (ComposableStablePool getTokenRateCache) and its rate now. */
export interface TokenRate {
  readonly provider: string;
  /** The rate the pool holds. */
  readonly cached: bigint;
  /** Seconds a cached rate lasts. */
  readonly duration: bigint;
  /** After this timestamp the pool reads the provider again at its next swap. */
  readonly expires: bigint;
  /** The provider's getRate() at the state's block. */
  readonly current: bigint;
}

interface BalancerPoolCommon {
  /** The pool contract (checksummed). */
  readonly address: string;
  /** The Vault's poolId (lower-case hex). */
  readonly poolId: string;
  /** The Vault's registered tokens (lower-case), sorted; a composable stable pool's BPT among them. */
  readonly tokens: readonly string[];
  /** Raw balances (cash + managed) in the order of tokens. */
  readonly balances: readonly bigint[];
  /** 1e18 * 10^(18 - decimals) per registered token. */
  readonly decimalsFactors: readonly bigint[];
  /** Swap fee percentage, 18 decimals. */
  readonly swapFee: bigint;
}

export interface BalancerWeightedState extends BalancerPoolCommon {
  readonly kind: 'balancerWeighted';
  /** Normalized weights (18 decimals) in the order of tokens. */
  readonly weights: readonly bigint[];
}

export interface BalancerStableState extends BalancerPoolCommon {
  readonly kind: 'balancerStable';
  /** Index of the pool's own BPT among tokens (not tradeable here: joins and exits are not quoted). */
  readonly bptIndex: number;
  /** Amplification (AMP_PRECISION included); constant when start equals end. */
  readonly amp: AmpRamp;
  /** Per registered token: its rate provider, or undefined (rate 1). */
  readonly rates: readonly (TokenRate | undefined)[];
}

export type BalancerPoolState = BalancerWeightedState | BalancerStableState;

/** The rate a swap at `timestamp` uses: the cached one until it expires, then the provider's (refreshed in the swap). */
export function rateAt(rate: TokenRate | undefined, timestamp: bigint): bigint {
  if (rate === undefined) return 10n ** 18n;
  return timestamp > rate.expires ? rate.current : rate.cached;
}

/** A stable pool's tradeable tokens (BPT dropped) as the math takes them at a block timestamp. */
export function stableSwapState(state: BalancerStableState, timestamp: bigint): StableSwapState {
  const keep = (_: unknown, i: number) => i !== state.bptIndex;
  return {
    balances: state.balances.filter(keep),
    scalingFactors: state.decimalsFactors.map((f, i) => mulDown(f, rateAt(state.rates[i], timestamp))).filter(keep),
    amp: ampAt(state.amp, timestamp),
    swapFee: state.swapFee,
  };
}

/** Per stable pool state, the memo its quoters (every pair and direction) share the invariant through. */
const invariants = new WeakMap<BalancerStableState, InvariantOf>();

function stateInvariant(state: BalancerStableState): InvariantOf {
  let memo = invariants.get(state);
  if (memo === undefined) {
    memo = invariantMemo();
    invariants.set(state, memo);
  }
  return memo;
}

/** A quoter balancerQuoter made, with the timestamp it was made for. */
interface MadeQuoter {
  readonly timestamp: bigint;
  readonly quote: (amount: bigint) => bigint;
}

/** Per pool state object, the quoters made for it, by pair and direction (quoterKey). */
const quoters = new WeakMap<BalancerPoolState, Map<number, MadeQuoter>>();

const quoterKey = (indexIn: number, indexOut: number, tradeType: TradeType) =>
  (indexIn * 256 + indexOut) * 2 + (tradeType === 'exactIn' ? 1 : 0);

/**
 * A quoter for Vault swaps between two registered tokens (by index) at `timestamp`: amount (raw input for exactIn, raw
 * output for exactOut) to the exact amount the swap gives or takes; throws AmmError where the pool reverts. What does
 * not depend on the amount (upscaled balances, the weighted exponent, the stable invariant and amplification terms) is
 * computed once per quoter, and the quoter is kept per state object, pair and direction (and made again for another
 * timestamp): a route search prices many ladders on one state, and each after the first costs only its amounts. A
 * state is an immutable snapshot (readonly throughout; the follower makes a new object for each change:
 * applyBalancerEvent copies, fromSnapshot builds anew), so a quoter kept for it stays exact while the object lives;
 * the map holds states weakly. A stable state's quoters also share its invariant (a memo per state object that
 * answers only for the same amplification and upscaled balances).
 */
export function balancerQuoter(
  state: BalancerPoolState,
  indexIn: number,
  indexOut: number,
  tradeType: TradeType,
  timestamp: bigint,
): (amount: bigint) => bigint {
  let made = quoters.get(state);
  const key = quoterKey(indexIn, indexOut, tradeType);
  const kept = made?.get(key);
  if (kept !== undefined && kept.timestamp === timestamp) return kept.quote;
  const quote = makeQuoter(state, indexIn, indexOut, tradeType, timestamp);
  if (made === undefined) {
    made = new Map();
    quoters.set(state, made);
  }
  made.set(key, { timestamp, quote });
  return quote;
}

/** balancerQuoter's quoter, made anew. */
function makeQuoter(
  state: BalancerPoolState,
  indexIn: number,
  indexOut: number,
  tradeType: TradeType,
  timestamp: bigint,
): (amount: bigint) => bigint {
  if (indexIn === indexOut) throw new RangeError('balancerSwap: token in and out are the same');
  if (state.kind === 'balancerWeighted') {
    const side = {
      balanceIn: state.balances[indexIn],
      balanceOut: state.balances[indexOut],
      weightIn: state.weights[indexIn],
      weightOut: state.weights[indexOut],
      scalingFactorIn: state.decimalsFactors[indexIn],
      scalingFactorOut: state.decimalsFactors[indexOut],
      swapFee: state.swapFee,
    };
    return weightedQuoter(side, tradeType === 'exactIn');
  }
  if (indexIn === state.bptIndex || indexOut === state.bptIndex)
    throw new RangeError('balancerSwap: BPT swaps (joins/exits) are not quoted');
  const i = indexIn > state.bptIndex ? indexIn - 1 : indexIn;
  const o = indexOut > state.bptIndex ? indexOut - 1 : indexOut;
  return stableQuoter(stableSwapState(state, timestamp), i, o, tradeType === 'exactIn', stateInvariant(state));
}

/**
 * The exact amount a Vault swap of `amount` (raw input for exactIn, raw output for exactOut) between two registered
 * tokens (by index) gives or takes at `timestamp`; throws AmmError where the pool reverts.
 */
export function balancerSwap(
  state: BalancerPoolState,
  indexIn: number,
  indexOut: number,
  tradeType: TradeType,
  amount: bigint,
  timestamp: bigint,
): bigint {
  return balancerQuoter(state, indexIn, indexOut, tradeType, timestamp)(amount);
}
