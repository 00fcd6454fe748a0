import { type Address, encodeAbiParameters, encodePacked, getAddress, getContractAddress, type Hex, keccak256, toHex } from 'viem';
import { type HDKey, mnemonicToAccount, privateKeyToAccount } from 'viem/accounts';
import { devnetArtifact } from './artifacts.ts';
import { DEVNET_TOKENS, DEVNET_V2_PAIRS, DEVNET_V3_POOLS, type DevnetTokenSymbol, type DevnetV2Dex } from './devnetPlan.ts';
import { DEVNET_MNEMONIC } from './startAnvil.ts';

/** Multicall3's canonical address (the same on every chain); the devnet puts its code there with anvil_setCode. */
export const MULTICALL3_ADDRESS: Address = '0xcA11bde05977b3631167028862bE2a173976CA11';

/** The native asset's pseudo-address in the catalogue. */
export const NATIVE_TOKEN_ADDRESS: Address = '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE';

/** Contracts deployed by the devnet deployer, in nonce order (nonce = index). */
export const DEPLOY_ORDER = [
  'WETH',
  'USDC',
  'USDT',
  'WBTC',
  'DAI',
  'UNI',
  'uniswapV2Factory',
  'uniswapV2Router02',
  'sushiswapV2Factory',
  'sushiswapV2Router02',
  'uniswapV3Factory',
  'nftDescriptorLibrary',
  'nonfungibleTokenPositionDescriptor',
  'nonfungiblePositionManager',
  'swapRouter',
  'swapRouter02',
  'quoterV2',
] as const;

/**
 * Contracts of the 'routing' phase (devnetPlan.ts), deployed after everything else by a second account
 * (ROUTING_DEPLOYER_INDEX), in its nonce order (nonce = index): the base deployer's nonces stay as they were.
 * MixedRouteQuoterV1 (built with the Uniswap V2 factory, as SwapRouter02) quotes mixed v2/v3 paths: an oracle for tests.
 */
export const ROUTING_DEPLOY_ORDER = ['LINK', 'AAVE', 'mixedRouteQuoterV1'] as const;

/** HD index (anvil's default mnemonic) of the account that deploys ROUTING_DEPLOY_ORDER; outside anvil's ten funded accounts, not Across's 100. */
export const ROUTING_DEPLOYER_INDEX = 101;

export type DevnetContract = (typeof DEPLOY_ORDER)[number] | (typeof ROUTING_DEPLOY_ORDER)[number];

/** One pool the devnet creates. */
export interface DevnetPool {
  readonly dex: DevnetV2Dex;
  readonly version: 'v2' | 'v3';
  readonly address: Address;
  readonly token0: Address;
  readonly token1: Address;
  /** Fee in pips: v3 as the pool reports it, v2 = 30 bps x 100. */
  readonly fee: number;
}

/** Every address of the devnet: the same on every run and on every chain id (fixed deployer and nonce order). */
export interface DevnetAddresses {
  readonly deployer: Address;
  /** Deploys the 'routing' phase's token contracts (ROUTING_DEPLOY_ORDER); anvil impersonates it. */
  readonly routingDeployer: Address;
  readonly tokens: Readonly<Record<DevnetTokenSymbol, Address>>;
  readonly contracts: Readonly<Record<DevnetContract, Address>>;
  readonly multicall3: Address;
  /** keccak256 of UniswapV2Pair's creation code from @uniswap/v2-core (CREATE2 pair addresses). */
  readonly pairInitCodeHash: Hex;
  /** keccak256 of UniswapV3Pool's creation code from @uniswap/v3-core (CREATE2 pool addresses). */
  readonly poolInitCodeHash: Hex;
  readonly pools: readonly DevnetPool[];
}

let accountsNode: HDKey | undefined;

/**
 * Account `index` of anvil's default mnemonic (m/44'/60'/0'/0/index): its address and private key. The mnemonic's
 * seed (2048 PBKDF2 rounds) is derived once per process, each account is a child of the node m/44'/60'/0'/0.
 */
