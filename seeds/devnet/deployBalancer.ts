/**
 * The devnet's Balancer v2: the published Authorizer, Vault (built with the devnet's WETH9), ProtocolFeePercentagesProvider,
 * BalancerQueries, WeightedPoolFactory and ComposableStablePoolFactory (their February 2023 versions) from
 * `@balancer-labs/v2-deployments`, deployed by a dedicated account AFTER everything else (so no other devnet address or
 * nonce changes), plus a tiny rate provider of our own (contracts/DevnetRateProvider.sol, compiled with solc-js). Then the
 * pools of BALANCER_POOLS are created through the factories and joined with the INIT join kind, and the first stable
 * pool's amplification starts a ramp. Every contract and pool address is deterministic (that account's nonces, the
 * factories' CREATE nonces, the Vault's pool nonce).
 */
import { join } from 'node:path';
import {
  type Abi,
  type Address,
  concatHex,
  decodeEventLog,
  encodeAbiParameters,
  encodeDeployData,
  encodeFunctionData,
  getAddress,
  getContractAddress,
  type Hex,
  maxUint256,
  padHex,
  parseAbi,
  parseAbiParameters,
  toHex,
} from 'viem';
import { loadArtifact } from './artifacts.ts';
import { compileSolidity } from './compileSolidity.ts';
import { DevnetSender, rawAmount, token } from './deployDevnet.ts';
import { devnetAccount, devnetAddresses } from './devnetAddresses.ts';
import type { DevnetTokenSymbol } from './devnetPlan.ts';
import { jsonRpc } from './jsonRpc.ts';

const TASKS = '@balancer-labs/v2-deployments/dist/tasks';

/** npm paths of the Balancer v2 artifacts (the published builds, never recompiled; none needs library linking). */
export const BALANCER_ARTIFACT_PATHS = {
  Authorizer: `${TASKS}/20210418-authorizer/artifact/Authorizer.json`,
  Vault: `${TASKS}/20210418-vault/artifact/Vault.json`,
  ProtocolFeePercentagesProvider: `${TASKS}/20220725-protocol-fee-percentages-provider/artifact/ProtocolFeePercentagesProvider.json`,
  BalancerQueries: `${TASKS}/20220721-balancer-queries/artifact/BalancerQueries.json`,
  WeightedPoolFactory: `${TASKS}/20230206-weighted-pool-v3/artifact/WeightedPoolFactory.json`,
  WeightedPool: `${TASKS}/20230206-weighted-pool-v3/artifact/WeightedPool.json`,
  ComposableStablePoolFactory: `${TASKS}/20230206-composable-stable-pool-v3/artifact/ComposableStablePoolFactory.json`,
  ComposableStablePool: `${TASKS}/20230206-composable-stable-pool-v3/artifact/ComposableStablePool.json`,
} as const;

/** HD index (anvil's default mnemonic) of the account that deploys and owns the devnet's Balancer; not Across's 100, routing's 101 nor v4's 102. */
const BALANCER_DEPLOYER_INDEX = 103;

/** The contracts it deploys, in its nonce order (nonce = index). */
const BALANCER_DEPLOY_ORDER = [
  'authorizer',
  'vault',
  'protocolFeePercentagesProvider',
  'weightedPoolFactory',
  'composableStablePoolFactory',
  'balancerQueries',
  'rateProvider',
] as const;
type BalancerContract = (typeof BALANCER_DEPLOY_ORDER)[number];

/** Initial rate of the devnet rate provider (1.02: the token is worth 1.02 of its underlying, as a yield-bearing wrapper). */
export const DEVNET_RATE_PROVIDER_RATE = 1_020_000_000_000_000_000n;

/** Token rate cache duration of the rate-provided stable pool, seconds. */
export const DEVNET_RATE_CACHE_DURATION = 600n;

/** One pool of the plan: tokens by symbol, USD value deposited per token (weighted: in proportion to the weights). */
export type BalancerPoolSpec =
  | {
      readonly kind: 'weighted';
      readonly name: string;
      readonly tokens: readonly DevnetTokenSymbol[];
      /** Normalized weights, 18 decimals, same order as tokens (sum 1e18). */
      readonly weights: readonly bigint[];
      readonly usdTotal: bigint;
      readonly swapFee: bigint;
    }
  | {
      readonly kind: 'composableStable';
      readonly name: string;
      readonly tokens: readonly DevnetTokenSymbol[];
      /** Amplification parameter (without the contract's 1e3 precision). */
      readonly amp: bigint;
      readonly usdPerToken: bigint;
      readonly swapFee: bigint;
      /** The token that has the devnet rate provider (its deposit is its USD value divided by the rate). */
      readonly rateProvided?: DevnetTokenSymbol;
      /** Starts an amplification ramp to this value over rampSeconds (the pool's owner may). */
      readonly rampTo?: { readonly amp: bigint; readonly seconds: bigint };
    };

