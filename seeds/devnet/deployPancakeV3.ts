/**
 * The devnet's PancakeSwap v3: the published PancakeV3Factory and PancakeV3Pool (@pancakeswap/v3-core 1.0.2) and
 * SwapRouter, NonfungiblePositionManager and QuoterV2 (@pancakeswap/v3-periphery 1.0.2), with the project's own
 * DevnetPancakeV3PoolDeployer (seeds/devnet/contracts/, compiled with solc-js: no package ships PancakeSwap's) that
 * deploys the npm pool creation code, unchanged, with CREATE2 as the factory expects. Deployed by a dedicated account
 * AFTER everything else (so no other devnet address or nonce changes); every address is deterministic (that
 * account's nonces). Pools of PANCAKE_V3_POOLS are created through the position manager, minted over several ranges,
 * and given a non-zero protocol fee through the factory (feeProtocol is two 16-bit shares of the fee, per 10,000).
 * docs/pancakeswap-v3.md lists what differs from Uniswap v3.
 */
import { join } from 'node:path';
import {
  type Address,
  encodeDeployData,
  encodeFunctionData,
  getAddress,
  getContractAddress,
  type Hex,
  keccak256,
  parseAbi,
  toHex,
  zeroAddress,
} from 'viem';
import { loadArtifact } from './artifacts.ts';
import { compileSolidity } from './compileSolidity.ts';
import { createV3Pool, DevnetSender, liquiditySupply } from './deployDevnet.ts';
import { devnetAccount, devnetAddresses, sortTokens, v3PoolAddress } from './devnetAddresses.ts';
import { DEVNET_STABLE_POSITIONS, DEVNET_VOLATILE_POSITIONS, type DevnetTokenSymbol, type TickOffsets } from './devnetPlan.ts';
import { jsonRpc } from './jsonRpc.ts';

/** npm paths of the PancakeSwap v3 artifacts (published builds, never recompiled; none needs library linking). */
export const PANCAKE_ARTIFACT_PATHS = {
  PancakeV3Factory: '@pancakeswap/v3-core/artifacts/contracts/PancakeV3Factory.sol/PancakeV3Factory.json',
  PancakeV3Pool: '@pancakeswap/v3-core/artifacts/contracts/PancakeV3Pool.sol/PancakeV3Pool.json',
  SwapRouter: '@pancakeswap/v3-periphery/artifacts/contracts/SwapRouter.sol/SwapRouter.json',
  NonfungiblePositionManager:
    '@pancakeswap/v3-periphery/artifacts/contracts/NonfungiblePositionManager.sol/NonfungiblePositionManager.json',
  QuoterV2: '@pancakeswap/v3-periphery/artifacts/contracts/lens/QuoterV2.sol/QuoterV2.json',
} as const;

/** The project's PancakeV3PoolDeployer stand-in and the contract holding the pool creation code. */
const DEPLOYER_SOURCE = join(import.meta.dirname, 'contracts', 'DevnetPancakeV3PoolDeployer.sol');

/** HD index (anvil's default mnemonic) of the account that deploys and owns the devnet's PancakeSwap v3. */
const PANCAKE_DEPLOYER_INDEX = 110;

/** Its transactions that create contracts, in nonce order (nonce 3 is the deployer's setFactoryAddress). */
const PANCAKE_DEPLOY_NONCES = {
  poolCode: 0,
  poolDeployer: 1,
  factory: 2,
  swapRouter: 4,
  nonfungiblePositionManager: 5,
  quoterV2: 6,
} as const;
type PancakeContract = keyof typeof PANCAKE_DEPLOY_NONCES;

/** Fee tiers PancakeV3Factory's constructor enables, with their tick spacings (checked against feeAmountTickSpacing in tests). */
export const PANCAKE_FEE_TIERS: ReadonlyMap<number, number> = new Map([
  [100, 1],
  [500, 10],
  [2500, 50],
  [10000, 200],
]);

export interface PancakeV3PoolSpec {
  readonly a: DevnetTokenSymbol;
  readonly b: DevnetTokenSymbol;
  readonly fee: number;
  /** USD value offered per position (half per token; single-sided positions take only one side). */
  readonly usdPerPosition: bigint;
  readonly positions: readonly TickOffsets[];
  /** Protocol fee shares per 10,000 of the swap fee (PancakeV3Pool.setFeeProtocol), per input token; 0 for none. */
  readonly feeProtocol: { readonly token0: number; readonly token1: number };
}

