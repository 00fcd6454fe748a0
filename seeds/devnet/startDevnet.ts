import type { Address, Hex } from 'viem';
import { type AcrossDevnetAddresses, deployAcross } from './deployAcross.ts';
import { type BalancerDevnetAddresses, deployBalancer } from './deployBalancer.ts';
import { deployDevnet } from './deployDevnet.ts';
import { deployPancakeV3, type PancakeDevnetAddresses } from './deployPancakeV3.ts';
import { deployUniswapV4, type V4DevnetAddresses } from './deployUniswapV4.ts';
import { type DevnetAddresses, devnetAccounts } from './devnetAddresses.ts';
import { devnetCacheDir, devnetCacheKey, isCacheHit, openDevnetCache } from './devnetStateCache.ts';
import { jsonRpc } from './jsonRpc.ts';
import { startAnvil } from './startAnvil.ts';

/** A running devnet: anvil with the Uniswap contracts and pools deployed. */
export interface Devnet {
  readonly rpcUrl: string;
  readonly port: number;
  readonly chainId: number;
  readonly pid: number;
  readonly addresses: DevnetAddresses;
  /** The Across SpokePool deployment, when started with `across: true`. */
  readonly across?: AcrossDevnetAddresses;
  /** The Uniswap v4 deployment and its pools, when started with `v4: true`. */
  readonly v4?: V4DevnetAddresses;
  /** The PancakeSwap v3 deployment and its pools, when started with `pancake: true`. */
  readonly pancake?: PancakeDevnetAddresses;
  /** The Balancer v2 deployment and its pools, when started with `balancer: true`. */
  readonly balancer?: BalancerDevnetAddresses;
  /** anvil's default accounts (unlocked on the node); index 0 is the deployer. */
  readonly accounts: ReadonlyArray<{ address: Address; privateKey: Hex }>;
  /** Transactions sent by the deployment. */
  readonly txCount: number;
  /** Milliseconds from spawning anvil to the last deployment transaction. */
  readonly startMs: number;
  /** Stops anvil (by PID) and waits for it to exit. */
  stop(): Promise<void>;
}

/** Which parts a devnet deploys beyond the base (Uniswap v2/v3, tokens, pools). */
interface DevnetParts {
  readonly across?: boolean;
  readonly v4?: boolean;
  readonly pancake?: boolean;
  readonly balancer?: boolean;
}

/** What the deployers return, and the accounts: the same for a devnet deployed afresh and one loaded from the cache. */
type DevnetDeployment = Pick<Devnet, 'addresses' | 'across' | 'v4' | 'pancake' | 'balancer' | 'accounts' | 'txCount'>;

async function deploy(rpcUrl: string, parts: DevnetParts): Promise<DevnetDeployment> {
  const { addresses, txCount } = await deployDevnet(rpcUrl);
  const across = parts.across ? await deployAcross(rpcUrl) : undefined;
  const v4 = parts.v4 ? await deployUniswapV4(rpcUrl) : undefined;
  const pancake = parts.pancake ? await deployPancakeV3(rpcUrl) : undefined;
  const balancer = parts.balancer ? await deployBalancer(rpcUrl) : undefined;
  return {
    addresses,
    ...(across ? { across } : {}),
    ...(v4 ? { v4 } : {}),
    ...(pancake ? { pancake } : {}),
    ...(balancer ? { balancer } : {}),
    accounts: devnetAccounts(),
    txCount,
  };
}

/**
 * Starts anvil (free port unless given; a taken port is refused) and deploys the devnet; chain id defaults to 31337.
 * `across: true` also deploys the Across SpokePool (seeds/devnet/deployAcross.ts) after everything else; `v4: true`
 * deploys Uniswap v4 and its pools (seeds/devnet/deployUniswapV4.ts) after that; `pancake: true` PancakeSwap v3 and
 * its pools (seeds/devnet/deployPancakeV3.ts), then `balancer: true` Balancer v2 and its pools
 * (seeds/devnet/deployBalancer.ts). Each has its own deployer, so none changes any other address.
 *
 * The deployed chain is cached per chain id and parts (seeds/devnet/devnetStateCache.ts): the first start deploys and
 * dumps anvil's state, later ones load it (same blocks, hashes, logs, receipts, nonces, addresses) and set the node's
 * clock to the last deployment block's timestamp, so time runs on from the deployment as it does on a fresh one.
 */
export async function startDevnet(options: { port?: number; chainId?: number } & DevnetParts = {}): Promise<Devnet> {
  const started = performance.now();
  const chainId = options.chainId ?? 31337;
  const parts: Required<DevnetParts> = {
    across: options.across === true,
    v4: options.v4 === true,
    pancake: options.pancake === true,
    balancer: options.balancer === true,
  };
  const dir = devnetCacheDir();
  const cache = dir === undefined ? undefined : await openDevnetCache<DevnetDeployment>(dir, devnetCacheKey({ chainId, ...parts }));
  const hit = cache !== undefined && isCacheHit(cache) ? cache : undefined;
  const build = cache !== undefined && !isCacheHit(cache) ? cache : undefined;
  try {
    const anvil = await startAnvil({
      port: options.port,
      chainId,
      args: hit ? ['--load-state', hit.stateFile] : [],
    });
    try {
      let deployment: DevnetDeployment;
      if (hit) {
        deployment = hit.deployment;
        const latest = await jsonRpc<{ timestamp: Hex }>(anvil.rpcUrl, 'eth_getBlockByNumber', ['latest', false]);
        await jsonRpc(anvil.rpcUrl, 'evm_setTime', [Number(latest.timestamp)]);
      } else {
        deployment = await deploy(anvil.rpcUrl, parts);
        await build?.save(anvil.rpcUrl, deployment);
      }
      return {
        rpcUrl: anvil.rpcUrl,
        port: anvil.port,
        chainId: anvil.chainId,
        pid: anvil.pid,
        ...deployment,
        startMs: Math.round(performance.now() - started),
        stop: anvil.stop,
      };
    } catch (err) {
      await anvil.stop();
      throw err;
    }
  } finally {
    build?.release();
  }
}
