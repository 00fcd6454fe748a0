/**
 * Balancer v2 on the protocol seam: weighted (`balancerWeighted`) and composable stable (`balancerStable`) pools, one
 * row of src/protocols/registry.ts for both kinds (one snapshot version, `balancerV2`; the pool's `poolKind` picks the
 * math).
 *
 * Design (docs/balancer.md): a Balancer pool holds N tokens in the Vault under a 32-byte poolId. The snapshot, seeding
 * and the follower keep ONE N-token state per pool (SnapshotPoolBalancer, identity = the poolId, lower case, as a v4
 * poolId), so a Vault Swap or a join updates one record and a fresh seed compares record for record. The pricing graph
 * shows each pool as one priceable pool per token pair (pairViews), sharing that state: the graph, the route search
 * and legs keep their pair shape (PoolBase token0 / token1, Leg tokenIn / tokenOut). Every view keeps the poolId as
 * its `address`, and the route search takes the address as the pool: two views of one pool are never two hops of a
 * path nor two splits of a trade (each would be priced on the untouched state, which is not what the Vault does).
 * A leg through one has `pool` = the poolId, `version` 'balancerV2', `kind` its kind. Amounts are always the exact
 * integer math (balancerState.ts balancerQuoter); floats only shape the curve the split search steers by and prunes
 * with (balancerCurve.ts: an upper bound of the exact math, to every input the pool carries).
 */
import { ammRefusal, ammRefusalOf } from '../ammRefusal.ts';
import type { EventOutcome, Fraction, LadderQuote, PoolBase, PoolProtocol, TradeType } from '../PoolProtocol.ts';
import { balancerCurve } from './balancerCurve.ts';
import { AMP_UPDATE_STOPPED, applyBalancerEvent, BALANCER_EVENT_TOPICS, BALANCER_REREAD_TOPICS } from './balancerEvents.ts';
import { BALANCER_STABLE_GAS, BALANCER_WEIGHTED_GAS } from './balancerGas.ts';
import { balancerSource } from './balancerSource.ts';
import { type BalancerPoolState, balancerQuoter, balancerSwap } from './balancerState.ts';
import { AMP_UPDATE_STARTED } from './readBalancerPools.ts';
import { balancerRecord, balancerStateOf, type SnapshotPoolBalancer, tradeableIndices } from './SnapshotPoolBalancer.ts';

/** A pair view of a Balancer v2 pool, ready for the math. */
export interface BalancerPool extends PoolBase {
  readonly kind: 'balancerWeighted' | 'balancerStable';
  /** The whole pool's state (every pair view of the pool shares its values). */
  readonly state: BalancerPoolState;
  /** token0's and token1's indices among the pool's registered tokens. */
  readonly index0: number;
  readonly index1: number;
  /** The pool contract (checksummed). */
  readonly pool: string;
}

const ONE = 10n ** 18n;

const OUTPUT_PAST_BALANCE = ammRefusalOf('INSUFFICIENT_RESERVES', 'the output exceeds the pool balance');

/**
 * Each amount's exact quote or refusal (an output of nothing is AMOUNT_TOO_SMALL), through one quoter for the pool's
 * state, pair and direction (balancerQuoter keeps it per state: later ladders on the same state reuse it).
 */
function quoteAmounts(pool: BalancerPool, zeroForOne: boolean, tradeType: TradeType, amounts: readonly bigint[]): LadderQuote[] {
  const [iIn, iOut] = zeroForOne ? [pool.index0, pool.index1] : [pool.index1, pool.index0];
  const balanceOut = pool.state.balances[iOut];
  const exactIn = tradeType === 'exactIn';
  let quote: ((amount: bigint) => bigint) | undefined;
  return amounts.map((amount): LadderQuote => {
    // An output of the whole balance or more: refused without an error built and thrown per amount.
    if (!exactIn && amount >= balanceOut) return OUTPUT_PAST_BALANCE;
    try {
      quote ??= balancerQuoter(pool.state, iIn, iOut, tradeType, 0n);
      const other = quote(amount);
      const amountOut = exactIn ? other : amount;
      if (amountOut === 0n) return { ok: false, code: 'AMOUNT_TOO_SMALL', reason: 'the swap gives nothing' };
      return { ok: true, amountIn: exactIn ? amount : other, amountOut, ticksCrossed: 0, coldSlots: 0, movesTick: false };
    } catch (error) {
      return ammRefusal(error);
    }
  });
}