/** The devnet's PancakeSwap v3 pools, in creation order: the 2500 tier twice, each with a protocol fee. */
export const PANCAKE_V3_POOLS: readonly PancakeV3PoolSpec[] = [
  {
    a: 'WETH',
    b: 'USDC',
    fee: 2500,
    usdPerPosition: 400_000n,
    positions: DEVNET_VOLATILE_POSITIONS,
    feeProtocol: { token0: 3200, token1: 2500 },
  },
  {
    a: 'WETH',
    b: 'USDC',
    fee: 500,
    usdPerPosition: 600_000n,
    positions: DEVNET_VOLATILE_POSITIONS,
    feeProtocol: { token0: 3300, token1: 3300 },
  },
  {
    a: 'USDC',
    b: 'USDT',
    fee: 100,
    usdPerPosition: 500_000n,
    positions: DEVNET_STABLE_POSITIONS,
    feeProtocol: { token0: 3300, token1: 1000 },
  },
  {
    a: 'WBTC',
    b: 'WETH',
    fee: 2500,
    usdPerPosition: 300_000n,
    positions: DEVNET_VOLATILE_POSITIONS,
    feeProtocol: { token0: 4000, token1: 3200 },
  },
];

/** One PancakeSwap v3 pool of the devnet. */
export interface PancakeDevnetPool {
  readonly address: Address;
  readonly token0: Address;
  readonly token1: Address;
  readonly fee: number;
  readonly tickSpacing: number;
  /** slot0.feeProtocol as the pool holds it: token0's share + (token1's share << 16). */
  readonly feeProtocol: number;
}

/** Addresses of the devnet's PancakeSwap v3 (the same on every run and chain id). */
export interface PancakeDevnetAddresses {
  readonly deployer: Address;
  readonly contracts: Readonly<Record<PancakeContract, Address>>;
  /** keccak256 of the npm pool creation code: PancakeSwap's mainnet init code hash. */
  readonly poolInitCodeHash: Hex;
  readonly pools: readonly PancakeDevnetPool[];
}

/** The devnet PancakeSwap v3 addresses and pools, computed without a node. */
export function pancakeDevnetAddresses(): PancakeDevnetAddresses {
  const deployer = devnetAccount(PANCAKE_DEPLOYER_INDEX).address;
  const contracts = {} as Record<PancakeContract, Address>;
  for (const [name, nonce] of Object.entries(PANCAKE_DEPLOY_NONCES)) {
    contracts[name as PancakeContract] = getContractAddress({ from: deployer, nonce: BigInt(nonce) });
  }
  const poolInitCodeHash = keccak256(loadArtifact(PANCAKE_ARTIFACT_PATHS.PancakeV3Pool).bytecode);
  const { tokens } = devnetAddresses();
  const pools = PANCAKE_V3_POOLS.map((p): PancakeDevnetPool => {
    const [token0, token1] = sortTokens(tokens[p.a], tokens[p.b]);
    const [share0, share1] =
      token0 === tokens[p.a] ? [p.feeProtocol.token0, p.feeProtocol.token1] : [p.feeProtocol.token1, p.feeProtocol.token0];
    return {
      // CREATE2 from the pool deployer, not the factory.
      address: v3PoolAddress(contracts.poolDeployer, token0, token1, p.fee, poolInitCodeHash),
      token0,
      token1,
      fee: p.fee,
      tickSpacing: PANCAKE_FEE_TIERS.get(p.fee)!,
      feeProtocol: share0 + (share1 << 16),
    };
  });
  return { deployer, contracts, poolInitCodeHash, pools };
}

const _erc20Abi = parseAbi([
  'function mint(address to, uint256 amount) returns (bool)',
  'function approve(address spender, uint256 amount) returns (bool)',
  'function deposit() payable',
]);
const poolDeployerAbi = parseAbi(['function setFactoryAddress(address factoryAddress)']);
const factoryAbi = parseAbi(['function setFeeProtocol(address pool, uint32 feeProtocol0, uint32 feeProtocol1)']);

/**
 * Deploys PancakeSwap v3 onto a running devnet (after deployDevnet and any other option) and creates the pools of
 * PANCAKE_V3_POOLS; anvil impersonates the deployer. Returns the addresses.
 */
