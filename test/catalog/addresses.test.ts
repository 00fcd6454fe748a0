// Cross-checks the production catalogue (catalog/<chain>.json) against independent oracles:
// - every catalog/*.json validates against catalog/chain.schema.json (ajv);
// - Uniswap v2/v3/v4 addresses against the address maps of @uniswap/sdk-core, init code hashes against
//   @uniswap/v2-sdk / @uniswap/v3-sdk and against keccak256 of the pair/pool creation code shipped in
//   @uniswap/v2-core / @uniswap/v3-core, Permit2 against @across-protocol/contracts;
// - chain fields (native symbol and name, explorer, Multicall3) against viem's chain definitions (EVM)
//   and @across-protocol/constants PUBLIC_NETWORKS (TRON, Solana);
// - address formats: EVM addresses are EIP-55 checksummed, TRON addresses pass base58check, Solana
//   addresses decode to 32 bytes;
// - Balancer v2 entries (Vault, BalancerQueries, WeightedPoolFactory and ComposableStablePoolFactory v3) against the
//   task outputs of @balancer-labs/v2-deployments, and each chain where that package deploys them lists them.
// Addresses no package knows are listed with t.comment, and where Uniswap's own documentation is the
// only source, it is transcribed below with its URL.

import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { Ajv } from 'ajv';
import t from 'tap';
import { type Chain, getAddress, keccak256 } from 'viem';
import { arbitrum, avalanche, base, bsc, mainnet, optimism, polygon } from 'viem/chains';
import { resolveArtifact } from '../../seeds/devnet/artifacts.ts';

const require = createRequire(import.meta.url);
const CATALOG_DIR = join(import.meta.dirname, '..', '..', 'catalog');

// ---------- the catalogue under test ----------

interface Token {
  address: string;
  symbol: string;
  name: string;
  slug: string;
  decimals: number;
  logo: string;
}
interface Dex {
  name: string;
  slug: string;
  version: 'v2' | 'v3' | 'v4' | 'balancerV2';
  balancerVaultAddress?: string;
  balancerQueriesAddress?: string;
  balancerWeightedPoolFactories?: string[];
  balancerStablePoolFactories?: string[];
  v2FactoryAddress?: string;
  v2RouterAddress?: string;
  v3FactoryAddress?: string;
  v3RouterAddress?: string;
  v3RouterKind?: 'SwapRouter' | 'SwapRouter02' | 'PancakeSmartRouter';
  v3PoolDeployerAddress?: string;
  v3QuoterAddress?: string;
  v4PoolManagerAddress?: string;
  v4StateViewAddress?: string;
  v4QuoterAddress?: string;
  v4PositionManagerAddress?: string;
  allowedHooks?: string[];
  universalRouterAddress?: string;
  universalRouterV2FactoryAddress?: string;
  universalRouterV3FactoryAddress?: string;
  permit2Address?: string;
  settlementAddress?: string;
  feeBps?: number;
  factoryDeploymentBlock?: number;
  pairInitCodeHash?: string;
  poolInitCodeHash?: string;
  feeTiers?: number[];
}
interface ChainFile {
  name: string;
  slug: string;
  chainId: number;
  symbol: string;
  nativeToken: string;
  ecosystem: 'evm' | 'tvm' | 'svm';
  blockExplorer: string;
  blockChainLogo: string;
  wrappedNativeToken?: string;
  multicall3Address?: string;
  tokens: Token[];
  dexes: Dex[];
}

/** The production chain files this test covers (devnet files belong to the devnet tests). */
const PRODUCTION_FILES = ['ethereum', 'optimism', 'bnb', 'polygon', 'base', 'arbitrum', 'avalanche', 'tron', 'solana'];
const readChain = (file: string): ChainFile => JSON.parse(readFileSync(join(CATALOG_DIR, `${file}.json`), 'utf8')) as ChainFile;
const chains = PRODUCTION_FILES.map((file) => ({ file, chain: readChain(file) }));
const evmChains = chains.filter(({ chain }) => chain.ecosystem === 'evm');

