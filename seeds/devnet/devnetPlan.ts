/**
 * What the devnet deploys, in a fixed order: tokens, prices, v2 pairs and v3 pools with their positions.
 * Prices are in micro-USD (1 USD = 1_000_000) so amounts stay integers.
 */

export type DevnetTokenSymbol = 'WETH' | 'USDC' | 'USDT' | 'WBTC' | 'DAI' | 'UNI';

export interface DevnetTokenSpec {
  readonly symbol: DevnetTokenSymbol;
  readonly name: string;
  readonly decimals: number;
  /** Price of one whole token in micro-USD, used to size liquidity and set initial pool prices. */
  readonly priceMicroUsd: bigint;
}

/** Tokens in deployment order (WETH is WETH9; the others are MintableERC20). UNI has no pool anywhere. */
export const DEVNET_TOKENS: readonly DevnetTokenSpec[] = [
  { symbol: 'WETH', name: 'Wrapped Ether', decimals: 18, priceMicroUsd: 3_000_000_000n },
  { symbol: 'USDC', name: 'USD Coin', decimals: 6, priceMicroUsd: 1_000_000n },
  { symbol: 'USDT', name: 'Tether USD', decimals: 6, priceMicroUsd: 1_000_000n },
  { symbol: 'WBTC', name: 'Wrapped BTC', decimals: 8, priceMicroUsd: 60_000_000_000n },
  { symbol: 'DAI', name: 'Dai Stablecoin', decimals: 18, priceMicroUsd: 1_000_000n },
  { symbol: 'UNI', name: 'Uniswap', decimals: 18, priceMicroUsd: 10_000_000n },
];

export type DevnetV2Dex = 'uniswap' | 'sushiswap';

export interface DevnetV2PairSpec {
  readonly dex: DevnetV2Dex;
  readonly a: DevnetTokenSymbol;
  readonly b: DevnetTokenSymbol;
  /** USD value deposited on each side. */
  readonly usdPerSide: bigint;
  /** Price of `a` in micro-USD on this pair, when it differs from the token's reference price. */
  readonly aPriceMicroUsd?: bigint;
}

/** v2 pairs, created through each DEX's UniswapV2Router02.addLiquidity. */
export const DEVNET_V2_PAIRS: readonly DevnetV2PairSpec[] = [
  { dex: 'uniswap', a: 'WETH', b: 'USDC', usdPerSide: 3_000_000n },
  { dex: 'uniswap', a: 'WETH', b: 'USDT', usdPerSide: 1_500_000n },
  { dex: 'uniswap', a: 'WBTC', b: 'WETH', usdPerSide: 600_000n },
  { dex: 'uniswap', a: 'WETH', b: 'DAI', usdPerSide: 900_000n },
  { dex: 'uniswap', a: 'USDC', b: 'USDT', usdPerSide: 1_000_000n },
  { dex: 'uniswap', a: 'WBTC', b: 'USDC', usdPerSide: 1_200_000n },
  { dex: 'sushiswap', a: 'WETH', b: 'USDC', usdPerSide: 900_000n, aPriceMicroUsd: 3_010_000_000n },
  { dex: 'sushiswap', a: 'WETH', b: 'DAI', usdPerSide: 400_000n, aPriceMicroUsd: 2_995_000_000n },
  { dex: 'sushiswap', a: 'USDC', b: 'DAI', usdPerSide: 500_000n },
];

/** A position as tick offsets from the pool's initial tick (rounded outwards to the tick spacing). */
export type TickOffsets = readonly [lower: number, upper: number];

/** Volatile pairs: nested ranges of ~±6% to ~±20x, skewed ranges, and single-sided ranges above and below the price. */
const VOLATILE: readonly TickOffsets[] = [
  [-600, 600],
  [-2_000, 2_000],
  [-6_000, 6_000],
  [-12_000, 12_000],
  [-30_000, 30_000],
  [300, 3_000],
  [-3_000, -300],
  [-1_200, 200],
  [-200, 1_200],
  [-9_000, -4_000],
  [4_000, 9_000],
];

/** Stable pairs (tick spacing 1): ranges of ±5 ticks to ±2000 ticks, skewed ranges, and single-sided ranges. */
const STABLE: readonly TickOffsets[] = [
  [-5, 5],
  [-20, 20],
  [-100, 100],
  [-500, 500],
  [-2_000, 2_000],
  [10, 300],
  [-300, -10],
  [-50, 8],
  [-8, 50],
  [-1_000, -400],
  [400, 1_000],
];

export interface DevnetV3PoolSpec {
  readonly a: DevnetTokenSymbol;
  readonly b: DevnetTokenSymbol;
  /** Fee in pips (hundredths of a bip). */
  readonly fee: 100 | 500 | 3000 | 10000;
  /** USD value offered per position (half per token; single-sided positions take only one side). */
  readonly usdPerPosition: bigint;
  readonly positions: readonly TickOffsets[];
}

/** v3 pools, created and initialised through the NonfungiblePositionManager, then minted into. */
export const DEVNET_V3_POOLS: readonly DevnetV3PoolSpec[] = [
  { a: 'USDC', b: 'USDT', fee: 100, usdPerPosition: 1_000_000n, positions: STABLE },
  { a: 'DAI', b: 'USDC', fee: 100, usdPerPosition: 500_000n, positions: STABLE },
  { a: 'WETH', b: 'USDC', fee: 500, usdPerPosition: 1_000_000n, positions: VOLATILE },
  { a: 'WETH', b: 'USDC', fee: 3000, usdPerPosition: 300_000n, positions: VOLATILE },
  { a: 'WETH', b: 'USDT', fee: 3000, usdPerPosition: 200_000n, positions: VOLATILE },
  { a: 'WBTC', b: 'WETH', fee: 3000, usdPerPosition: 500_000n, positions: VOLATILE },
  { a: 'WBTC', b: 'USDC', fee: 500, usdPerPosition: 300_000n, positions: VOLATILE },
  { a: 'WETH', b: 'DAI', fee: 10000, usdPerPosition: 100_000n, positions: VOLATILE },
  { a: 'WBTC', b: 'USDC', fee: 10000, usdPerPosition: 50_000n, positions: VOLATILE },
];

/** Fee tiers the devnet's UniswapV3Factory has enabled, with their tick spacings (100 is enabled by the deployment). */
export const DEVNET_FEE_TIERS: ReadonlyMap<number, number> = new Map([
  [100, 1],
  [500, 10],
  [3000, 60],
  [10000, 200],
]);