const E16 = 10n ** 16n;

/** The devnet's Balancer pools, created in this order (weighted by the weighted factory, stable by the stable one). */
export const BALANCER_POOLS: readonly BalancerPoolSpec[] = [
  {
    kind: 'weighted',
    name: '80UNI-20WETH',
    tokens: ['UNI', 'WETH'],
    weights: [80n * E16, 20n * E16],
    usdTotal: 2_000_000n,
    swapFee: 3n * 10n ** 15n,
  },
  {
    kind: 'weighted',
    name: '50WBTC-50USDC',
    tokens: ['WBTC', 'USDC'],
    weights: [50n * E16, 50n * E16],
    usdTotal: 1_000_000n,
    swapFee: 10n ** 15n,
  },
  {
    kind: 'composableStable',
    name: 'USDC-USDT-DAI',
    tokens: ['USDC', 'USDT', 'DAI'],
    amp: 200n,
    usdPerToken: 1_000_000n,
    swapFee: 4n * 10n ** 14n,
    rampTo: { amp: 400n, seconds: 2n * 86_400n },
  },
  {
    kind: 'composableStable',
    name: 'USDT-rDAI',
    tokens: ['USDT', 'DAI'],
    amp: 500n,
    usdPerToken: 500_000n,
    swapFee: 10n ** 14n,
    rateProvided: 'DAI',
  },
];

/** One Balancer pool as deployed. */
export interface DevnetBalancerPool {
  readonly kind: 'weighted' | 'composableStable';
  readonly name: string;
  readonly address: Address;
  readonly poolId: Hex;
  readonly factory: Address;
  /** The Vault's registered tokens, sorted (a composable stable pool's own BPT among them). */
  readonly tokens: readonly Address[];
  readonly rateProviders: readonly Address[];
}

/** Addresses of the devnet's Balancer deployment (the same on every run and chain id). */
export interface BalancerDevnetAddresses {
  readonly deployer: Address;
  readonly contracts: Readonly<Record<BalancerContract, Address>>;
  readonly pools: readonly DevnetBalancerPool[];
}

/** Pool specializations (IVault.PoolSpecialization) as encoded in a poolId. */
const GENERAL = 0;
const MINIMAL_SWAP_INFO = 1;
const TWO_TOKEN = 2;

/**
 * A BaseSplitCodeFactory deploys the two halves of its pool's creation code in its constructor, so its first
 * pool is its CREATE nonce 3 (contract nonces start at 1).
 */
const FIRST_POOL_NONCE = 3n;

/** The Vault's poolId: pool address, then the 2-byte specialization, then the Vault's 10-byte pool nonce. */
export function balancerPoolId(pool: Address, specialization: number, nonce: number): Hex {
  const tail = (BigInt(specialization) << 80n) | BigInt(nonce);
  return concatHex([pool, padHex(toHex(tail), { size: 12 })]).toLowerCase() as Hex;
}

/** The devnet Balancer addresses and pools, computed without a node. */
export function balancerDevnetAddresses(): BalancerDevnetAddresses {
  const deployer = devnetAccount(BALANCER_DEPLOYER_INDEX).address;
  const contracts = {} as Record<BalancerContract, Address>;
  BALANCER_DEPLOY_ORDER.forEach((name, nonce) => {
    contracts[name] = getContractAddress({ from: deployer, nonce: BigInt(nonce) });
  });
  const { tokens } = devnetAddresses();
  const nextNonce = { weighted: FIRST_POOL_NONCE, composableStable: FIRST_POOL_NONCE };
  const pools = BALANCER_POOLS.map((spec, vaultNonce): DevnetBalancerPool => {
    const factory = spec.kind === 'weighted' ? contracts.weightedPoolFactory : contracts.composableStablePoolFactory;
    const address = getContractAddress({ from: factory, nonce: nextNonce[spec.kind]++ });
    const own = sortAddresses(spec.tokens.map((s) => tokens[s]));
    const registered = spec.kind === 'weighted' ? own : sortAddresses([...own, address]);
    const specialization = spec.kind === 'composableStable' ? GENERAL : own.length === 2 ? TWO_TOKEN : MINIMAL_SWAP_INFO;
    const rateProviders = own.map((t) =>
      spec.kind === 'composableStable' && spec.rateProvided && tokens[spec.rateProvided] === t ? contracts.rateProvider : zero,
    );
    return {
      kind: spec.kind,
      name: spec.name,
      address,
      poolId: balancerPoolId(address, specialization, vaultNonce),
      factory,
      tokens: registered,
      rateProviders,
    };
  });
  return { deployer, contracts, pools };
}

