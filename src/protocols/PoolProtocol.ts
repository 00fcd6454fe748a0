import type { CatalogDex } from '../catalog/Catalog.ts';
import type { RefusalCode } from '../errors/RefusalCode.ts';
import type { PoolLog } from './logWords.ts';
import type { PoolSource, ReadCall } from './PoolSource.ts';
import type { SnapshotPoolBase } from './SnapshotPoolBase.ts';
import type { HooksOption } from './uniswapV4/v4Fees.ts';

/** What a v4 leg adds of its PoolKey beside the pool's tokens (src/routing/Trade.ts Leg.poolKey; PoolProtocol.legKey). */
export interface V4LegKey {
  readonly fee: number;
  readonly tickSpacing: number;
  readonly hooks: string;
}

/** Reads of state a protocol's pools share (SharedState.reread) and what their results change. */
export interface SharedReread<S> {
  readonly calls: ReadCall<unknown>[];
  /** The pools whose states change (address → new state); a failed read (undefined) changes nothing. */
  apply(results: readonly unknown[]): Map<string, S>;
}

/**
 * State a protocol's pools share beyond their own, as one chain's followed pools record it (PoolProtocol.sharedState:
 * v4's protocolFeesAccrued per currency). Told of every pool of the protocol that enters the book, changes state or
 * leaves it, it knows which pools record what, so a block's spread and re-read visit only the pools concerned (never
 * every pool of the chain).
 */
export interface SharedState<S> {
  /** A pool entered the book, or its state in the book is now `state`. */
  set(address: string, state: S): void;
  /** A pool left the book (a pool it does not hold: nothing). */
  delete(address: string): void;
  /**
   * Given the pools a block changed (state before, after; each already set here), the other pools whose states change
   * with them (address → new state).
   */
  spread(changed: ReadonlyArray<readonly [before: S | undefined, after: S]>): Map<string, S>;
  /**
   * The shared state no event follows (v4: protocolFeesAccrued, which collectProtocolFees empties without an event):
   * the reads a follower makes at every block applied (after the block's events and spread), and the pools whose
   * states change by their results; undefined when there is nothing to read.
   */
  reread(): SharedReread<S> | undefined;
}

/** Which side of a trade is fixed: the input (exactIn) or the output (exactOut). */
export type TradeType = 'exactIn' | 'exactOut';

/** A non-negative rational number as two integers (a mid price, a conversion rate). */
export interface Fraction {
  readonly num: bigint;
  readonly den: bigint;
}

/**
 * Gas units of a protocol's part in a swap, beside the executor call's own figures (src/routing/gasModel.ts adds
 * them up). Calibrated on the devnet against the gasUsed of executed trades (test/tx/buildTradeSteps.devnet.test.ts
 * prints the table) on never-traded and on traded pools: `hop` and `tick` are the warm figures (every slot written
 * already holds a value), `coldSlot` the extra of each slot written from zero (see gasModel.ts).
 */
export interface ProtocolGas {
  /** One pool swap, token transfers included. */
  readonly hop: bigint;
  /** Each initialized tick the swap crosses (LadderQuote.ticksCrossed). */
  readonly tick: bigint;
  /**
   * Exact output: saved on each hop of a route after the first of this protocol (a pool paying the next pool
   * directly where exact input routes the intermediate token through the router).
   */
  readonly exactOutNextHop: bigint;
  /**
   * Each storage slot the swap writes from zero (LadderQuote.coldSlots): what such a write costs beyond rewriting a
   * slot that holds a value (EIP-2200/2929: 22,100 against 5,000 for a slot first touched in the transaction).
   */
  readonly coldSlot: bigint;
  /**
   * A swap that moves the pool's current tick (LadderQuote.movesTick): the v3 oracle's observation write
   * (UniswapV3Pool.swap writes an observation only when the tick changes). 0 for kinds without one.
   */
  readonly tickMove: bigint;
}

/** What every priceable pool is, whatever its protocol. Immutable; shared by every quote on the same state. */
export interface PoolBase {
  /** The protocol's kind, its row in the registry (registry.ts ProtocolKind). */
  readonly kind: string;
  /** The pool contract (checksummed). */
  readonly address: string;
  /** Catalogue DEX slug. */
  readonly dex: string;
  /** Catalogue DEX version ('v2', 'v3'). */
  readonly version: string;
  /** Lower-case token addresses, token0 < token1 as the pool orders them. */
  readonly token0: string;
  readonly token1: string;
  /** Swap fee in pips (hundredths of a bip). */
  readonly fee: number;
}