const NATIVE = '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE';
const eq = (a: string | undefined, b: string | undefined): boolean => (a ?? '').toLowerCase() === (b ?? '').toLowerCase();

// ---------- oracles ----------

interface SdkCore {
  V2_FACTORY_ADDRESSES: Record<number, string>;
  V2_ROUTER_ADDRESSES: Record<number, string>;
  V3_CORE_FACTORY_ADDRESSES: Record<number, string>;
  QUOTER_ADDRESSES: Record<number, string>;
  SWAP_ROUTER_02_ADDRESSES: (chainId: number) => string;
  CHAIN_TO_ADDRESSES_MAP: Record<number, Record<string, string>>;
}
const sdkCore = require('@uniswap/sdk-core') as SdkCore;
const v2Sdk = require('@uniswap/v2-sdk') as { INIT_CODE_HASH: string };
const v3Sdk = require('@uniswap/v3-sdk') as { poolInitCodeHash: (chainId?: number) => string; TICK_SPACINGS: Record<number, number> };

/** keccak256 of a contract's creation code from a published build artifact. */
function creationCodeHash(artifactPath: string): string {
  const artifact = JSON.parse(readFileSync(require.resolve(artifactPath), 'utf8')) as { bytecode: string };
  const code = artifact.bytecode.startsWith('0x') ? artifact.bytecode : `0x${artifact.bytecode}`;
  return keccak256(code as `0x${string}`);
}
const V2_PAIR_CODE_HASH = creationCodeHash('@uniswap/v2-core/build/UniswapV2Pair.json');
const V3_POOL_CODE_HASH = creationCodeHash('@uniswap/v3-core/artifacts/contracts/UniswapV3Pool.sol/UniswapV3Pool.json');

/**
 * Across keeps Permit2 per chain in @across-protocol/contracts dist/src/consts.js. That file's other
 * dependencies are stubbed out in its install (seeds/devnet/acrossContracts.ts), so it is evaluated with only the one module it reads
 * (`../utils`, i.e. @across-protocol/constants).
 */
interface AcrossConsts {
  L1_ADDRESS_MAP: Record<number, Record<string, string>>;
  L2_ADDRESS_MAP: Record<number, Record<string, string>>;
}
function loadAcrossConsts(): AcrossConsts {
  const constants: unknown = require('@across-protocol/constants');
  const source = readFileSync(resolveArtifact('@across-protocol/contracts/dist/src/consts.js'), 'utf8');
  const module = { exports: {} as Record<string, unknown> };
  const fakeRequire = (id: string): unknown => {
    if (id === '../utils') return constants;
    throw new Error(`consts.js asked for ${id}`);
  };
  runInNewContext(source, { exports: module.exports, module, require: fakeRequire });
  return module.exports as unknown as AcrossConsts;
}
const acrossConsts = loadAcrossConsts();
const acrossPermit2 = (chainId: number): string | undefined =>
  acrossConsts.L2_ADDRESS_MAP[chainId]?.permit2 ?? acrossConsts.L1_ADDRESS_MAP[chainId]?.permit2;

interface AcrossNetwork {
  name: string;
  nativeToken: string;
  blockExplorer: string;
}
const acrossConstants = require('@across-protocol/constants') as {
  PUBLIC_NETWORKS: Record<number, AcrossNetwork>;
  CHAIN_IDs: Record<string, number>;
};

const VIEM_CHAINS: Record<number, Chain> = Object.fromEntries(
  [mainnet, optimism, bsc, polygon, base, arbitrum, avalanche].map((c) => [c.id, c]),
);

/**
 * Where @uniswap/sdk-core has no entry or a different contract, the value from Uniswap's deployment
 * pages, transcribed here (not read from the catalogue):
 * - QuoterV2 on the original v3 deployments: sdk-core's `quoterAddress` there is the first Quoter
 *   (0xb27308f9…), not QuoterV2. https://docs.uniswap.org/contracts/v3/reference/deployments/
 *   (Ethereum, Optimism, Polygon, Arbitrum pages, row "QuoterV2").
 * - Universal Router 2.0 (the v4-era router; executes v2 and v3 swaps too): sdk-core 7.x has no map.
 *   https://docs.uniswap.org/contracts/v4/deployments, row "Universal Router"; the same values are
 *   `UniversalRouterV2` in github.com/Uniswap/universal-router deploy-addresses/<chain>.json
 *   (Avalanche: docs page only).
 */
