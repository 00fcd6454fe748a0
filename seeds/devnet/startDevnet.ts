import type { Address, Hex } from 'viem';
import { type AcrossDevnetAddresses, deployAcross } from './deployAcross.ts';
import { type BalancerDevnetAddresses, deployBalancer } from './deployBalancer.ts';
import { deployDevnet } from './deployDevnet.ts';
import { deployPancakeV3, type PancakeDevnetAddresses } from './deployPancakeV3.ts';
import { deployUniswapV4, type V4DevnetAddresses } from './deployUniswapV4.ts';
import { type DevnetAddresses, devnetAccounts } from './devnetAddresses.ts';
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

/**
 * Starts anvil (free port unless given; a taken port is refused) and deploys the devnet; chain id defaults to 31337.
 * `across: true` also deploys the Across SpokePool (seeds/devnet/deployAcross.ts) after everything else; `v4: true`
 * deploys Uniswap v4 and its pools (seeds/devnet/deployUniswapV4.ts) after that; `pancake: true` PancakeSwap v3 and
 * its pools (seeds/devnet/deployPancakeV3.ts), then `balancer: true` Balancer v2 and its pools
 * (seeds/devnet/deployBalancer.ts). Each has its own deployer, so none changes any other address.
 */
export async function startDevnet(
  options: { port?: number; chainId?: number; across?: boolean; v4?: boolean; pancake?: boolean; balancer?: boolean } = {},
): Promise<Devnet> {
  const started = performance.now();
  const anvil = await startAnvil({ port: options.port, chainId: options.chainId ?? 31337 });
  try {
    const { addresses, txCount } = await deployDevnet(anvil.rpcUrl);
    const across = options.across ? await deployAcross(anvil.rpcUrl) : undefined;
    const v4 = options.v4 ? await deployUniswapV4(anvil.rpcUrl) : undefined;
    const pancake = options.pancake ? await deployPancakeV3(anvil.rpcUrl) : undefined;
    const balancer = options.balancer ? await deployBalancer(anvil.rpcUrl) : undefined;
    return {
      rpcUrl: anvil.rpcUrl,
      port: anvil.port,
      chainId: anvil.chainId,
      pid: anvil.pid,
      addresses,
      ...(across ? { across } : {}),
      ...(v4 ? { v4 } : {}),
      ...(pancake ? { pancake } : {}),
      ...(balancer ? { balancer } : {}),
      accounts: devnetAccounts(),
      txCount,
      startMs: Math.round(performance.now() - started),
      stop: anvil.stop,
    };
  } catch (err) {
    await anvil.stop();
    throw err;
  }
}
