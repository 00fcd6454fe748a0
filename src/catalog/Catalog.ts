// The catalogue as the service holds it: chains, tokens, DEX deployments, bridges, and the lookups over them
// (loadCatalog.ts reads and checks the files it is built from).

/** The address that stands for a chain's native asset (ETH, BNB, POL, AVAX) wherever a token address is expected. */
export const NATIVE_TOKEN_ADDRESS = '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE';

/** A DEX deployment as DEX filters, routers and pools name it: `slug/version`, e.g. `uniswap/v3`. */
export type DeploymentId = `${string}/${string}`;

/** The id of the deployment of a DEX slug and version (a catalogue DEX, a pool's or a leg's dex and version). */
export function deploymentId(slug: string, version: string): DeploymentId {
  return `${slug}/${version}`;
}

export type Ecosystem = 'evm' | 'tvm' | 'svm';

/** A token as the API returns it (SPEC section 2, Token). */
export interface CatalogToken {
  readonly address: string;
  readonly symbol: string;
  readonly name: string;
  readonly slug: string;
  readonly decimals: number;
  readonly logo: string;
  readonly blockchainId: number;
  /**
   * Extension, present (true) only on tokens whose approve() reverts while the allowance is not zero (Tether USD on
   * Ethereum): their approval steps set the allowance to 0 first (src/tx/approveStep.ts).
   */
  readonly approvalReset?: true;
}

/** A DEX deployment on one chain (SPEC section 2, DEX), with the data pricing needs. Absent addresses are ''. */
export interface CatalogDex {
  readonly chainId: number;
  readonly name: string;
  readonly slug: string;
  readonly version: 'v2' | 'v3' | 'v4' | 'balancerV2';
  readonly logo: string;
  readonly v2FactoryAddress: string;
  readonly v2RouterAddress: string;
  readonly v3FactoryAddress: string;
  readonly v3RouterAddress: string;
  /** ABI of v3RouterAddress: Uniswap's SwapRouter or SwapRouter02, or PancakeSwap's SmartRouter (docs/pancakeswap-v3.md). */
  readonly v3RouterKind: 'SwapRouter' | 'SwapRouter02' | 'PancakeSmartRouter' | '';
  /**
   * A router that swaps v2 pairs too (swapsV2Pairs: SwapRouter02, PancakeSwap's SmartRouter) only: the v2 factory it
   * was deployed with (its pairs can be swapped through it); '' otherwise.
   */
  readonly v3RouterV2FactoryAddress: string;
  readonly v3QuoterAddress: string;
  /** v4: the PoolManager singleton that holds every pool (its Initialize logs find them). */
  readonly v4PoolManagerAddress: string;
  /** v4: the StateView lens over the PoolManager's storage. */
  readonly v4StateViewAddress: string;
  /** v4: V4Quoter (the on-chain oracle of v4 swaps). */
  readonly v4QuoterAddress: string;
  /** v4: PositionManager (liquidity positions; the devnet mints through it). */
  readonly v4PositionManagerAddress: string;
  /**
   * v4: the hooks contracts (checksummed) whose pools may be priced besides hookless ones; empty by default. A listed
   * hook without beforeSwap also admits its dynamic-fee pools, re-read at every block (v4Fees.ts, v4Refusal).
   */
  readonly allowedHooks: readonly string[];
  readonly universalRouterAddress: string;
  /**
   * v4 only: the v2 and v3 factories the Universal Router was deployed with (its constructor's v2Factory and
   * v3Factory); the v2 and v3 DEX entries with these factories can then be swapped through it with the v4 pools, in
   * one path. '' when not stated.
   */
  readonly universalRouterV2FactoryAddress: string;
  readonly universalRouterV3FactoryAddress: string;
  readonly permit2Address: string;
  readonly settlementAddress: string;
  /** v2 swap fee in basis points; 0 for v3. */
  readonly feeBps: number;
  readonly pairInitCodeHash: string;
  readonly poolInitCodeHash: string;
  /**
   * v3 forks whose pools a separate deployer creates (PancakeSwap v3's PancakeV3PoolDeployer): the address pools are
   * CREATE2'd from, with poolInitCodeHash; '' when the factory deploys them itself (Uniswap v3).
   */
  readonly v3PoolDeployerAddress: string;
  /** v3 fee tiers in pips; empty for v2. */
  readonly feeTiers: readonly number[];
  /**
   * The block the factory was deployed in (or any earlier one): seeding scans its creation logs from here (v4: the
   * PoolManager's; balancerV2: the Vault's, from the earliest listed pool factory's deployment, before which none of
   * their pools registered). Absent: unknown, and its pools are found by pair lookups (catalogue tokens x base tokens).
   */
  readonly factoryDeploymentBlock?: number;
  /**
   * balancerV2: the Vault that holds every pool's tokens (its TokensRegistered logs find the pools) and executes their
   * swaps (`swap` / `batchSwap`).
   */
  readonly balancerVaultAddress: string;
  /** balancerV2: BalancerQueries (querySwap / queryBatchSwap, the on-chain oracle of Vault swaps). */
  readonly balancerQueriesAddress: string;
  /** balancerV2: the WeightedPoolFactory (v3, February 2023) deployments whose pools are priced as weighted. */
  readonly balancerWeightedPoolFactories: readonly string[];
  /** balancerV2: the ComposableStablePoolFactory (v3, February 2023) deployments whose pools are priced as stable. */
  readonly balancerStablePoolFactories: readonly string[];
}