const DOCUMENTED_QUOTER_V1 = '0xb27308f9F90D607463bb33eA1BeBb41C27CE5AB6';
const DOCUMENTED_QUOTER_V2: Record<number, string> = {
  1: '0x61fFE014bA17989E743c5F6cB21bF9697530B21e',
  10: '0x61fFE014bA17989E743c5F6cB21bF9697530B21e',
  137: '0x61fFE014bA17989E743c5F6cB21bF9697530B21e',
  42161: '0x61fFE014bA17989E743c5F6cB21bF9697530B21e',
};
const DOCUMENTED_UNIVERSAL_ROUTER: Record<number, string> = {
  1: '0x66a9893cc07d91d95644aedd05d03f95e1dba8af',
  10: '0x851116d9223fabed8e56c0e6b8ad0c31d98b3507',
  56: '0x1906c1d672b88cd1b9ac7593301ca990f94eae07',
  137: '0x1095692a6237d83c6a72f3f5efedb9a670c49223',
  8453: '0x6ff5693b99212da76ad316178a184ab56d299b43',
  42161: '0xa51afafe0263b40edaef0df8781ea9aa03e381a3',
  43114: '0x94b75331ae8d42c1b61065089b7d48fe14aa73b7',
};

/**
 * The Universal Router 2.0 deployments' constructor parameters (github.com/Uniswap/universal-router
 * script/deployParameters/Deploy<Chain>.s.sol, `v2Factory` and `v3Factory`): each chain's own Uniswap v2 and v3
 * factories, the ones @uniswap/sdk-core lists (checked above against the Mainnet, BSC, Base and Avalanche files).
 *
 * The block each chain's v4 PoolManager was deployed in (the first block its Initialize logs can be in), as the
 * Uniswap v4 TVL adapters of public analytics repositories state them (no package ships them); a later value would
 * miss pools, so each is pinned here.
 */
const DOCUMENTED_V4_START_BLOCK: Record<number, number> = {
  1: 21688329,
  10: 130947675,
  56: 45970610,
  137: 66980384,
  8453: 25350988,
  42161: 297842872,
  43114: 56195376,
};

// ---------- base58 (TRON, Solana) ----------

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
/** Decodes a base58 string (Bitcoin alphabet) to bytes, keeping leading zero bytes; throws on a foreign character. */
function base58Decode(text: string): Uint8Array {
  let value = 0n;
  for (const ch of text) {
    const digit = BASE58.indexOf(ch);
    if (digit < 0) throw new Error(`not base58: ${ch}`);
    value = value * 58n + BigInt(digit);
  }
  const bytes: number[] = [];
  while (value > 0n) {
    bytes.unshift(Number(value & 0xffn));
    value >>= 8n;
  }
  for (const ch of text) {
    if (ch !== '1') break;
    bytes.unshift(0);
  }
  return Uint8Array.from(bytes);
}
const sha256 = (data: Uint8Array): Buffer => createHash('sha256').update(data).digest();
/** True when `address` is a TRON base58check address: 0x41 + 20 bytes + the first 4 bytes of sha256(sha256(payload)). */
function isTronAddress(address: string): boolean {
  const bytes = base58Decode(address);
  if (bytes.length !== 25 || bytes[0] !== 0x41) return false;
  const check = sha256(sha256(bytes.subarray(0, 21))).subarray(0, 4);
  return Buffer.from(bytes.subarray(21)).equals(check);
}

// ---------- tests ----------