/**
 * One amount of a ladder, priced. For exactIn the ladder's amount is `amountIn`; for exactOut it is `amountOut`.
 * `ticksCrossed` counts initialized ticks crossed (QuoterV2's initializedTicksCrossed; 0 for other kinds);
 * `coldSlots` the pool's storage slots the swap writes from zero as the state knows them (unknown state counts as
 * zero slots: the gas model must never charge less than the swap uses); `movesTick` whether the swap ends at another
 * tick than it starts (v3: the oracle writes an observation; false for other kinds).
 */
export type LadderQuote =
  | {
      readonly ok: true;
      readonly amountIn: bigint;
      readonly amountOut: bigint;
      readonly ticksCrossed: number;
      readonly coldSlots: number;
      readonly movesTick: boolean;
    }
  | { readonly ok: false; readonly code: RefusalCode; readonly reason: string };

/**
 * One stretch of a pool's exact-input curve in floating point, constant product within it: after `d` more input
 * (fees included, 0 <= d <= len) the pool pays `a * d / (b + d)` more output (a: the output side's virtual reserve,
 * b: the input side's divided by (1 - fee)). A v2 pair is one segment; a v3 pool one per stretch of constant
 * liquidity between ticks. Steers the split search only: every returned amount is priced by quoteLadder.
 */
export interface CurveSegment {
  /** Input (fees included) that crosses the whole segment; Infinity when nothing bounds it. */
  readonly len: number;
  readonly a: number;
  readonly b: number;
  /** Initialized ticks a swap crosses where the segment ends (0 for a v2 pair): the gas the split search expects. */
  readonly ticks: number;
}