/** Fee-free price of token0 in token1 (raw units): weighted from balances and weights, stable from a tiny fee-free swap. */
function mid(pool: BalancerPool): Fraction {
  const { state, index0: i, index1: j } = pool;
  const b0 = state.balances[i];
  const b1 = state.balances[j];
  if (b0 === 0n || b1 === 0n) return { num: 0n, den: 1n };
  if (state.kind === 'balancerWeighted') return { num: b1 * state.weights[i], den: b0 * state.weights[j] };
  const amount = b0 / 1_000_000n > 0n ? b0 / 1_000_000n : 1n;
  try {
    const out = balancerSwap({ ...state, swapFee: 0n }, i, j, 'exactIn', amount, 0n);
    return { num: out, den: amount };
  } catch {
    return { num: 0n, den: 1n };
  }
}

function fromSnapshot(p: SnapshotPoolBalancer): BalancerPool {
  const state = balancerStateOf(p);
  const index0 = state.tokens.indexOf(p.token0.toLowerCase());
  const index1 = state.tokens.indexOf(p.token1.toLowerCase());
  const traded = tradeableIndices(p);
  if (!traded.includes(index0) || !traded.includes(index1) || index0 === index1)
    throw new Error(`Balancer pool ${p.address}: token0 / token1 are not two of its tradeable tokens`);
  return Object.freeze({
    kind: p.poolKind,
    address: p.address,
    dex: p.dex,
    version: p.version,
    token0: p.token0.toLowerCase(),
    token1: p.token1.toLowerCase(),
    fee: p.fee,
    state,
    index0,
    index1,
    pool: p.pool,
  });
}

const U256 = 1n << 256n;
const isUint = (s: unknown): boolean => typeof s === 'string' && /^(0|[1-9][0-9]*)$/.test(s) && BigInt(s) < U256;

/** What is wrong with a record beyond its schema, or undefined. */
function check(p: SnapshotPoolBalancer): string | undefined {
  if (!/^0x[0-9a-f]{64}$/.test(p.address)) return 'address: must be the poolId (32 bytes, lower-case hex)';
  if (p.pool.toLowerCase() !== p.address.slice(0, 42)) return 'pool: must be the first 20 bytes of the poolId';
  const n = p.tokens.length;
  if (n < 2 || p.balances.length !== n || p.decimals.length !== n) return 'tokens, balances, decimals: one entry per token, at least two';
  if (p.tokens.some((t) => !/^0x[0-9a-f]{40}$/.test(t))) return 'tokens: lower-case addresses';
  if (p.balances.some((b) => !isUint(b))) return 'balances: uint256 decimal strings';
  if (p.decimals.some((d) => !Number.isInteger(d) || d < 0 || d > 18)) return 'decimals: integers in [0, 18]';
  if (!isUint(p.swapFee) || BigInt(p.swapFee) >= ONE) return 'swapFee: below 1e18';
  if (p.poolKind === 'balancerWeighted') {
    if (!p.weights || p.weights.length !== n || p.weights.some((w) => !isUint(w) || BigInt(w) === 0n))
      return 'weights: one positive weight per token';
    if (p.bptIndex !== undefined || p.amp !== undefined || p.rates !== undefined) return 'a weighted pool has no bptIndex, amp or rates';
  } else {
    if (p.bptIndex === undefined || !Number.isInteger(p.bptIndex) || p.bptIndex < 0 || p.bptIndex >= n)
      return 'bptIndex: an index of tokens';
    if (p.tokens[p.bptIndex] !== p.pool.toLowerCase()) return "bptIndex: must name the pool's own token";
    if (!isUint(p.amp) || BigInt(p.amp!) === 0n) return 'amp: a positive integer';
    if (!p.rates || p.rates.length !== n || p.rates.some((r) => r !== null && (!isUint(r) || BigInt(r) === 0n)))
      return 'rates: one positive rate or null per token';
    if (p.weights !== undefined) return 'a stable pool has no weights';
  }
  const traded = tradeableIndices(p).map((i) => p.tokens[i]);
  const i0 = p.tokens.indexOf(p.token0);
  const i1 = p.tokens.indexOf(p.token1);
  if (!traded.includes(p.token0) || !traded.includes(p.token1) || p.token0 >= p.token1)
    return 'token0 / token1: two of its tradeable tokens, token0 < token1';
  if (p.balance0 !== p.balances[i0] || p.balance1 !== p.balances[i1]) return 'balance0 / balance1: the balances of token0 / token1';
  return undefined;
}

