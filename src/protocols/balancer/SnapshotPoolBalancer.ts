import { decimalsScalingFactor } from '../../amm/balancerFixedPoint.ts';
import type { SnapshotPoolBase } from '../SnapshotPoolBase.ts';
import { type BalancerPoolState, rateAt } from './balancerState.ts';

/**
 * A Balancer v2 pool in a snapshot file: ONE record per pool, whatever its number of tokens (the pricing graph shows
 * it as one pair view per token pair, PoolProtocol.pairViews). `address` is the Vault's poolId (32 bytes, lower-case
 * hex: the pool's identity in the Vault, as a v4 poolId is in the PoolManager); `pool` is the pool contract. The
 * record's token0 / token1 (balance0 / balance1) are its first pair: the two lowest tradeable token addresses (a pair
 * view replaces them with its own pair). `fee` is the swap fee in pips, floored (display and pair shape only; the math
 * takes `swapFee`). Everything is the state at the snapshot's block: the amplification's value at that block (a ramp
 * under way is followed by a re-read at every block, `ampUpdating`), and each rate provider's rate as a swap in that
 * block uses it (the pool's cached rate, or the provider's when the cache has expired), so pricing takes no timestamp.
 */
export interface SnapshotPoolBalancer extends SnapshotPoolBase {
  readonly version: 'balancerV2';
  /** Which math prices it: its factory's kind. */
  readonly poolKind: 'balancerWeighted' | 'balancerStable';
  /** The pool contract (checksummed). */
  readonly pool: string;
  /** The Vault that holds its tokens, and the factory that created it (checksummed). */
  readonly vault: string;
  readonly factory: string;
  /** The Vault's registered tokens (lower case) in its order; a composable stable pool's own BPT among them. */
  readonly tokens: readonly string[];
  /** Raw balances (cash + managed) in the order of tokens, decimal strings. */
  readonly balances: readonly string[];
  /** Each token's decimals() (at most 18). */
  readonly decimals: readonly number[];
  /** Swap fee percentage, 18 decimals (decimal string). */
  readonly swapFee: string;
  /** Weighted: normalized weights, 18 decimals, in the order of tokens. */
  readonly weights?: readonly string[];
  /** Stable: index of the pool's BPT in tokens (not traded: joins and exits are not quoted). */
  readonly bptIndex?: number;
  /** Stable: the amplification parameter at the block (AMP_PRECISION included). */
  readonly amp?: string;
  /** Stable: true while an amplification ramp is under way (the follower re-reads the pool every block). */
  readonly ampUpdating?: boolean;
  /** Stable: per token, its rate provider's rate as a swap in the block takes it (18 decimals), or null (no provider). */
  readonly rates?: readonly (string | null)[];
}

/** The tradeable tokens of a pool (its own BPT left out), as indices into tokens. */
export function tradeableIndices(p: Pick<SnapshotPoolBalancer, 'tokens' | 'bptIndex'>): number[] {
  return p.tokens.map((_, i) => i).filter((i) => i !== p.bptIndex);
}

/** A rate that the math reads as constant (cached = current, never expiring). */
const fixedRate = (provider: string, rate: bigint) => ({ provider, cached: rate, duration: 0n, expires: 1n << 255n, current: rate });

/** The snapshot state as the math takes it (balancerSwap): the amplification constant, the rates fixed. */
export function balancerStateOf(p: SnapshotPoolBalancer): BalancerPoolState {
  const common = {
    address: p.pool,
    poolId: p.address,
    tokens: p.tokens,
    balances: p.balances.map(BigInt),
    decimalsFactors: p.decimals.map(decimalsScalingFactor),
    swapFee: BigInt(p.swapFee),
  };
  if (p.poolKind === 'balancerWeighted') return { kind: 'balancerWeighted', ...common, weights: (p.weights ?? []).map(BigInt) };
  const amp = BigInt(p.amp ?? '0');
  return {
    kind: 'balancerStable',
    ...common,
    bptIndex: p.bptIndex ?? -1,
    amp: { startValue: amp, endValue: amp, startTime: 0n, endTime: 0n },
    rates: (p.rates ?? p.tokens.map(() => null)).map((r) => (r === null ? undefined : fixedRate('', BigInt(r)))),
  };
}

/** What a snapshot record adds to a pool's state beside the math's: where it lives and what it is. */
export interface BalancerRecordFacts {
  readonly dex: string;
  readonly vault: string;
  readonly factory: string;
  /** The block's timestamp: which rate a swap in it takes (rateAt). */
  readonly timestamp: bigint;
  /** Whether an amplification ramp is under way at the block. */
  readonly ampUpdating: boolean;
}

/**
 * A pool's state (readBalancerPools, applyBalancerEvent) as its snapshot record. A stable state's amplification is
 * taken at the block (ampAt at `timestamp`, the value getAmplificationParameter returns), its rates as a swap in the
 * block takes them.
 */
export function balancerRecord(s: BalancerPoolState, facts: BalancerRecordFacts, ampNow?: bigint): SnapshotPoolBalancer {
  const tradeable = s.tokens.map((_, i) => i).filter((i) => s.kind !== 'balancerStable' || i !== s.bptIndex);
  const [i0, i1] = [...tradeable].sort((a, b) => (s.tokens[a] < s.tokens[b] ? -1 : 1));
  const base = {
    version: 'balancerV2' as const,
    address: s.poolId.toLowerCase(),
    dex: facts.dex,
    token0: s.tokens[i0],
    token1: s.tokens[i1],
    fee: Number(s.swapFee / 10n ** 12n),
    balance0: s.balances[i0].toString(),
    balance1: s.balances[i1].toString(),
    poolKind: s.kind,
    pool: s.address,
    vault: facts.vault,
    factory: facts.factory,
    tokens: [...s.tokens],
    balances: s.balances.map(String),
    decimals: s.decimalsFactors.map(decimalsOf),
    swapFee: s.swapFee.toString(),
  };
  if (s.kind === 'balancerWeighted') return { ...base, weights: s.weights.map(String) };
  return {
    ...base,
    bptIndex: s.bptIndex,
    amp: (ampNow ?? s.amp.endValue).toString(),
    ampUpdating: facts.ampUpdating,
    rates: s.rates.map((r) => (r === undefined ? null : rateAt(r, facts.timestamp).toString())),
  };
}

/** The decimals of a decimalsScalingFactor (1e18 * 10^(18 - decimals)). */
function decimalsOf(factor: bigint): number {
  let d = 18;
  for (let f = factor / 10n ** 18n; f > 1n; f /= 10n) d--;
  return d;
}