/** How a pool looks in GET /blockchains/pools beyond its balances. */
export interface PoolDescription {
  readonly isActive: boolean;
  readonly tickSpacing: number;
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
 * One pool protocol (one folder beside this file, one row of registry.ts): from snapshot state to a priceable pool, pricing of amount ladders for a trade side, mid
 * price, and what the catalogue API and the pricing pool need to know about its state.
 */
/** What the catalogue says about a pool's chain that its pricing depends on. */
export interface SnapshotContext {
  /**
   * Uniswap v4 hook addresses (lower case) the operator lists for the chain (CatalogDex.allowedHooks): a pool with
   * such a hook is priced from its state alone even when the hook has swap permissions; a dynamic-fee pool is priced
   * only with a listed hook without beforeSwap (v4Fees.ts, v4Refusal), and then re-read at every block.
   */
  readonly allowedHooks?: ReadonlySet<string>;
}

/**
 * The contract of a catalogue DEX that swaps its pools itself, apart from the v2/v3 periphery routers the catalogue
 * names by kind (v2RouterAddress, v3RouterAddress): Uniswap v4's UniversalRouter, Balancer v2's Vault.
 */
export interface DexExecutor {
  readonly router: 'UniversalRouter' | 'BalancerVault';
  /** Its address (the catalogue's, checksummed). */
  readonly address: string;
  /**
   * The factories (as the other DEX entries' PoolSource.discovery names them) whose pools it also swaps, mixed with
   * its own in one path: the Universal Router's v2Factory and v3Factory. Empty: its own pools only.
   */
  readonly alsoSwapsFactories: readonly string[];
}

export interface PoolProtocol<P extends PoolBase, S extends SnapshotPoolBase = never> {
  /** Its row in the registry, and the `kind` of its pools. */
  readonly kind: P['kind'];
  /**
   * Every pool kind it prices when there is more than one (Balancer v2: weighted and stable pools, one snapshot
   * version): protocolOf answers this row for each. Absent: `kind` alone.
   */
  readonly kinds?: readonly P['kind'][];
  /**
   * Gas of a swap through one of its pools (per hop, per tick crossed, the exact-output saving per further hop); of
   * its `kind` where `kindGas` gives another kind its own. Read through registry.ts protocolGas(kind).
   */
  readonly gas: ProtocolGas;
  /** The figures of each of its other `kinds` that are not `gas` (Balancer v2: the stable pools'). */
  readonly kindGas?: { readonly [K in P['kind']]?: ProtocolGas };
  /** How its pools are found and read on a chain. */
  readonly source: PoolSource<S>;
  /**
   * Whether its snapshot state holds a `ticks` list in v3's grammar (ascending ticks with liquidityNet), which the
   * snapshot loader's fast path (src/graph/parseSnapshotBytes.ts) may leave in the file's bytes until first read.
   */
  readonly tickListSnapshot?: true;
  /**
   * Whether one of its pools may be a route candidate under a request's `hooks` option and the chain's allowed hooks
   * (lower-case addresses): Uniswap v4's hook rules. Absent: always.
   */
  admits?(state: S, hooks: HooksOption, allowedHooks: ReadonlySet<string>): boolean;
  /**
   * The contract that swaps a catalogue DEX entry's pools of this protocol besides the v2/v3 periphery routers
   * (src/routing/executors.ts), or undefined where the entry names none. Absent: those routers alone.
   */
  executor?(dex: CatalogDex): DexExecutor | undefined;
  /**
   * Builds the priceable pool from its snapshot state and what the catalogue says about its chain (`context`);
   * throws on inconsistent state.
   */
  fromSnapshot(state: S, context?: SnapshotContext): P;
  /**
   * Prices an ascending list of amounts (inputs for exactIn, outputs for exactOut) in one walk, exactly as the
   * protocol's contracts would (QuoterV2, UniswapV2Library). zeroForOne: token0 is the input.
   */
  quoteLadder(pool: P, zeroForOne: boolean, tradeType: TradeType, amounts: readonly bigint[]): LadderQuote[];
  /**
   * The pool's exact-input curve as successive segments from the current state (CurveSegment), one per call;
   * undefined once the known state ends (the input a swap could still take beyond it is not known). `tradeType`: the
   * side of the search that reads it, where the inputs a pool carries differ by side (curveBySide).
   */
  curveSegments(pool: P, zeroForOne: boolean, tradeType: TradeType): () => CurveSegment | undefined;
  /**
   * Set where curveSegments depends on the trade side: an exact output may take more input than an exact input may
   * (a Balancer weighted pool: 30% of the balance out against 30% of the balance in), so the curve an exact-output
   * search reads runs further. Absent: one curve for both sides (the route search keeps it once).
   */
  readonly curveBySide?: true;
  /**
   * Whether the pool refuses every swap in this direction, whatever the amount and side (exact input pays out
   * nothing, exact output cannot be given): a Uniswap v4 pool whose swap fee is 100%. A path through it is never part
   * of a trade, so the route search leaves it out (src/routing/candidates.ts, ExecutablePaths.unpaid). Absent: never.
   */
  paysNothing?(pool: P, zeroForOne: boolean): boolean;
  /** Fee-free price of token0 in token1 (token1 units per token0 unit, smallest units). */
  midPrice(pool: P): Fraction;
  /** Fee-free price of token0 in token1 read straight from snapshot state (display figures, no conversion). */
  snapshotMidPrice(state: S): Fraction;
  /**
   * The snapshot pool as the catalogue API describes it; `context` is its chain's, as fromSnapshot's (a pool is
   * active only where it would be priced).
   */
  describe(state: S, context?: SnapshotContext): PoolDescription;
  /** A measure of the work one walk through the pool can take (initialized ticks; 0 for constant product). */
  stateSize(state: S): number;
  /** A problem with the snapshot state beyond its schema (e.g. unordered ticks), or undefined. */
  checkSnapshot(state: S): string | undefined;
  /** The state as a snapshot file holds it: without follower-side fields (v3 liquidityGross per tick). */
  fileState(state: S): S;
  /** topic0 of every pool event that changes the state applyEvent follows (what a follower subscribes to). */
  readonly eventTopics: readonly string[];
  /**
   * Applies one of the pool's logs (in log order) to its snapshot state; returns the new state (the old one is
   * never modified) or a re-read outcome. A log whose topic0 is not in eventTopics is a re-read.
   */
  applyEvent(state: S, log: PoolLog, context: EventContext): EventOutcome<S>;
  /**
   * State its pools share beyond their own, which each pool's state records (Uniswap v4: the PoolManager's
   * protocolFeesAccrued per currency): a new, empty record of it for one chain's followed pools (SharedState), which
   * the follower keeps told of every pool of the protocol entering, changing or leaving its book. Absent: none shared.
   */
  sharedState?(): SharedState<S>;
  /**
   * What an executor needs besides a leg's pool address, tokens and fee to name the pool (Leg.poolKey): Uniswap v4's
   * PoolKey fee, tick spacing and hooks. Absent for protocols whose pools are contracts of their own.
   */
  legKey?(pool: P): V4LegKey;
  /**
   * For pools of more than two tokens (Balancer v2): the pool's state once per token pair it can price, each with
   * token0 / token1 (and balance0 / balance1) naming that pair and everything else shared, so the pricing graph, the
   * route search and legs keep their pair shape. Every view keeps the pool's `address`: the route search treats them
   * as one pool (never two views of it in one trade). Absent: the state is its own one pair.
   */
  pairViews?(state: S): readonly S[];
  /**
   * Whether a follower must re-read the pool at every block because its price moves without a log (Balancer: a rate
   * provider's rate, an amplification ramp under way; a priced Uniswap v4 dynamic-fee pool, whose fee its hook sets
   * without an event). `context` is the chain's, as fromSnapshot's. Absent: never.
   */
  rereadEachBlock?(state: S, context?: SnapshotContext): boolean;
}
