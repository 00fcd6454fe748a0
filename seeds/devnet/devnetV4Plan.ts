/**
 * The devnet's Uniswap v4 pools (seeds/devnet/deployUniswapV4.ts creates them after everything else). 'ETH' is the
 * native currency (v4's currency 0x0000…0000, no wrapping). Between them the pools cover tick spacings 1, 10, 60 and
 * 200, fees of 0 to 100%, a protocol fee that differs per direction, and liquidity over nested, skewed and
 * single-sided ranges so trades cross ticks.
 */
import { DEVNET_STABLE_POSITIONS, DEVNET_VOLATILE_POSITIONS, type DevnetTokenSymbol, type TickOffsets } from './devnetPlan.ts';

/** A v4 pool currency of the devnet: a devnet token or the native asset. */
export type DevnetV4Currency = DevnetTokenSymbol | 'ETH';

export interface DevnetV4PoolSpec {
  readonly a: DevnetV4Currency;
  readonly b: DevnetV4Currency;
  /** LP fee in pips (static: hooks = 0). */
  readonly fee: number;
  readonly tickSpacing: number;
  /** USD value offered per position (half per currency; single-sided positions take only one side). */
  readonly usdPerPosition: bigint;
  readonly positions: readonly TickOffsets[];
  /**
   * A hook (deployUniswapV4.ts places it at an address whose low bits are its permissions): 'swap', v4-core's
   * MockHooks with beforeSwap and afterSwap (it changes nothing, but could: the service must refuse the pool);
   * 'dynamicFee', v4-core's DynamicFeesTestHook (afterInitialize and beforeSwap set the LP fee to `fee`) on a pool
   * whose key fee is the dynamic-fee flag; 'ownerFee', DevnetDynamicFeeHook (no permission: its owner sets the LP fee
   * to `fee` after initialize, and later through setFee, without an event) on a dynamic-fee pool, priced only where
   * the catalogue lists the hook (v4Refusal).
   */
  readonly hook?: 'swap' | 'dynamicFee' | 'ownerFee';
  /** Protocol fee in pips per direction (ProtocolFeeLibrary: at most 1000 each), set through the fee controller. */
  readonly protocolFee?: { readonly zeroForOne: number; readonly oneForZero: number };
}

/** A staircase of 24 adjacent 10-tick ranges around the price (on top of the stable ranges): swaps cross dozens of ticks. */
const STAIRS: readonly TickOffsets[] = Array.from({ length: 24 }, (_, k): TickOffsets => [(k - 12) * 10, (k - 11) * 10]);

/** v4 pools, in creation order. */
export const DEVNET_V4_POOLS: readonly DevnetV4PoolSpec[] = [
  // Native ETH / USDC, the pair most v4 volume trades.
  { a: 'ETH', b: 'USDC', fee: 500, tickSpacing: 10, usdPerPosition: 800_000n, positions: DEVNET_VOLATILE_POSITIONS },
  // The WETH pool beside it, with a protocol fee that differs per direction.
  {
    a: 'WETH',
    b: 'USDC',
    fee: 3000,
    tickSpacing: 60,
    usdPerPosition: 300_000n,
    positions: DEVNET_VOLATILE_POSITIONS,
    protocolFee: { zeroForOne: 1000, oneForZero: 250 },
  },
  // Stable pairs with tick spacing 1: one at 0.01%, one without any fee.
  { a: 'USDC', b: 'USDT', fee: 100, tickSpacing: 1, usdPerPosition: 500_000n, positions: DEVNET_STABLE_POSITIONS },
  {
    a: 'DAI',
    b: 'USDC',
    fee: 0,
    tickSpacing: 1,
    usdPerPosition: 200_000n,
    positions: [...DEVNET_STABLE_POSITIONS, ...STAIRS],
  },
  // Wide spacing, 1% fee.
  { a: 'ETH', b: 'WBTC', fee: 10_000, tickSpacing: 200, usdPerPosition: 200_000n, positions: DEVNET_VOLATILE_POSITIONS },
  // A high fee (10%) on a spacing not tied to it.
  { a: 'ETH', b: 'USDT', fee: 100_000, tickSpacing: 60, usdPerPosition: 100_000n, positions: DEVNET_VOLATILE_POSITIONS },
  // Pools the service must refuse: a hook with swap permissions, and a dynamic fee (0.3% set by the hook).
  { a: 'ETH', b: 'USDC', fee: 3000, tickSpacing: 60, usdPerPosition: 100_000n, positions: DEVNET_VOLATILE_POSITIONS, hook: 'swap' },
  {
    a: 'WBTC',
    b: 'USDC',
    fee: 3000,
    tickSpacing: 60,
    usdPerPosition: 100_000n,
    positions: DEVNET_VOLATILE_POSITIONS,
    hook: 'dynamicFee',
  },
  // The highest fee v4 allows (100%): exact input pays everything as fee, exact output reverts (InvalidFeeForExactOut).
  { a: 'DAI', b: 'USDT', fee: 1_000_000, tickSpacing: 10, usdPerPosition: 10_000n, positions: DEVNET_STABLE_POSITIONS.slice(0, 3) },
  // A dynamic fee (0.3% at first) its hook's owner changes without an event: priced when the hook is listed, re-read each block.
  {
    a: 'WBTC',
    b: 'DAI',
    fee: 3000,
    tickSpacing: 60,
    usdPerPosition: 100_000n,
    positions: DEVNET_VOLATILE_POSITIONS,
    hook: 'ownerFee',
  },
];