t.test('every catalog/*.json validates against catalog/chain.schema.json', async (t) => {
  const schema: unknown = JSON.parse(readFileSync(join(CATALOG_DIR, 'chain.schema.json'), 'utf8'));
  const ajv = new Ajv({ allErrors: true });
  const validate = ajv.compile(schema as object);
  const files = readdirSync(CATALOG_DIR)
    .filter((f) => f.endsWith('.json') && f !== 'chain.schema.json')
    .sort();
  for (const f of PRODUCTION_FILES) t.ok(files.includes(`${f}.json`), `${f}.json is present`);
  for (const f of files) {
    const ok = validate(JSON.parse(readFileSync(join(CATALOG_DIR, f), 'utf8')));
    t.ok(ok, `${f} is valid`, { errors: validate.errors });
  }
});

t.test('chain ids and slugs are unique', async (t) => {
  const ids = chains.map(({ chain }) => chain.chainId);
  const slugs = chains.map(({ chain }) => chain.slug);
  t.equal(new Set(ids).size, ids.length);
  t.equal(new Set(slugs).size, slugs.length);
  t.same(Object.fromEntries(chains.map(({ chain }) => [chain.slug, chain.chainId])), {
    ethereum: 1,
    optimism: 10,
    bsc: 56,
    polygon: 137,
    base: 8453,
    arbitrum: 42161,
    avalanche: 43114,
    tron: 728126428,
    solana: 792703809,
  });
});

for (const { file, chain } of evmChains) {
  t.test(`${file}: chain fields against viem's chain definition`, async (t) => {
    const v = VIEM_CHAINS[chain.chainId];
    if (!v) throw new Error(`viem has no chain ${chain.chainId}`);
    t.equal(chain.symbol, v.nativeCurrency.symbol, 'symbol');
    t.equal(chain.nativeToken, v.nativeCurrency.name, 'nativeToken');
    t.equal(chain.blockExplorer, v.blockExplorers?.default.url, 'blockExplorer');
    t.ok(eq(chain.multicall3Address, v.contracts?.multicall3?.address), 'multicall3Address');
    const native = chain.tokens.filter((tk) => tk.address === NATIVE);
    t.equal(native.length, 1, 'one native-asset token, at the 0xEeee… address');
    t.equal(native[0]?.symbol, v.nativeCurrency.symbol, 'native token symbol');
    t.equal(native[0]?.decimals, v.nativeCurrency.decimals, 'native token decimals');
    t.ok(
      chain.tokens.some((tk) => eq(tk.address, chain.wrappedNativeToken)),
      'wrapped native token is listed',
    );
  });

  t.test(`${file}: every EVM address is EIP-55 checksummed`, async (t) => {
    const addresses: [string, string][] = [
      ['wrappedNativeToken', chain.wrappedNativeToken ?? ''],
      ['multicall3Address', chain.multicall3Address ?? ''],
      ...chain.tokens.map((tk): [string, string] => [`token ${tk.symbol}`, tk.address]),
    ];
    for (const d of chain.dexes) {
      for (const key of [
        'v2FactoryAddress',
        'v2RouterAddress',
        'v3FactoryAddress',
        'v3RouterAddress',
        'v3QuoterAddress',
        'v4PoolManagerAddress',
        'v4StateViewAddress',
        'v4QuoterAddress',
        'v4PositionManagerAddress',
        'universalRouterAddress',
        'universalRouterV2FactoryAddress',
        'universalRouterV3FactoryAddress',
        'permit2Address',
        'settlementAddress',
        'balancerVaultAddress',
        'balancerQueriesAddress',
      ] as const) {
        const a = d[key];
        if (a) addresses.push([`${d.slug} ${d.version} ${key}`, a]);
      }
      for (const a of [...(d.balancerWeightedPoolFactories ?? []), ...(d.balancerStablePoolFactories ?? [])])
        addresses.push([`${d.slug} ${d.version} pool factory`, a]);
    }
    for (const [what, a] of addresses) t.equal(getAddress(a), a, what);
  });

  t.test(`${file}: tokens and DEX entries are unique`, async (t) => {
    const addrs = chain.tokens.map((tk) => tk.address.toLowerCase());
    t.equal(new Set(addrs).size, addrs.length, 'token addresses');
    const symbols = chain.tokens.map((tk) => tk.symbol);
    t.equal(new Set(symbols).size, symbols.length, 'token symbols');
    const dexKeys = chain.dexes.map((d) => `${d.slug}/${d.version}`);
    t.equal(new Set(dexKeys).size, dexKeys.length, 'one entry per DEX slug and version');
  });
}