/**
 * Whether a v3 router kind also swaps v2 pairs (its factoryV2(), alone or mixed with v3 pools in one call):
 * Uniswap's SwapRouter02 and PancakeSwap's SmartRouter (ImmutableState), not the original SwapRouter.
 */
export function swapsV2Pairs(kind: CatalogDex['v3RouterKind']): kind is 'SwapRouter02' | 'PancakeSmartRouter' {
  return kind === 'SwapRouter02' || kind === 'PancakeSmartRouter';
}

/**
 * Fee terms of a bridge asset as configured (catalog/chain.schema.json `bridgeFeeTerms`); every field optional.
 * Amounts are display-unit decimal strings of the asset. Resolved by src/bridge/bridgeFee.ts `resolveBridgeFeeTerms`.
 */
export interface BridgeFeeTermsConfig {
  readonly feeBps?: number;
  readonly fixedFee?: string;
  readonly minAmount?: string;
  readonly maxAmount?: string;
  readonly fillTimeSeconds?: number;
}

/** One asset a bridge carries from/to this chain. */
export interface CatalogBridgeAsset extends BridgeFeeTermsConfig {
  /** Shared asset key (USDC, ETH, ...): the same key on two chains is the same asset. */
  readonly asset: string;
  /** The ERC-20 deposited and filled on this chain (checksummed; a token of this chain). */
  readonly token: string;
  /** Overrides per destination chain id. */
  readonly destinations: Readonly<Record<string, BridgeFeeTermsConfig>>;
}

/** A bridge deployment on one chain (catalogue `bridges[]`). */
export interface CatalogBridge {
  readonly chainId: number;
  readonly protocol: 'across';
  /** The bridge deployment ('mainnet', 'devnet'): chains connect only within one network. */
  readonly network: string;
  readonly name: string;
  readonly slug: string;
  readonly logo: string;
  /** The SpokePool proxy (checksummed). */
  readonly spokePoolAddress: string;
  /** depositNow's fillDeadlineOffset in seconds (default 10800). */
  readonly fillDeadlineOffsetSeconds: number;
  /** Unit-free defaults for every asset. */
  readonly defaults: Readonly<Pick<BridgeFeeTermsConfig, 'feeBps' | 'fillTimeSeconds'>>;
  /** Sorted by asset key. */
  readonly assets: readonly CatalogBridgeAsset[];
}

/** Default depositNow fillDeadlineOffset when a bridge entry names none: three hours. */
export const DEFAULT_FILL_DEADLINE_OFFSET_SECONDS = 10_800;

