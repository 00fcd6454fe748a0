import { devnetAcrossBridge } from './deployAcross.ts';
import { devnetAddresses, NATIVE_TOKEN_ADDRESS } from './devnetAddresses.ts';
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

/** The catalogue file of a devnet instance (catalog/devnet.json or catalog/devnet-b.json), built from the deterministic addresses. */
export function devnetCatalog(variant: 'devnet' | 'devnet-b'): Record<string, unknown> {
  const a = devnetAddresses();
  const c = a.contracts;
  const b = variant === 'devnet-b';
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
    ],
    bridges: [devnetAcrossBridge(variant)],
  };
}
