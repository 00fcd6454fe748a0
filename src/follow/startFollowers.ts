import type { Logger } from 'pino';
import type { Catalog } from '../catalog/Catalog.ts';
import type { BlockUpdateSink } from '../graph/blockUpdate.ts';
import { ChainFollower, type FollowerOptions } from './ChainFollower.ts';

/** Options of startFollowers: one follower per catalogue chain with an RPC URL; the rest as FollowerOptions. */
export interface StartFollowersOptions extends Omit<FollowerOptions, 'chain' | 'rpcUrl' | 'startFrom' | 'wsUrl'> {
  readonly catalog: Catalog;
  /** RPC endpoint per chain id (RPC_URL_<chainId>); chains without one are not followed. */
  readonly rpcUrls: Readonly<Record<number, string>>;
  /** WebSocket endpoint per chain id for new-head subscriptions (config rpcWsUrls); chains without one poll. */
  readonly rpcWsUrls?: Readonly<Record<number, string>>;
  readonly logger: Logger;
}

/**
 * Starts a follower for every EVM catalogue chain with an RPC URL (each catches up before this resolves); a chain
 * whose follower fails to start is logged and left out, the others run.
 */
export async function startFollowers(opts: StartFollowersOptions, sink: BlockUpdateSink): Promise<ChainFollower[]> {
  const started = await Promise.all(
    opts.catalog.chains
      .filter((chain) => chain.ecosystem === 'evm' && opts.rpcUrls[chain.chainId])
      .map(async (chain) => {
        const wsUrl = opts.rpcWsUrls?.[chain.chainId];
        const follower = new ChainFollower({ ...opts, chain, rpcUrl: opts.rpcUrls[chain.chainId], ...(wsUrl ? { wsUrl } : {}) }, sink);
        try {
          await follower.start();
          return follower;
        } catch (err) {
          opts.logger.error({ chainId: chain.chainId, err: (err as Error).message }, 'follower did not start');
          return undefined;
        }
      }),
  );
  return started.filter((f) => f !== undefined);
}