export function devnetAccount(index: number): { address: Address; privateKey: Hex } {
  accountsNode ??= mnemonicToAccount(DEVNET_MNEMONIC, { path: "m/44'/60'/0'/0" }).getHdKey();
  const key = accountsNode.deriveChild(index).privateKey;
  if (!key) throw new Error('devnetAccount: no private key');
  const privateKey = toHex(key);
  return { address: privateKeyToAccount(privateKey).address, privateKey };
}

/** Index 0..9 accounts of anvil's default mnemonic. */
export function devnetAccounts(count = 10): { address: Address; privateKey: Hex }[] {
  return Array.from({ length: count }, (_, i) => devnetAccount(i));
}

/** Sorts two token addresses the way Uniswap factories do (token0 < token1). */
export function sortTokens(a: Address, b: Address): [Address, Address] {
  return BigInt(a) < BigInt(b) ? [a, b] : [b, a];
}

/** CREATE2 address of a v2 pair (UniswapV2Library.pairFor). */
export function v2PairAddress(factory: Address, a: Address, b: Address, initCodeHash: Hex): Address {
  const [t0, t1] = sortTokens(a, b);
  const salt = keccak256(encodePacked(['address', 'address'], [t0, t1]));
  return getContractAddress({ opcode: 'CREATE2', from: factory, salt, bytecodeHash: initCodeHash });
}

/** CREATE2 address of a v3 pool (PoolAddress.computeAddress). */
export function v3PoolAddress(factory: Address, a: Address, b: Address, fee: number, initCodeHash: Hex): Address {
  const [t0, t1] = sortTokens(a, b);
  const salt = keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'address' }, { type: 'uint24' }], [t0, t1, fee]));
  return getContractAddress({ opcode: 'CREATE2', from: factory, salt, bytecodeHash: initCodeHash });
}

let cached: DevnetAddresses | undefined;

/** Computes every devnet address without a node: deployer nonces for contracts, CREATE2 for pools. */
export function devnetAddresses(): DevnetAddresses {
  if (cached) return cached;
  const deployer = devnetAccounts(1)[0].address;
  const contracts = {} as Record<DevnetContract, Address>;
  DEPLOY_ORDER.forEach((name, nonce) => {
    contracts[name] = getContractAddress({ from: deployer, nonce: BigInt(nonce) });
  });
  const routingDeployer = devnetAccount(ROUTING_DEPLOYER_INDEX).address;
  ROUTING_DEPLOY_ORDER.forEach((name, nonce) => {
    contracts[name] = getContractAddress({ from: routingDeployer, nonce: BigInt(nonce) });
  });
  const tokens = {} as Record<DevnetTokenSymbol, Address>;
  for (const t of DEVNET_TOKENS) tokens[t.symbol] = contracts[t.symbol];
  const pairInitCodeHash = keccak256(devnetArtifact('UniswapV2Pair').bytecode);
  const poolInitCodeHash = keccak256(devnetArtifact('UniswapV3Pool').bytecode);
  const pools: DevnetPool[] = [];
  for (const p of DEVNET_V2_PAIRS) {
    const factory = p.dex === 'uniswap' ? contracts.uniswapV2Factory : contracts.sushiswapV2Factory;
    const [token0, token1] = sortTokens(tokens[p.a], tokens[p.b]);
    pools.push({ dex: p.dex, version: 'v2', address: v2PairAddress(factory, token0, token1, pairInitCodeHash), token0, token1, fee: 3000 });
  }
  for (const p of DEVNET_V3_POOLS) {
    const [token0, token1] = sortTokens(tokens[p.a], tokens[p.b]);
    const address = v3PoolAddress(contracts.uniswapV3Factory, token0, token1, p.fee, poolInitCodeHash);
    pools.push({ dex: 'uniswap', version: 'v3', address, token0, token1, fee: p.fee });
  }
  cached = {
    deployer: getAddress(deployer),
    routingDeployer,
    tokens,
    contracts,
    multicall3: MULTICALL3_ADDRESS,
    pairInitCodeHash,
    poolInitCodeHash,
    pools,
  };
  return cached;
}