const zero: Address = '0x0000000000000000000000000000000000000000';

function sortAddresses(list: readonly Address[]): Address[] {
  return [...list].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
}

const _erc20Abi = parseAbi([
  'function mint(address to, uint256 amount) returns (bool)',
  'function approve(address spender, uint256 amount) returns (bool)',
  'function deposit() payable',
]);
const vaultAbi = parseAbi([
  'struct JoinPoolRequest { address[] assets; uint256[] maxAmountsIn; bytes userData; bool fromInternalBalance; }',
  'function joinPool(bytes32 poolId, address sender, address recipient, JoinPoolRequest request) payable',
  'event PoolRegistered(bytes32 indexed poolId, address indexed poolAddress, uint8 specialization)',
]);
const stablePoolAbi = parseAbi(['function startAmplificationParameterUpdate(uint256 rawEndValue, uint256 endTime)']);

/** WeightedPool / ComposableStablePool JoinKind.INIT. */
const JOIN_KIND_INIT = 0n;

/**
 * Deploys Balancer v2 and its pools onto a running devnet (after deployDevnet); anvil impersonates the deployer.
 * Returns the addresses (checked against the computed ones).
 */
export async function deployBalancer(rpcUrl: string): Promise<BalancerDevnetAddresses> {
  const expected = balancerDevnetAddresses();
  const { deployer, contracts } = expected;
  const nonce = Number(await jsonRpc<Hex>(rpcUrl, 'eth_getTransactionCount', [deployer, 'latest']));
  if (nonce !== 0) throw new Error(`deployBalancer: deployer ${deployer} has nonce ${nonce}, expected 0 (already deployed?)`);
  await jsonRpc(rpcUrl, 'anvil_setBalance', [deployer, toHex(10n ** 9n * 10n ** 18n)]);
  await jsonRpc(rpcUrl, 'anvil_impersonateAccount', [deployer]);
  try {
    const sender = new DevnetSender(rpcUrl, deployer);
    const weth = devnetAddresses().tokens.WETH;
    const deploy = async (name: BalancerContract, abi: Abi, bytecode: Hex, args: readonly unknown[]): Promise<void> => {
      const receipt = await sender.send(undefined, encodeDeployData({ abi, bytecode, args }), 0n, `deploy ${name}`);
      check(name, receipt.contractAddress, contracts[name]);
    };
    const art = (name: keyof typeof BALANCER_ARTIFACT_PATHS) => loadArtifact(BALANCER_ARTIFACT_PATHS[name]);
    const a = art('Authorizer');
    await deploy('authorizer', a.abi, a.bytecode, [deployer]);
    const v = art('Vault');
    await deploy('vault', v.abi, v.bytecode, [contracts.authorizer, weth, 0n, 0n]);
    const p = art('ProtocolFeePercentagesProvider');
    await deploy('protocolFeePercentagesProvider', p.abi, p.bytecode, [contracts.vault, 5n * 10n ** 17n, 5n * 10n ** 17n]);
    const w = art('WeightedPoolFactory');
    await deploy('weightedPoolFactory', w.abi, w.bytecode, [contracts.vault, contracts.protocolFeePercentagesProvider, 'devnet', 'devnet']);
    const s = art('ComposableStablePoolFactory');
    await deploy('composableStablePoolFactory', s.abi, s.bytecode, [
      contracts.vault,
      contracts.protocolFeePercentagesProvider,
      'devnet',
      'devnet',
    ]);
    const q = art('BalancerQueries');
    await deploy('balancerQueries', q.abi, q.bytecode, [contracts.vault]);
    const r = compileSolidity(join(import.meta.dirname, 'contracts', 'DevnetRateProvider.sol'), 'DevnetRateProvider');
    await deploy('rateProvider', r.abi, r.bytecode, [DEVNET_RATE_PROVIDER_RATE]);

    await fundAndApprove(sender, contracts.vault);
    for (const [i, spec] of BALANCER_POOLS.entries()) {
      const pool = expected.pools[i];
      await createPool(sender, spec, pool, w.abi, s.abi);
      await initPool(sender, spec, pool, contracts.vault);
      if (spec.kind === 'composableStable' && spec.rampTo) {
        const block = await jsonRpc<{ timestamp: Hex }>(rpcUrl, 'eth_getBlockByNumber', ['latest', false]);
        const endTime = BigInt(block.timestamp) + 60n + spec.rampTo.seconds;
        const data = encodeFunctionData({
          abi: stablePoolAbi,
          functionName: 'startAmplificationParameterUpdate',
          args: [spec.rampTo.amp, endTime],
        });
        await sender.send(pool.address, data, 0n, `amp ramp ${spec.name}`);
      }
    }
  } finally {
    await jsonRpc(rpcUrl, 'anvil_stopImpersonatingAccount', [deployer]);
  }
  return expected;
}