function applyEvent(
  state: SnapshotPoolBalancer,
  log: Parameters<PoolProtocol<BalancerPool, SnapshotPoolBalancer>['applyEvent']>[1],
): EventOutcome<SnapshotPoolBalancer> {
  const topic = log.topics[0]?.toLowerCase();
  // A ramp starting: its value moves every second, which the follower follows by re-reading at each block.
  if (topic === AMP_UPDATE_STARTED) return { ok: false, reason: 'amplification ramp started: re-read' };
  const out = applyBalancerEvent(balancerStateOf(state), log);
  if (!out.ok) return out;
  const ampUpdating = topic === AMP_UPDATE_STOPPED ? false : (state.ampUpdating ?? false);
  const next = balancerRecord(out.state, { dex: state.dex, vault: state.vault, factory: state.factory, timestamp: 0n, ampUpdating });
  return { ok: true, state: next };
}

/**
 * Balancer v2 weighted and composable stable pools (see the header): exact WeightedMath / StableMath through
 * balancerQuoter, found and read by balancerSource, followed by applyBalancerEvent.
 */
export const balancerV2: PoolProtocol<BalancerPool, SnapshotPoolBalancer> = {
  kind: 'balancerWeighted',
  kinds: ['balancerWeighted', 'balancerStable'],
  source: balancerSource,
  // The Vault swaps its own pools only (`swap` / `batchSwap`).
  executor: (dex) =>
    dex.version === 'balancerV2' && dex.balancerVaultAddress
      ? { router: 'BalancerVault', address: dex.balancerVaultAddress, alsoSwapsFactories: [] }
      : undefined,
  eventTopics: [...BALANCER_EVENT_TOPICS, ...BALANCER_REREAD_TOPICS],
  applyEvent,
  /** Measured on the devnet's Vault (balancerGas.ts): weighted pools' figures, the stable pools' own in kindGas. */
  gas: BALANCER_WEIGHTED_GAS,
  kindGas: { balancerStable: BALANCER_STABLE_GAS },
  fromSnapshot,
  quoteLadder(pool, zeroForOne, tradeType, amounts) {
    return quoteAmounts(pool, zeroForOne, tradeType, amounts);
  },
  curveSegments: balancerCurve,
  curveBySide: true,
  midPrice: mid,
  snapshotMidPrice(p) {
    try {
      return mid(fromSnapshot(p));
    } catch {
      return { num: 0n, den: 1n };
    }
  },
  describe(p) {
    return { isActive: tradeableIndices(p).every((i) => BigInt(p.balances[i]) > 0n), tickSpacing: 0 };
  },
  stateSize: () => 0,
  checkSnapshot: check,
  fileState: (p) => p,
  pairViews(p) {
    const traded = tradeableIndices(p).sort((a, b) => (p.tokens[a] < p.tokens[b] ? -1 : 1));
    const views: SnapshotPoolBalancer[] = [];
    for (let x = 0; x < traded.length; x++)
      for (let y = x + 1; y < traded.length; y++) {
        const [i, j] = [traded[x], traded[y]];
        views.push({ ...p, token0: p.tokens[i], token1: p.tokens[j], balance0: p.balances[i], balance1: p.balances[j] });
      }
    return views;
  },
  rereadEachBlock: (p) => p.poolKind === 'balancerStable' && (p.ampUpdating === true || (p.rates ?? []).some((r) => r !== null)),
};