/** One chain of the catalogue. */
export interface CatalogChain {
  readonly name: string;
  readonly slug: string;
  readonly chainId: number;
  readonly symbol: string;
  readonly nativeToken: string;
  readonly ecosystem: Ecosystem;
  readonly blockExplorer: string;
  readonly blockChainLogo: string;
  readonly wrappedNativeToken: string;
  readonly multicall3Address: string;
  /** Base tokens (checksummed, in the file's order): intermediate hops routing tries first. */
  readonly baseTokens: readonly string[];
  /** Pairs (checksummed, file order) whose pools the seeding run discovers besides the base-token pairs. */
  readonly pairs: readonly (readonly [string, string])[];
  /** Sorted by symbol, then address. */
  readonly tokens: readonly CatalogToken[];
  /** Sorted by slug, then version. */
  readonly dexes: readonly CatalogDex[];
  /** Sorted by slug. */
  readonly bridges: readonly CatalogBridge[];
  /** The catalogue file it came from (for messages). */
  readonly file: string;
}

/** Raised at start-up when a catalogue file is unreadable or breaks the schema. */
export class CatalogError extends Error {
  override readonly name = 'CatalogError';
}

/** The loaded, validated catalogue with its lookups. Immutable. */
export class Catalog {
  /** Sorted by chain id. */
  readonly chains: readonly CatalogChain[];
  private readonly byId = new Map<number, CatalogChain>();
  private readonly bySlug = new Map<string, CatalogChain>();
  private readonly tokensByChain = new Map<number, Map<string, CatalogToken>>();
  /** Per chain: symbol in upper case -> the tokens with that symbol in any letter case, in catalogue order. */
  private readonly symbolsByChain = new Map<number, Map<string, CatalogToken[]>>();

  constructor(chains: readonly CatalogChain[]) {
    this.chains = [...chains].sort((a, b) => a.chainId - b.chainId);
    for (const chain of this.chains) {
      const clash = this.byId.get(chain.chainId) ?? this.bySlug.get(chain.slug);
      if (clash) throw new CatalogError(`${chain.file}: chainId ${chain.chainId} / slug "${chain.slug}" already defined by ${clash.file}`);
      this.byId.set(chain.chainId, chain);
      this.bySlug.set(chain.slug, chain);
      const tokens = new Map<string, CatalogToken>();
      const symbols = new Map<string, CatalogToken[]>();
      for (const token of chain.tokens) {
        const key = tokenKey(chain.ecosystem, token.address);
        if (tokens.has(key)) throw new CatalogError(`${chain.file}: token ${token.address} listed twice`);
        tokens.set(key, token);
        const symbol = token.symbol.toUpperCase();
        const named = symbols.get(symbol);
        if (named) named.push(token);
        else symbols.set(symbol, [token]);
      }
      this.tokensByChain.set(chain.chainId, tokens);
      this.symbolsByChain.set(chain.chainId, symbols);
    }
  }

  /** The chain with this id or slug. */
  chain(idOrSlug: number | string): CatalogChain | undefined {
    return typeof idOrSlug === 'number' ? this.byId.get(idOrSlug) : this.bySlug.get(idOrSlug);
  }

  /** A chain's token by address, in any letter case (EVM). */
  token(chainId: number, address: string): CatalogToken | undefined {
    const chain = this.byId.get(chainId);
    if (!chain) return undefined;
    return this.tokensByChain.get(chainId)?.get(tokenKey(chain.ecosystem, address));
  }

  /**
   * The tokens a symbol names on a chain, compared in any letter case ("usdc" is USDC): one token when the symbol
   * resolves, several when it is ambiguous (every token whose symbol matches, in catalogue order), none when unknown.
   * The chain's native asset (NATIVE_TOKEN_ADDRESS, e.g. "ETH") wins over any ERC-20 with the same symbol.
   */
  tokensBySymbol(chainId: number, symbol: string): readonly CatalogToken[] {
    const tokens = this.symbolsByChain.get(chainId)?.get(symbol.toUpperCase()) ?? [];
    const native = tokens.length > 1 ? tokens.find((t) => t.address.toLowerCase() === NATIVE_TOKEN_ADDRESS.toLowerCase()) : undefined;
    return native ? [native] : tokens;
  }

  /** Every token of every chain, in chain order. */
  allTokens(): CatalogToken[] {
    return this.chains.flatMap((chain) => chain.tokens);
  }

  /** Every DEX deployment, in chain order. */
  allDexes(): CatalogDex[] {
    return this.chains.flatMap((chain) => chain.dexes);
  }
}

function tokenKey(ecosystem: Ecosystem, address: string): string {
  return ecosystem === 'evm' ? address.toLowerCase() : address;
}