/** Deposits of a pool's own tokens at the reference prices, in the pool's sorted token order (BPT excluded). */
function deposits(spec: BalancerPoolSpec): Map<Address, bigint> {
  const { tokens } = devnetAddresses();
  const out = new Map<Address, bigint>();
  spec.tokens.forEach((symbol, i) => {
    const t = token(symbol);
    if (spec.kind === 'weighted') {
      out.set(tokens[symbol], rawAmount((spec.usdTotal * spec.weights[i]) / 10n ** 18n, t.priceMicroUsd, t.decimals));
    } else {
      const amount = rawAmount(spec.usdPerToken, t.priceMicroUsd, t.decimals);
      out.set(tokens[symbol], spec.rateProvided === symbol ? (amount * 10n ** 18n) / DEVNET_RATE_PROVIDER_RATE : amount);
    }
  });
  return out;
}

/** Mints (or wraps) what every pool's INIT join takes, and approves the Vault for each token. */
async function fundAndApprove(sender: DevnetSender, vault: Address): Promise<void> {
  const need = new Map<Address, bigint>();
  for (const spec of BALANCER_POOLS) for (const [t, amount] of deposits(spec)) need.set(t, (need.get(t) ?? 0n) + amount);
  for (const [address, amount] of need) {
    await sender.fund(address, amount, address);
    await sender.approve(address, vault, `Vault ${address}`);
  }
}

async function createPool(
  sender: DevnetSender,
  spec: BalancerPoolSpec,
  pool: DevnetBalancerPool,
  weightedAbi: Abi,
  stableAbi: Abi,
): Promise<void> {
  const { tokens } = devnetAddresses();
  const own = pool.tokens.filter((t) => t !== pool.address);
  let data: Hex;
  if (spec.kind === 'weighted') {
    const weights = own.map((t) => spec.weights[spec.tokens.findIndex((s) => tokens[s] === t)]);
    data = encodeFunctionData({
      abi: weightedAbi,
      functionName: 'create',
      args: [spec.name, spec.name, own, weights, own.map(() => zero), spec.swapFee, sender.from],
    });
  } else {
    data = encodeFunctionData({
      abi: stableAbi,
      functionName: 'create',
      args: [
        spec.name,
        spec.name,
        own,
        spec.amp,
        pool.rateProviders,
        pool.rateProviders.map((p) => (p === zero ? 0n : DEVNET_RATE_CACHE_DURATION)),
        own.map(() => false),
        spec.swapFee,
        sender.from,
      ],
    });
  }
  const receipt = await sender.send(pool.factory, data, 0n, `create ${spec.name}`);
  const registered = receipt.logs
    .map((log) => {
      try {
        return decodeEventLog({ abi: vaultAbi, data: log.data, topics: log.topics as [Hex, ...Hex[]] });
      } catch {
        return undefined;
      }
    })
    .find((e) => e?.eventName === 'PoolRegistered');
  if (registered?.eventName !== 'PoolRegistered') throw new Error(`deployBalancer: ${spec.name} registered no pool`);
  check(`${spec.name} pool`, registered.args.poolAddress, pool.address);
  if (registered.args.poolId.toLowerCase() !== pool.poolId)
    throw new Error(`deployBalancer: ${spec.name} poolId ${registered.args.poolId}, expected ${pool.poolId}`);
}

/** Joins with the INIT kind: every own token's deposit; a composable stable pool's BPT slot takes what the pool says. */
async function initPool(sender: DevnetSender, spec: BalancerPoolSpec, pool: DevnetBalancerPool, vault: Address): Promise<void> {
  const amounts = deposits(spec);
  const amountsIn = pool.tokens.map((t) => amounts.get(t) ?? 0n);
  const maxAmountsIn = pool.tokens.map((t) => (t === pool.address ? maxUint256 : (amounts.get(t) ?? 0n)));
  const userData = encodeAbiParameters(parseAbiParameters('uint256, uint256[]'), [JOIN_KIND_INIT, amountsIn]);
  const data = encodeFunctionData({
    abi: vaultAbi,
    functionName: 'joinPool',
    args: [pool.poolId, sender.from, sender.from, { assets: [...pool.tokens], maxAmountsIn, userData, fromInternalBalance: false }],
  });
  await sender.send(vault, data, 0n, `init ${spec.name}`);
}

function check(what: string, got: Address | null | undefined, want: Address): void {
  if (!got || getAddress(got) !== want) throw new Error(`deployBalancer: ${what} at ${got}, expected ${want}`);
}