const noPackageOracle: string[] = [];

for (const { file, chain } of evmChains) {
  const id = chain.chainId;
  t.test(`${file}: Uniswap deployments against @uniswap/sdk-core`, async (t) => {
    const v2 = chain.dexes.find((d) => d.slug === 'uniswap' && d.version === 'v2');
    const v3 = chain.dexes.find((d) => d.slug === 'uniswap' && d.version === 'v3');
    t.ok(v2, 'Uniswap V2 is listed');
    t.ok(v3, 'Uniswap V3 is listed');
    if (v2) {
      t.ok(eq(v2.v2FactoryAddress, sdkCore.V2_FACTORY_ADDRESSES[id]), `v2 factory ${v2.v2FactoryAddress}`);
      t.ok(eq(v2.v2RouterAddress, sdkCore.V2_ROUTER_ADDRESSES[id]), `v2 router ${v2.v2RouterAddress}`);
      t.equal(v2.pairInitCodeHash, v2Sdk.INIT_CODE_HASH, 'pair init code hash = @uniswap/v2-sdk INIT_CODE_HASH');
      t.equal(v2.pairInitCodeHash, V2_PAIR_CODE_HASH, 'pair init code hash = keccak256(UniswapV2Pair creation code)');
      t.equal(v2.feeBps, 30, 'Uniswap v2 fee');
    }
    if (v3) {
      t.ok(eq(v3.v3FactoryAddress, sdkCore.V3_CORE_FACTORY_ADDRESSES[id]), `v3 factory ${v3.v3FactoryAddress}`);
      t.equal(v3.v3RouterKind, 'SwapRouter02');
      t.ok(eq(v3.v3RouterAddress, sdkCore.SWAP_ROUTER_02_ADDRESSES(id)), `SwapRouter02 ${v3.v3RouterAddress}`);
      const sdkQuoter = sdkCore.QUOTER_ADDRESSES[id];
      if (eq(sdkQuoter, DOCUMENTED_QUOTER_V1)) {
        // sdk-core lists the first Quoter here; the catalogue must carry the documented QuoterV2 instead.
        t.ok(eq(v3.v3QuoterAddress, DOCUMENTED_QUOTER_V2[id]), `QuoterV2 ${v3.v3QuoterAddress} = Uniswap docs`);
        noPackageOracle.push(`${file} uniswap v3 QuoterV2`);
      } else {
        t.ok(eq(v3.v3QuoterAddress, sdkQuoter), `QuoterV2 ${v3.v3QuoterAddress} = sdk-core QUOTER_ADDRESSES`);
      }
      t.ok(eq(v3.universalRouterAddress, DOCUMENTED_UNIVERSAL_ROUTER[id]), `universal router ${v3.universalRouterAddress} = Uniswap docs`);
      noPackageOracle.push(`${file} uniswap universal router`);
      const permit2 = acrossPermit2(id);
      t.ok(permit2, `@across-protocol/contracts knows Permit2 on ${id}`);
      t.ok(eq(v3.permit2Address, permit2), `permit2 ${v3.permit2Address} = @across-protocol/contracts`);
      t.equal(v3.poolInitCodeHash, v3Sdk.poolInitCodeHash(id), 'pool init code hash = @uniswap/v3-sdk poolInitCodeHash(chainId)');
      t.equal(v3.poolInitCodeHash, V3_POOL_CODE_HASH, 'pool init code hash = keccak256(UniswapV3Pool creation code)');
      t.same(v3.feeTiers, [100, 500, 3000, 10000]);
      for (const fee of v3.feeTiers ?? []) t.ok(v3Sdk.TICK_SPACINGS[fee], `v3-sdk knows fee tier ${fee}`);
    }
  });

  t.test(`${file}: Uniswap v4 against @uniswap/sdk-core`, async (t) => {
    const v4 = chain.dexes.find((d) => d.slug === 'uniswap' && d.version === 'v4');
    const sdk = sdkCore.CHAIN_TO_ADDRESSES_MAP[id];
    t.ok(sdk?.v4PoolManagerAddress, `sdk-core knows v4 on ${id}`);
    if (!v4 || !sdk) throw new Error(`${file}: Uniswap V4 is not listed`);
    t.ok(eq(v4.v4PoolManagerAddress, sdk.v4PoolManagerAddress), `PoolManager ${v4.v4PoolManagerAddress}`);
    t.ok(eq(v4.v4StateViewAddress, sdk.v4StateView), `StateView ${v4.v4StateViewAddress}`);
    t.ok(eq(v4.v4QuoterAddress, sdk.v4QuoterAddress), `V4Quoter ${v4.v4QuoterAddress}`);
    t.ok(eq(v4.v4PositionManagerAddress, sdk.v4PositionManagerAddress), `PositionManager ${v4.v4PositionManagerAddress}`);
    t.ok(eq(v4.universalRouterAddress, DOCUMENTED_UNIVERSAL_ROUTER[id]), `universal router ${v4.universalRouterAddress} = Uniswap docs`);
    noPackageOracle.push(`${file} uniswap v4 universal router`);
    t.ok(eq(v4.permit2Address, acrossPermit2(id)), `permit2 ${v4.permit2Address} = @across-protocol/contracts`);
    // The router's constructor took the chain's Uniswap v2 and v3 factories (see DOCUMENTED_V4_START_BLOCK's note).
    t.ok(eq(v4.universalRouterV2FactoryAddress, sdkCore.V2_FACTORY_ADDRESSES[id]), 'the router swaps Uniswap v2 pairs');
    t.ok(eq(v4.universalRouterV3FactoryAddress, sdkCore.V3_CORE_FACTORY_ADDRESSES[id]), 'the router swaps Uniswap v3 pools');
    t.same(v4.allowedHooks, [], 'no hook is allowed by default');
    t.equal(v4.factoryDeploymentBlock, DOCUMENTED_V4_START_BLOCK[id], 'PoolManager deployment block');
    noPackageOracle.push(`${file} uniswap v4 PoolManager block`);
  });

  t.test(`${file}: other DEXes (no package oracle; shape only)`, async (t) => {
    for (const d of chain.dexes.filter((x) => x.slug !== 'uniswap' && x.slug !== 'balancer')) {
      t.ok(['sushiswap', 'pancakeswap'].includes(d.slug), `${d.slug} is an expected DEX`);
      if (d.slug === 'sushiswap') {
        t.equal(d.version, 'v2');
        t.equal(d.feeBps, 30, 'SushiSwap v2 fee');
      }
      if (d.slug === 'pancakeswap' && d.version === 'v2') t.equal(d.feeBps, 25, 'PancakeSwap v2 fee');
      if (d.slug === 'pancakeswap' && d.version === 'v3') {
        t.same(d.feeTiers, [100, 500, 2500, 10000]);
        // Checked against PancakeSwap's SDK constants in test/tx/routers/pancakeSmartRouter.test.ts.
        t.equal(d.v3RouterKind, 'PancakeSmartRouter', 'the SmartRouter has its own encoder');
        t.ok(d.poolInitCodeHash && d.v3PoolDeployerAddress, 'pools are CREATE2-deployed by the PoolDeployer, with its init code hash');
      }
      const addrs = [d.v2FactoryAddress, d.v2RouterAddress, d.v3FactoryAddress, d.v3RouterAddress, d.v3QuoterAddress].filter(Boolean);
      noPackageOracle.push(`${file} ${d.slug} ${d.version}`);
      t.ok(addrs.length > 0, `${d.slug} ${d.version}: ${addrs.join(', ')}`);
    }
  });
}

