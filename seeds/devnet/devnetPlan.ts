/**
 * What the devnet deploys, in a fixed order: tokens, prices, v2 pairs and v3 pools with their positions.
 * Prices are in micro-USD (1 USD = 1_000_000) so amounts stay integers.
 */

export type DevnetTokenSymbol = 'WETH' | 'USDC' | 'USDT' | 'WBTC' | 'DAI' | 'UNI' | 'LINK' | 'AAVE';

/**
 * Deployment phase of a token or pool. 'base': the original devnet. 'routing': what was added so that routing
 * matters (LINK reachable only through two hops, AAVE only through three, a mixed v2 -> v3 path); it is deployed
 * after everything of 'base' (its token contracts by a second account, seeds/devnet/devnetAddresses.ts), so no
 * address, nonce or pool state of 'base' changes.
 */
export type DevnetPhase = 'base' | 'routing';

export interface DevnetTokenSpec {
  readonly phase: DevnetPhase;
  readonly symbol: DevnetTokenSymbol;
  readonly name: string;
  readonly decimals: number;
  /** Price of one whole token in micro-USD, used to size liquidity and set initial pool prices. */
  readonly priceMicroUsd: bigint;
}

/**
 * Tokens in deployment order (WETH is WETH9; the others are MintableERC20). UNI has no pool anywhere; LINK has
 * only a LINK/WETH v3 pool and AAVE only an AAVE/LINK v2 pair.
 */
export const DEVNET_TOKENS: readonly DevnetTokenSpec[] = [
  { phase: 'base', symbol: 'WETH', name: 'Wrapped Ether', decimals: 18, priceMicroUsd: 3_000_000_000n },
  { phase: 'base', symbol: 'USDC', name: 'USD Coin', decimals: 6, priceMicroUsd: 1_000_000n },
  { phase: 'base', symbol: 'USDT', name: 'Tether USD', decimals: 6, priceMicroUsd: 1_000_000n },
  { phase: 'base', symbol: 'WBTC', name: 'Wrapped BTC', decimals: 8, priceMicroUsd: 60_000_000_000n },
  { phase: 'base', symbol: 'DAI', name: 'Dai Stablecoin', decimals: 18, priceMicroUsd: 1_000_000n },
  { phase: 'base', symbol: 'UNI', name: 'Uniswap', decimals: 18, priceMicroUsd: 10_000_000n },
  { phase: 'routing', symbol: 'LINK', name: 'ChainLink Token', decimals: 18, priceMicroUsd: 15_000_000n },
  { phase: 'routing', symbol: 'AAVE', name: 'Aave Token', decimals: 18, priceMicroUsd: 100_000_000n },
];

export type DevnetV2Dex = 'uniswap' | 'sushiswap';

export interface DevnetV2PairSpec {
  readonly phase: DevnetPhase;
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
  { phase: 'base', dex: 'uniswap', a: 'WETH', b: 'USDC', usdPerSide: 3_000_000n },
  { phase: 'base', dex: 'uniswap', a: 'WETH', b: 'USDT', usdPerSide: 1_500_000n },
  { phase: 'base', dex: 'uniswap', a: 'WBTC', b: 'WETH', usdPerSide: 600_000n },
  { phase: 'base', dex: 'uniswap', a: 'WETH', b: 'DAI', usdPerSide: 900_000n },
  { phase: 'base', dex: 'uniswap', a: 'USDC', b: 'USDT', usdPerSide: 1_000_000n },
  { phase: 'base', dex: 'uniswap', a: 'WBTC', b: 'USDC', usdPerSide: 1_200_000n },
  { phase: 'base', dex: 'sushiswap', a: 'WETH', b: 'USDC', usdPerSide: 900_000n, aPriceMicroUsd: 3_010_000_000n },
  { phase: 'base', dex: 'sushiswap', a: 'WETH', b: 'DAI', usdPerSide: 400_000n, aPriceMicroUsd: 2_995_000_000n },
  { phase: 'base', dex: 'sushiswap', a: 'USDC', b: 'DAI', usdPerSide: 500_000n },
  // AAVE's only pool: AAVE -> USDC takes three hops (AAVE -> LINK -> WETH -> USDC), the first on v2, the next on v3.
  { phase: 'routing', dex: 'uniswap', a: 'AAVE', b: 'LINK', usdPerSide: 500_000n },
];

/** A position as tick offsets from the pool's initial tick (rounded outwards to the tick spacing). */
export type TickOffsets = readonly [lower: number, upper: number];

/** Volatile pairs: nested ranges of ~±6% to ~±20x, skewed ranges, and single-sided ranges above and below the price. */
export const DEVNET_VOLATILE_POSITIONS: readonly TickOffsets[] = [
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
export const DEVNET_STABLE_POSITIONS: readonly TickOffsets[] = [
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
  readonly phase: DevnetPhase;
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
  { phase: 'base', a: 'USDC', b: 'USDT', fee: 100, usdPerPosition: 1_000_000n, positions: DEVNET_STABLE_POSITIONS },
  { phase: 'base', a: 'DAI', b: 'USDC', fee: 100, usdPerPosition: 500_000n, positions: DEVNET_STABLE_POSITIONS },
  { phase: 'base', a: 'WETH', b: 'USDC', fee: 500, usdPerPosition: 1_000_000n, positions: DEVNET_VOLATILE_POSITIONS },
  { phase: 'base', a: 'WETH', b: 'USDC', fee: 3000, usdPerPosition: 300_000n, positions: DEVNET_VOLATILE_POSITIONS },
  { phase: 'base', a: 'WETH', b: 'USDT', fee: 3000, usdPerPosition: 200_000n, positions: DEVNET_VOLATILE_POSITIONS },
  { phase: 'base', a: 'WBTC', b: 'WETH', fee: 3000, usdPerPosition: 500_000n, positions: DEVNET_VOLATILE_POSITIONS },
  { phase: 'base', a: 'WBTC', b: 'USDC', fee: 500, usdPerPosition: 300_000n, positions: DEVNET_VOLATILE_POSITIONS },
  { phase: 'base', a: 'WETH', b: 'DAI', fee: 10000, usdPerPosition: 100_000n, positions: DEVNET_VOLATILE_POSITIONS },
  { phase: 'base', a: 'WBTC', b: 'USDC', fee: 10000, usdPerPosition: 50_000n, positions: DEVNET_VOLATILE_POSITIONS },
  // LINK's only pool: LINK -> USDC takes two hops (LINK -> WETH -> USDC).
  { phase: 'routing', a: 'LINK', b: 'WETH', fee: 3000, usdPerPosition: 200_000n, positions: DEVNET_VOLATILE_POSITIONS },
];

/** Fee tiers the devnet's UniswapV3Factory has enabled, with their tick spacings (100 is enabled by the deployment). */
export const DEVNET_FEE_TIERS: ReadonlyMap<number, number> = new Map([
  [100, 1],
  [500, 10],
  [3000, 60],
  [10000, 200],
]);
