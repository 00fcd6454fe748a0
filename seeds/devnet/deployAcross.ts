/**
 * The devnet's Across SpokePool: the published Ethereum_SpokePool implementation behind the published ERC1967Proxy,
 * both from `@across-protocol/contracts`, deployed by a dedicated account AFTER the Uniswap deployment, so no
 * other devnet address or nonce changes. Its addresses are deterministic (that account's nonces 0 and 1).
 */
import {
  type Abi,
  type Address,
  encodeDeployData,
  encodeFunctionData,
  getAddress,
  getContractAddress,
  type Hex,
  toHex,
  zeroAddress,
} from 'viem';
import { loadArtifact } from './artifacts.ts';
import { DevnetSender } from './deployDevnet.ts';
import { devnetAccount, devnetAddresses } from './devnetAddresses.ts';
import { jsonRpc } from './jsonRpc.ts';

/** npm paths of the Across artifacts (real published builds, never recompiled). */
export const ACROSS_ARTIFACT_PATHS = {
  SpokePool: '@across-protocol/contracts/dist/evm/artifacts/Ethereum_SpokePool.sol/Ethereum_SpokePool.json',
  ERC1967Proxy: '@across-protocol/contracts/dist/evm/artifacts/ERC1967Proxy.sol/ERC1967Proxy.json',
} as const;

/** The SpokePool's constructor buffers: the production values (quote timestamps up to 1 h old, fill deadlines up to 6 h). */
export const ACROSS_DEPOSIT_QUOTE_TIME_BUFFER = 3600;
export const ACROSS_FILL_DEADLINE_BUFFER = 21_600;

/** HD index (anvil's default mnemonic) of the account that deploys and owns the devnet SpokePool; outside anvil's ten funded accounts. */
const ACROSS_DEPLOYER_INDEX = 100;

/** Addresses of the devnet's Across deployment (the same on every run and chain id). */
export interface AcrossDevnetAddresses {
  /** Deploys the contracts and owns the proxy (also the withdrawal recipient). */
  readonly deployer: Address;
  readonly implementation: Address;
  /** The SpokePool users and relayers call. */
  readonly spokePool: Address;
  /** The wrapped native token the SpokePool is built with: the devnet's WETH9. */
  readonly wrappedNativeToken: Address;
}

/** The devnet Across addresses, computed without a node. */
export function acrossDevnetAddresses(): AcrossDevnetAddresses {
  const deployer = devnetAccount(ACROSS_DEPLOYER_INDEX).address;
  return {
    deployer,
    implementation: getContractAddress({ from: deployer, nonce: 0n }),
    spokePool: getContractAddress({ from: deployer, nonce: 1n }),
    wrappedNativeToken: devnetAddresses().tokens.WETH,
  };
}

/**
 * Deploys the SpokePool implementation (WETH9, 3600, 21600, gateway 0) and the ERC1967Proxy that runs
 * `initialize(0, deployer)` onto a running devnet; anvil impersonates the deployer. Returns the addresses.
 */
export async function deployAcross(rpcUrl: string): Promise<AcrossDevnetAddresses> {
  const expected = acrossDevnetAddresses();
  const nonce = Number(await jsonRpc<Hex>(rpcUrl, 'eth_getTransactionCount', [expected.deployer, 'latest']));
  if (nonce !== 0) throw new Error(`deployAcross: deployer ${expected.deployer} has nonce ${nonce}, expected 0 (already deployed?)`);
  await jsonRpc(rpcUrl, 'anvil_setBalance', [expected.deployer, toHex(10n ** 20n)]);
  await jsonRpc(rpcUrl, 'anvil_impersonateAccount', [expected.deployer]);
  try {
    const sender = new DevnetSender(rpcUrl, expected.deployer);
    const spokePool = loadArtifact(ACROSS_ARTIFACT_PATHS.SpokePool);
    const proxy = loadArtifact(ACROSS_ARTIFACT_PATHS.ERC1967Proxy);
    const implementation = await sender.send(
      undefined,
      encodeDeployData({
        abi: spokePool.abi,
        bytecode: spokePool.bytecode,
        args: [expected.wrappedNativeToken, ACROSS_DEPOSIT_QUOTE_TIME_BUFFER, ACROSS_FILL_DEADLINE_BUFFER, zeroAddress],
      }),
      0n,
      'deploy Ethereum_SpokePool',
    );
    check('implementation', implementation.contractAddress, expected.implementation);
    const initialize = encodeFunctionData({ abi: spokePool.abi as Abi, functionName: 'initialize', args: [0, expected.deployer] });
    const deployed = await sender.send(
      undefined,
      encodeDeployData({ abi: proxy.abi, bytecode: proxy.bytecode, args: [expected.implementation, initialize] }),
      0n,
      'deploy ERC1967Proxy',
    );
    check('proxy', deployed.contractAddress, expected.spokePool);
  } finally {
    await jsonRpc(rpcUrl, 'anvil_stopImpersonatingAccount', [expected.deployer]);
  }
  return expected;
}

function check(what: string, got: Address | null, want: Address): void {
  if (!got || getAddress(got) !== want) throw new Error(`deployAcross: ${what} at ${got}, expected ${want}`);
}

/**
 * The `bridges` entry of a devnet catalogue file: Across at the devnet SpokePool, carrying USDC, USDT and ETH
 * (WETH) between the two devnet instances (31337 and 31338), with small fee terms suited to tests and demos.
 */
export function devnetAcrossBridge(variant: 'devnet' | 'devnet-b'): Record<string, unknown> {
  const { tokens } = devnetAddresses();
  const other = variant === 'devnet' ? '31338' : '31337';
  return {
    protocol: 'across',
    network: 'devnet',
    name: 'Across',
    slug: 'across',
    logo: '',
    spokePoolAddress: acrossDevnetAddresses().spokePool,
    fillDeadlineOffsetSeconds: 10_800,
    defaults: { feeBps: 5, fillTimeSeconds: 4 },
    assets: [
      { asset: 'ETH', token: tokens.WETH, feeBps: 4, fixedFee: '0.00005', minAmount: '0.001', maxAmount: '500' },
      {
        asset: 'USDC',
        token: tokens.USDC,
        fixedFee: '0.1',
        minAmount: '1',
        maxAmount: '1000000',
        destinations: { [other]: { fixedFee: '0.15', fillTimeSeconds: 6 } },
      },
      { asset: 'USDT', token: tokens.USDT, feeBps: 8, fixedFee: '0.1', minAmount: '1', maxAmount: '1000000' },
    ],
  };
}