/**
 * The block each listed Balancer v2 pool factory was deployed in, as Balancer's own subgraph states it
 * (github.com/balancer/balancer-subgraph-v2 networks.yaml, `startBlock` of WeightedPoolV3Factory and
 * ComposableStablePoolV3Factory per network); @balancer-labs/v2-deployments states addresses only. A later value
 * would miss pools, so each is pinned here, keyed by the factory address (lower case).
 */
const DOCUMENTED_BALANCER_FACTORY_BLOCK: Readonly<Record<string, number>> = {
  '0x5dd94da3644ddd055fcf6b3e1aa310bb7801eb8b': 16520627, // Ethereum WeightedPoolFactory v3
  '0xdba127fbc23fb20f5929c546af220a991b5c6e01': 16520627, // Ethereum ComposableStablePoolFactory v3
  '0xa0dabebaad1b243bbb243f933013d560819eb66f': 72832703, // Optimism WeightedPoolFactory v3
  '0xe2e901ab09f37884ba31622df3ca7fc19aa443be': 72832821, // Optimism ComposableStablePoolFactory v3
  '0x82e4cfaef85b1b6299935340c964c942280327f4': 38709460, // Polygon WeightedPoolFactory v3
  '0x7bc6c0e73edaa66ef3f6e2f27b0ee8661834c6c9': 38709460, // Polygon ComposableStablePoolFactory v3
  '0xf1665e19bc105be4edd3739f88315cc699cc5b65': 56668142, // Arbitrum WeightedPoolFactory v3
  '0x1c99324edc771c82a0dccb780cc7dda0045e50e7': 56668142, // Arbitrum ComposableStablePoolFactory v3
  '0x94f68b54191f62f781fe8298a8a5fa3ed772d227': 26389236, // Avalanche WeightedPoolFactory v3
};

