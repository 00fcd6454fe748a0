import type { TradeType } from '../protocols/PoolProtocol.ts';
import type { ProtocolKind } from '../protocols/registry.ts';
import type { ExecutorKind } from './executors.ts';

/** One swap through one pool of a route, priced. Plain data: crosses thread boundaries. */
export interface Leg {
  /** Pool address (checksummed); for a wrap or unwrap, the wrapped native token. */
  readonly pool: string;
  readonly kind: ProtocolKind;
  /** Catalogue DEX slug and version ('' for wrap/unwrap). */
  readonly dex: string;
  readonly version: string;
  /** Fee in pips. */
  readonly fee: number;
  /** Lower-case token addresses (the native asset as its pseudo-address). */
  readonly tokenIn: string;
  readonly tokenOut: string;
  readonly amountIn: bigint;
  readonly amountOut: bigint;
  /** Initialized ticks crossed (v3), for the gas model. */
  readonly ticksCrossed: number;
  /** Storage slots of the pool the swap writes from zero (LadderQuote.coldSlots), for the gas model. */
  readonly coldSlots: number;
  /** The swap moves the pool's tick (LadderQuote.movesTick: a v3 oracle write), for the gas model. */
  readonly movesTick: boolean;
}

/** The contract that executes a route in one call. */
export interface Executor {
  readonly kind: ExecutorKind;
  /** Router address (checksummed); the wrapped native token for a bare wrap/unwrap. */
  readonly address: string;
  /** How steps name it, e.g. 'Uniswap V3 router'. */
  readonly name: string;
}

/** A path from tokenIn to tokenOut through pools, priced for one amount. */
export interface Route {
  readonly legs: readonly Leg[];
  readonly amountIn: bigint;
  readonly amountOut: bigint;
  readonly executor: Executor;
  /** Gas of this route's swaps inside its executor's call (legs and ticks; no per-transaction costs). */
  readonly gas: bigint;
}

/** One part of a trade: a share of the amount sent along one route. */
export interface Split {
  /** Share of the trade's fixed amount, whole percent (the parts add up to 100). */
  readonly percent: number;
  readonly route: Route;
}

/** A priced, executable trade: one or more routes sharing no pool (stateless wrap pools aside). */
export interface Trade {
  readonly tradeType: TradeType;
  /** Lower-case token addresses as requested (the native asset as its pseudo-address). */
  readonly tokenIn: string;
  readonly tokenOut: string;
  /** Sums over the splits. */
  readonly amountIn: bigint;
  readonly amountOut: bigint;
  /** Largest share first. */
  readonly splits: readonly Split[];
  /** Gas units of every step the trade needs (approvals included). */
  readonly gasEstimate: bigint;
  readonly gasPriceWei: bigint;
  /**
   * The network fee (gasEstimate x gasPriceWei) converted at the mid price of the chain's pools into tokenIn and into
   * tokenOut; null when no pool path prices the native asset in that token. exactIn trades are ranked by output minus
   * the tokenOut figure, exactOut trades by input plus the tokenIn figure.
   */
  readonly gasCost: { readonly tokenIn: bigint | null; readonly tokenOut: bigint | null };
  /** Execution price against the fee-free mid price along the paths, fees included, in basis points. */
  readonly priceImpactBps: number;
  /** LP fees in tokenIn's smallest units: per split ceil(amountIn x (1 - prod(1 - fee))), summed. */
  readonly fees: bigint;
}
