import type { TradeType, V4LegKey } from '../protocols/PoolProtocol.ts';
import type { ProtocolKind } from '../protocols/registry.ts';

/** One swap through one pool of a route, priced. Plain data: crosses thread boundaries. */
export interface Leg {
  /** Pool address (checksummed); a Balancer v2 pool's poolId (lower-case 0x + 64 hex), by which its Vault names it. */
  readonly pool: string;
  readonly kind: ProtocolKind;
  /** Catalogue DEX slug and version. */
  readonly dex: string;
  readonly version: string;
  /** Fee in pips. */
  readonly fee: number;
  /**
   * Lower-case token addresses, as the pool holds them: native ETH in a Uniswap v4 pool is the zero address
   * (src/routing/nativePools.ts), so consecutive legs may meet across ETH and WETH (the executor wraps or unwraps).
   */
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
  /**
   * Uniswap v4 pools only: the rest of the pool's PoolKey, by which the Universal Router names the pool (its currencies
   * are tokenIn and tokenOut, the zero address for native ETH): the key's fee (0x800000 for a dynamic fee, where `fee`
   * is the LP fee in force), tick spacing and hooks contract (checksummed; the zero address when none).
   */
  readonly poolKey?: V4LegKey;
}

/**
 * The router contracts the service encodes calls for (src/tx/routers/, one encoder each). UniversalRouter: Uniswap's
 * Universal Router 2.x, the executor of v4 pools (with the v2/v3 pools of the factories it was deployed with).
 * BalancerVault: Balancer v2's Vault itself (`swap` / `batchSwap`), the executor of its deployment's pools.
 */
export type ExecutorKind = 'UniswapV2Router02' | 'SwapRouter' | 'SwapRouter02' | 'PancakeSmartRouter' | 'UniversalRouter' | 'BalancerVault';

/** The contract that executes a route in one call. */
export interface Executor {
  readonly kind: ExecutorKind;
  /** Router address (checksummed). */
  readonly address: string;
  /** How steps name it, e.g. 'Uniswap V3 router'. */
  readonly name: string;
}

/**
 * One executor call of a route executed as consecutive steps (Route.stages): the next `legs` legs of the route, their
 * output paid to the wallet, which the next stage spends.
 */
export interface RouteStage {
  readonly executor: Executor;
  /** How many of the route's legs, from where the previous stage ended. */
  readonly legs: number;
  /**
   * The least output the stage's call accepts (on chain: its minimum): for every stage but the last, its expected
   * output less the hand-over slippage (slippageLimits.ts minimumAmountOut), which is exactly what the next stage
   * spends, so a later step never spends more than an earlier one is bound to have delivered; the expected output
   * beyond it stays with the wallet. For the last stage, its expected output (buildTradeSteps enforces the trade's
   * minimum there).
   */
  readonly amountOutMinimum: bigint;
}

/** A path through pools from the trade's tokenIn to its tokenOut (as the pools hold them), priced for one amount. */
export interface Route {
  /**
   * The swaps in path order. In a route of stages, the first leg of a later stage takes the previous stage's
   * amountOutMinimum (what the wallet is sure to hold), not the previous leg's amountOut.
   */
  readonly legs: readonly Leg[];
  readonly amountIn: bigint;
  readonly amountOut: bigint;
  /** The executor of the route (a route of stages: its first stage's). */
  readonly executor: Executor;
  /**
   * A path no single executor runs (e.g. a Uniswap pool, then Balancer pools): consecutive stages, each its own call
   * of its own executor, exact input only (src/routing/executors.ts routeStages). Absent for a route of one call.
   */
  readonly stages?: readonly RouteStage[];
  /** Gas of this route's swaps inside its executor's call (legs and ticks; no per-transaction costs). */
  readonly gas: bigint;
}

/** One part of a trade: a share of the amount sent along one route. */
export interface Split {
  /** Share of the trade's fixed amount in percent, to four decimals (millionths of the amount; the parts add up to 100). */
  readonly percent: number;
  readonly route: Route;
}

/**
 * How one end of a trade meets the native asset (the way Uniswap's smart-order-router routes on the wrapped currency
 * and restores the native asset in the calldata):
 * - 'none': the end is an ERC-20 token, which the pools hold as is;
 * - 'wrapped': the end is the native asset; each route's end leg says how its pool meets it: a pool that holds the
 *   wrapped native token (the executor wraps the input before the first pool, or unwraps the output after the last),
 *   or a pool that holds native ETH itself (Uniswap v4, currency 0x0: the leg starts or ends at the zero address,
 *   src/routing/nativePools.ts, and nothing is wrapped; executed by the Universal Router only, executors.ts
 *   meetsNativePools). Splits may mix both. A trade without splits is WETH9's own deposit or withdraw.
 */
export type NativeEnd = 'none' | 'wrapped';

/**
 * A priced, executable trade: one or more routes sharing no pool, or, with no splits at all, a bare wrap or unwrap
 * (the native asset to its wrapped token or back, 1:1, executed by the wrapped token's contract). A leg is always a
 * pool: the native asset is an end of the trade, never a leg.
 */
export interface Trade {
  readonly tradeType: TradeType;
  /** Lower-case token addresses as requested (the native asset as its pseudo-address). */
  readonly tokenIn: string;
  readonly tokenOut: string;
  /** How tokenIn and tokenOut meet the native asset; the routes run between the tokens the pools hold. */
  readonly nativeIn: NativeEnd;
  readonly nativeOut: NativeEnd;
  /** Sums over the splits (a bare wrap or unwrap: its amount, both sides). */
  readonly amountIn: bigint;
  readonly amountOut: bigint;
  /** Largest share first; empty for a bare wrap or unwrap. */
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