/** @balancer-labs/v2-deployments' network name of each chain id the catalogue ships (the package has no Base). */
const BALANCER_NETWORK: Readonly<Record<number, string>> = {
  1: 'mainnet',
  10: 'optimism',
  56: 'bsc',
  137: 'polygon',
  8453: 'base',
  42161: 'arbitrum',
  43114: 'avalanche',
};

/** A contract of a Balancer deployment task on a network, from the package's task output (undefined: not deployed there). */
function balancerTaskAddress(task: string, network: string, name: string): string | undefined {
  try {
    return (require(`@balancer-labs/v2-deployments/dist/tasks/${task}/output/${network}.json`) as Record<string, string>)[name];
  } catch {
    return undefined;
  }
}

for (const { file, chain } of evmChains) {
  t.test(`${file}: Balancer v2 against @balancer-labs/v2-deployments`, async (t) => {
    const network = BALANCER_NETWORK[chain.chainId];
    const vault = network && balancerTaskAddress('20210418-vault', network, 'Vault');
    const queries = network && balancerTaskAddress('20220721-balancer-queries', network, 'BalancerQueries');
    const weighted = network && balancerTaskAddress('20230206-weighted-pool-v3', network, 'WeightedPoolFactory');
    const stable = network && balancerTaskAddress('20230206-composable-stable-pool-v3', network, 'ComposableStablePoolFactory');
    const listed = chain.dexes.find((d) => d.slug === 'balancer' && d.version === 'balancerV2');
    // Every chain where the package deploys the Vault and a v3 pool factory is listed (BNB Smart Chain excepted:
    // its catalogue is PancakeSwap's; Base: the package has no Base deployments).
    const deployed = Boolean(vault && queries && (weighted || stable)) && chain.chainId !== 56;
    t.equal(Boolean(listed), deployed, deployed ? 'Balancer v2 is listed' : 'Balancer v2 is not listed (not deployed by the package)');
    if (!listed) return;
    t.ok(eq(listed.balancerVaultAddress, vault), `Vault ${listed.balancerVaultAddress}`);
    t.equal(listed.balancerVaultAddress, '0xBA12222222228d8Ba445958a75a0704d566BF2C8', 'the one Vault address of every chain');
    t.ok(eq(listed.balancerQueriesAddress, queries), `BalancerQueries ${listed.balancerQueriesAddress}`);
    t.same(listed.balancerWeightedPoolFactories, weighted ? [weighted] : [], 'WeightedPoolFactory v3');
    t.same(listed.balancerStablePoolFactories, stable ? [stable] : [], 'ComposableStablePoolFactory v3');
    // Pools register their tokens with the Vault in their constructor, so no pool of a listed factory has a
    // TokensRegistered log before the earliest listed factory's deployment block.
    const factories = [...(listed.balancerWeightedPoolFactories ?? []), ...(listed.balancerStablePoolFactories ?? [])];
    const blocks = factories.map((f) => DOCUMENTED_BALANCER_FACTORY_BLOCK[f.toLowerCase()]);
    t.ok(
      blocks.every((b) => b !== undefined),
      `every listed factory's deployment block is documented: ${factories.join(', ')}`,
    );
    t.equal(listed.factoryDeploymentBlock, Math.min(...(blocks as number[])), 'the earliest listed factory deployment block');
    noPackageOracle.push(`${file} balancer v2 factory block`);
  });
}

