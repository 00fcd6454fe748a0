import type { RefusalCode } from '../errors/RefusalCode.ts';
import type { SnapshotPool } from '../graph/snapshot.ts';

/** Which side of a trade is fixed: the input (exactIn) or the output (exactOut). */
export type TradeType = 'exactIn' | 'exactOut';

/** The pool kinds the service prices; the registry (registry.ts) is the only place that switches on them. */
export type ProtocolKind = 'uniswapV2' | 'uniswapV3' | 'wrap';

/** A non-negative rational number as two integers (a mid price, a conversion rate). */
export interface Fraction {
  readonly num: bigint;
  readonly den: bigint;
}

/** What every priceable pool is, whatever its protocol. Immutable; shared by every quote on the same state. */
export interface PoolBase {
  readonly kind: ProtocolKind;
  /** The pool contract (checksummed); for a wrap pseudo-pool, the wrapped native token. */
  readonly address: string;
  /** Catalogue DEX slug ('' for a wrap pseudo-pool). */
  readonly dex: string;
  /** Catalogue DEX version ('v2', 'v3'; '' for a wrap pseudo-pool). */
  readonly version: string;
  /** Lower-case token addresses, token0 < token1 as the pool orders them. */
  readonly token0: string;
  readonly token1: string;
  /** Swap fee in pips (hundredths of a bip). */
  readonly fee: number;
}

/**
 * One amount of a ladder, priced. For exactIn the ladder's amount is `amountIn`; for exactOut it is `amountOut`.
 * `ticksCrossed` counts initialized ticks crossed (QuoterV2's initializedTicksCrossed; 0 for other kinds).
 */
export type LadderQuote =
  | { readonly ok: true; readonly amountIn: bigint; readonly amountOut: bigint; readonly ticksCrossed: number }
  | { readonly ok: false; readonly code: RefusalCode; readonly reason: string };

/** How a pool looks in GET /blockchains/pools beyond its balances. */
export interface PoolDescription {
  readonly isActive: boolean;
  readonly tickSpacing: number;
}

/** One event log of a pool, as eth_getLogs returns it (hex strings). */
export interface PoolLog {
  readonly address: string;
  readonly topics: readonly string[];
  readonly data: string;
}

/**
 * What a pool event does to snapshot state: the new state, or "re-read this pool from the chain" with the reason
 * (an unexpected or malformed log, state the event alone cannot update): never a silently wrong state.
 */
export type EventOutcome<S> = { readonly ok: true; readonly state: S } | { readonly ok: false; readonly reason: string };

/** What applying an event needs beyond the pool's own state. */
export interface EventContext {
  /** Half-width of the v3 tick-bitmap window, in words, as the snapshot was seeded with (Snapshot.tickWindowWords). */
  readonly tickWindowWords: number;
}

/**
 * One pool protocol: from snapshot state to a priceable pool, pricing of amount ladders for a trade side, mid
 * price, and what the catalogue API and the pricing pool need to know about its state.
 */
export interface PoolProtocol<P extends PoolBase, S extends SnapshotPool | never = never> {
  readonly kind: ProtocolKind;
  /**
   * True when the pool keeps no state a swap changes (wrap/unwrap): several splits of one trade may use it.
   */
  readonly stateless: boolean;
  /** Builds the priceable pool from its snapshot state; throws on inconsistent state. */
  fromSnapshot(state: S): P;
  /**
   * Prices an ascending list of amounts (inputs for exactIn, outputs for exactOut) in one walk, exactly as the
   * protocol's contracts would (QuoterV2, UniswapV2Library). zeroForOne: token0 is the input.
   */
  quoteLadder(pool: P, zeroForOne: boolean, tradeType: TradeType, amounts: readonly bigint[]): LadderQuote[];
  /** Fee-free price of token0 in token1 (token1 units per token0 unit, smallest units). */
  midPrice(pool: P): Fraction;
  /** Fee-free price of token0 in token1 read straight from snapshot state (display figures, no conversion). */
  snapshotMidPrice(state: S): Fraction;
  /** The snapshot pool as the catalogue API describes it. */
  describe(state: S): PoolDescription;
  /** A measure of the work one walk through the pool can take (initialized ticks; 0 for constant product). */
  stateSize(state: S): number;
  /** A problem with the snapshot state beyond its schema (e.g. unordered ticks), or undefined. */
  checkSnapshot(state: S): string | undefined;
  /** topic0 of every pool event that changes the state applyEvent follows (what a follower subscribes to). */
  readonly eventTopics: readonly string[];
  /**
   * Applies one of the pool's logs (in log order) to its snapshot state; returns the new state (the old one is
   * never modified) or a re-read outcome. A log whose topic0 is not in eventTopics is a re-read.
   */
  applyEvent(state: S, log: PoolLog, context: EventContext): EventOutcome<S>;
}