export async function deployPancakeV3(rpcUrl: string): Promise<PancakeDevnetAddresses> {
  const expected = pancakeDevnetAddresses();
  const { deployer, contracts: c } = expected;
  const { tokens } = devnetAddresses();
  const nonce = Number(await jsonRpc<Hex>(rpcUrl, 'eth_getTransactionCount', [deployer, 'latest']));
  if (nonce !== 0) throw new Error(`deployPancakeV3: deployer ${deployer} has nonce ${nonce}, expected 0 (already deployed?)`);
  await jsonRpc(rpcUrl, 'anvil_setBalance', [deployer, toHex(10n ** 9n * 10n ** 18n)]);
  await jsonRpc(rpcUrl, 'anvil_impersonateAccount', [deployer]);
  try {
    const sender = new DevnetSender(rpcUrl, deployer);
    const deployed = async (name: PancakeContract, data: Hex): Promise<void> => {
      const receipt = await sender.send(undefined, data, 0n, `deploy ${name}`);
      const got = receipt.contractAddress ? getAddress(receipt.contractAddress) : undefined;
      if (got !== c[name]) throw new Error(`deployPancakeV3: ${name} at ${got}, expected ${c[name]}`);
    };
    const poolCode = compileSolidity(DEPLOYER_SOURCE, 'PancakeV3PoolCode');
    const poolDeployer = compileSolidity(DEPLOYER_SOURCE, 'DevnetPancakeV3PoolDeployer');
    const pool = loadArtifact(PANCAKE_ARTIFACT_PATHS.PancakeV3Pool);
    await deployed('poolCode', encodeDeployData({ abi: poolCode.abi, bytecode: poolCode.bytecode, args: [pool.bytecode] }));
    await deployed('poolDeployer', encodeDeployData({ abi: poolDeployer.abi, bytecode: poolDeployer.bytecode, args: [c.poolCode] }));
    const artifact = (name: keyof typeof PANCAKE_ARTIFACT_PATHS) => loadArtifact(PANCAKE_ARTIFACT_PATHS[name]);
    const factory = artifact('PancakeV3Factory');
    await deployed('factory', encodeDeployData({ abi: factory.abi, bytecode: factory.bytecode, args: [c.poolDeployer] }));
    await sender.send(
      c.poolDeployer,
      encodeFunctionData({ abi: poolDeployerAbi, functionName: 'setFactoryAddress', args: [c.factory] }),
      0n,
      'setFactoryAddress',
    );
    const periphery: [PancakeContract, keyof typeof PANCAKE_ARTIFACT_PATHS, readonly unknown[]][] = [
      ['swapRouter', 'SwapRouter', [c.poolDeployer, c.factory, tokens.WETH]],
      // No token descriptor: tokenURI is not needed on the devnet.
      ['nonfungiblePositionManager', 'NonfungiblePositionManager', [c.poolDeployer, c.factory, tokens.WETH, zeroAddress]],
      ['quoterV2', 'QuoterV2', [c.poolDeployer, c.factory, tokens.WETH]],
    ];
    for (const [name, path, args] of periphery) {
      const a = artifact(path);
      await deployed(name, encodeDeployData({ abi: a.abi, bytecode: a.bytecode, args }));
    }
    await fundAndApprove(sender);
    for (const spec of PANCAKE_V3_POOLS) await createPool(sender, spec);
  } finally {
    await jsonRpc(rpcUrl, 'anvil_stopImpersonatingAccount', [deployer]);
  }
  return expected;
}

/** Mints (or wraps) the deployer's balances of every token a pool holds and approves the position manager. */
async function fundAndApprove(sender: DevnetSender): Promise<void> {
  const { tokens } = devnetAddresses();
  const { contracts: c } = pancakeDevnetAddresses();
  const symbols = new Set(PANCAKE_V3_POOLS.flatMap((p) => [p.a, p.b]));
  for (const symbol of symbols) {
    await sender.fund(tokens[symbol], liquiditySupply(symbol), symbol);
    await sender.approve(tokens[symbol], c.nonfungiblePositionManager, symbol);
  }
}

/** Creates one pool at the reference price, mints every position of its plan, and sets its protocol fee. */
async function createPool(sender: DevnetSender, spec: PancakeV3PoolSpec): Promise<void> {
  const { contracts: c } = pancakeDevnetAddresses();
  const { addr0, addr1 } = await createV3Pool(sender, c.nonfungiblePositionManager, PANCAKE_FEE_TIERS.get(spec.fee)!, spec, 'pancake v3');
  const pool = pancakeDevnetAddresses().pools.find((p) => p.token0 === addr0 && p.token1 === addr1 && p.fee === spec.fee)!;
  await sender.send(
    c.factory,
    encodeFunctionData({
      abi: factoryAbi,
      functionName: 'setFeeProtocol',
      args: [pool.address, pool.feeProtocol & 0xffff, pool.feeProtocol >>> 16],
    }),
    0n,
    `setFeeProtocol pancake v3 ${spec.a}/${spec.b} ${spec.fee}`,
  );
}

/**
 * The devnet's PancakeSwap v3 as a catalogue DEX entry (catalog/chain.schema.json `dex`): factory, pool deployer and
 * init code hash, its fee tiers, v3-periphery's SwapRouter (Uniswap SwapRouter's ABI: v3RouterKind 'SwapRouter') and
 * QuoterV2. Not in catalog/devnet.json (the shipped snapshots stay Uniswap's): tests add it to a copy.
 */
export function pancakeDevnetDex(): Record<string, unknown> {
  const { contracts: c, poolInitCodeHash } = pancakeDevnetAddresses();
  return {
    name: 'PancakeSwap V3',
    slug: 'pancakeswap',
    version: 'v3',
    logo: '',
    v3FactoryAddress: c.factory,
    v3PoolDeployerAddress: c.poolDeployer,
    poolInitCodeHash,
    v3RouterAddress: c.swapRouter,
    v3RouterKind: 'SwapRouter',
    v3QuoterAddress: c.quoterV2,
    feeTiers: [...PANCAKE_FEE_TIERS.keys()],
    factoryDeploymentBlock: 0,
  };
}
