import { devnetAcrossBridge } from './deployAcross.ts';
import { balancerDevnetAddresses } from './deployBalancer.ts';
import { v4DevnetAddresses } from './deployUniswapV4.ts';
import { devnetAddresses, NATIVE_TOKEN_ADDRESS } from './devnetAddresses.ts';
import { PERMIT2_ADDRESS } from './devnetPermit2.ts';
import { DEVNET_FEE_TIERS, DEVNET_TOKENS, type DevnetTokenSymbol } from './devnetPlan.ts';

const TOKEN_SLUGS: Record<DevnetTokenSymbol, string> = {
  WETH: 'weth',
  USDC: 'usd-coin',
  USDT: 'tether',
  WBTC: 'wrapped-bitcoin',
  DAI: 'dai',
  UNI: 'uniswap',
  LINK: 'chainlink',
  AAVE: 'aave',
};

/** A devnet's factories are deployed after its genesis block: their creation logs are scanned from block 0. */
const GENESIS = 0;

/**
 * The catalogue file of a devnet instance (catalog/devnet.json or catalog/devnet-b.json), built from the deterministic
 * addresses. `v4`: the devnet has Uniswap v4 and Balancer v2 (startDevnet({ v4: true, balancer: true }), as
 * `npm run devnet` starts it), so the file lists their entries; by default the first devnet has them and devnet-b does not.
 */
export function devnetCatalog(variant: 'devnet' | 'devnet-b', options: { readonly v4?: boolean } = {}): Record<string, unknown> {
  const a = devnetAddresses();
  const c = a.contracts;
  const b = variant === 'devnet-b';
  const v4 = options.v4 ?? !b;
  return {
    $schema: './chain.schema.json',
    name: b ? 'Devnet B' : 'Devnet',
    slug: variant,
    chainId: b ? 31338 : 31337,
    symbol: 'ETH',
    nativeToken: 'Ether',
    ecosystem: 'evm',
    blockExplorer: 'http://localhost',
    blockChainLogo: '',
    wrappedNativeToken: a.tokens.WETH,
    multicall3Address: a.multicall3,
    baseTokens: (['WETH', 'USDC', 'USDT', 'DAI', 'WBTC'] as const).map((symbol) => a.tokens[symbol]),
    // AAVE's only pair is against LINK, neither a base token: discovered as an explicit pair.
    pairs: [[a.tokens.AAVE, a.tokens.LINK]],
    tokens: [
      { address: NATIVE_TOKEN_ADDRESS, symbol: 'ETH', name: 'Ether', slug: 'ethereum', decimals: 18, logo: '' },
      ...DEVNET_TOKENS.map((t) => ({
        address: a.tokens[t.symbol],
        symbol: t.symbol,
        name: t.name,
        slug: TOKEN_SLUGS[t.symbol],
        decimals: t.decimals,
        logo: '',
      })),
    ],
    dexes: [
      {
        name: 'Uniswap V2',
        slug: 'uniswap',
        version: 'v2',
        logo: '',
        v2FactoryAddress: c.uniswapV2Factory,
        v2RouterAddress: c.uniswapV2Router02,
        feeBps: 30,
        pairInitCodeHash: a.pairInitCodeHash,
        factoryDeploymentBlock: GENESIS,
      },
      {
        name: 'SushiSwap V2',
        slug: 'sushiswap',
        version: 'v2',
        logo: '',
        v2FactoryAddress: c.sushiswapV2Factory,
        v2RouterAddress: c.sushiswapV2Router02,
        feeBps: 30,
        pairInitCodeHash: a.pairInitCodeHash,
        factoryDeploymentBlock: GENESIS,
      },
      {
        name: 'Uniswap V3',
        slug: 'uniswap',
        version: 'v3',
        logo: '',
        v3FactoryAddress: c.uniswapV3Factory,
        v3RouterAddress: b ? c.swapRouter : c.swapRouter02,
        v3RouterKind: b ? 'SwapRouter' : 'SwapRouter02',
        // SwapRouter02 was deployed with the Uniswap V2 factory: it swaps through those pairs too.
        ...(b ? {} : { v3RouterV2FactoryAddress: c.uniswapV2Factory }),
        v3QuoterAddress: c.quoterV2,
        poolInitCodeHash: a.poolInitCodeHash,
        feeTiers: [...DEVNET_FEE_TIERS.keys()],
        factoryDeploymentBlock: GENESIS,
      },
      ...(v4 ? [devnetV4Dex()] : []),
      ...(v4 ? [devnetBalancerDex()] : []),
    ],
    bridges: [devnetAcrossBridge(variant)],
  };
}

/** The devnet's Uniswap v4 entry (seeds/devnet/deployUniswapV4.ts): its UniversalRouter was deployed with the Uniswap V2 and V3 factories. */
function devnetV4Dex(): Record<string, unknown> {
  const c = devnetAddresses().contracts;
  const v4 = v4DevnetAddresses().contracts;
  return {
    name: 'Uniswap V4',
    slug: 'uniswap',
    version: 'v4',
    logo: '',
    v4PoolManagerAddress: v4.poolManager,
    v4StateViewAddress: v4.stateView,
    v4QuoterAddress: v4.v4Quoter,
    v4PositionManagerAddress: v4.positionManager,
    universalRouterAddress: v4.universalRouter,
    universalRouterV2FactoryAddress: c.uniswapV2Factory,
    universalRouterV3FactoryAddress: c.uniswapV3Factory,
    permit2Address: PERMIT2_ADDRESS,
    allowedHooks: [],
    factoryDeploymentBlock: GENESIS,
  };
}

/**
 * The devnet's Balancer v2 entry (seeds/devnet/deployBalancer.ts; `npm run devnet` deploys it beside v4): its Vault,
 * BalancerQueries and the two pool factories whose pools are priced.
 */
function devnetBalancerDex(): Record<string, unknown> {
  const c = balancerDevnetAddresses().contracts;
  return {
    name: 'Balancer V2',
    slug: 'balancer',
    version: 'balancerV2',
    logo: '',
    balancerVaultAddress: c.vault,
    balancerQueriesAddress: c.balancerQueries,
    balancerWeightedPoolFactories: [c.weightedPoolFactory],
    balancerStablePoolFactories: [c.composableStablePoolFactory],
    factoryDeploymentBlock: GENESIS,
  };
}