for (const { file, chain } of chains.filter(({ chain }) => chain.ecosystem !== 'evm')) {
  t.test(`${file}: non-EVM chain against @across-protocol/constants PUBLIC_NETWORKS`, async (t) => {
    const acrossId = chain.ecosystem === 'svm' ? acrossConstants.CHAIN_IDs.SOLANA : chain.chainId;
    const network = acrossConstants.PUBLIC_NETWORKS[acrossId];
    t.ok(network, `Across knows ${chain.name}`);
    t.equal(chain.symbol, network?.nativeToken, 'native symbol');
    t.equal(chain.blockExplorer, network?.blockExplorer, 'block explorer');
    t.same(chain.dexes, [], 'listed, not quotable');
    t.equal(chain.wrappedNativeToken, undefined);
    t.equal(chain.multicall3Address, undefined);
    for (const tk of chain.tokens) {
      if (chain.ecosystem === 'tvm') t.ok(isTronAddress(tk.address), `${tk.symbol} ${tk.address} is a base58check TRON address`);
      else t.equal(base58Decode(tk.address).length, 32, `${tk.symbol} ${tk.address} is a 32-byte Solana address`);
    }
  });
}

t.test('TRON native TRX is the base58 form of the zero address', async (t) => {
  const tron = readChain('tron');
  const trx = tron.tokens.find((tk) => tk.symbol === 'TRX');
  t.same([...base58Decode(trx?.address ?? '').subarray(0, 21)], [0x41, ...new Array<number>(20).fill(0)]);
});

t.test('addresses without a package oracle are the known ones', async (t) => {
  // Pinned: a deployment whose addresses no package confirms fails here until it is checked and added.
  t.same(noPackageOracle, [
    'ethereum uniswap v3 QuoterV2',
    'ethereum uniswap universal router',
    'ethereum uniswap v4 universal router',
    'ethereum uniswap v4 PoolManager block',
    'ethereum sushiswap v2',
    'optimism uniswap v3 QuoterV2',
    'optimism uniswap universal router',
    'optimism uniswap v4 universal router',
    'optimism uniswap v4 PoolManager block',
    'bnb uniswap universal router',
    'bnb uniswap v4 universal router',
    'bnb uniswap v4 PoolManager block',
    'bnb sushiswap v2',
    'bnb pancakeswap v2',
    'bnb pancakeswap v3',
    'polygon uniswap v3 QuoterV2',
    'polygon uniswap universal router',
    'polygon uniswap v4 universal router',
    'polygon uniswap v4 PoolManager block',
    'polygon sushiswap v2',
    'base uniswap universal router',
    'base uniswap v4 universal router',
    'base uniswap v4 PoolManager block',
    'base sushiswap v2',
    'arbitrum uniswap v3 QuoterV2',
    'arbitrum uniswap universal router',
    'arbitrum uniswap v4 universal router',
    'arbitrum uniswap v4 PoolManager block',
    'arbitrum sushiswap v2',
    'avalanche uniswap universal router',
    'avalanche uniswap v4 universal router',
    'avalanche uniswap v4 PoolManager block',
    'avalanche sushiswap v2',
    'ethereum balancer v2 factory block',
    'optimism balancer v2 factory block',
    'polygon balancer v2 factory block',
    'arbitrum balancer v2 factory block',
    'avalanche balancer v2 factory block',
  ]);
});
