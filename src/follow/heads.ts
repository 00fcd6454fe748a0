import { createPublicClient, custom, type PublicClient, webSocket } from 'viem';
import { RpcRequestError, type SeedRpc } from '../chain/seedRpc.ts';

/** How long a state snapshot may lag when FOLLOW_SNAPSHOT_EVERY is not set: a restart replays about this much. */
export const SNAPSHOT_EVERY_MS = 300_000;

/** viem's WebSocket reconnection: every second, for as long as the process runs (it re-subscribes by itself). */
const RECONNECT = { attempts: 1_000_000, delay: 1000 };

/**
 * A follower's head poll and snapshot interval: the given ones, else from the chain's block time. Poll: a tenth of a
 * block, 100 to 1000 ms. Snapshots: the blocks of SNAPSHOT_EVERY_MS (a block time under 250 ms counts as 250 ms).
 */
export function followSchedule(
  blockMs: number,
  given: { readonly pollIntervalMs?: number; readonly snapshotEveryBlocks?: number },
): { pollIntervalMs: number; snapshotEveryBlocks: number } {
  return {
    pollIntervalMs: given.pollIntervalMs ?? Math.min(1000, Math.max(100, Math.round(blockMs / 10))),
    snapshotEveryBlocks: given.snapshotEveryBlocks ?? Math.max(1, Math.round(SNAPSHOT_EVERY_MS / Math.max(250, blockMs))),
  };
}

/** A live newHeads subscription; close() unsubscribes (waiting at most a second) and closes the socket. */
export interface HeadSubscription {
  close(): Promise<void>;
}

/**
 * Subscribes to eth_subscribe("newHeads") over WebSocket (viem's webSocket transport, reconnecting and re-subscribing
 * by itself): onHead gets each announced block hash, onError a failure of the socket or the subscription. Rejects
 * when the endpoint refuses the subscription.
 */
export async function subscribeNewHeads(
  url: string,
  on: { onHead(hash: string): void; onError(err: unknown): void },
): Promise<HeadSubscription> {
  const transport = webSocket(url, { reconnect: RECONNECT, keepAlive: { interval: 30_000 } })({});
  const sub = await transport.value!.subscribe({
    params: ['newHeads'],
    onData: (data: { result?: { hash?: string } }) => {
      if (data.result?.hash) on.onHead(data.result.hash);
    },
    onError: on.onError,
  });
  const client = await transport.value!.getRpcClient();
  return {
    async close() {
      await Promise.race([sub.unsubscribe().catch(() => undefined), new Promise((r) => setTimeout(r, 1000))]);
      client.close();
    },
  };
}

/**
 * A SeedRpc over WebSocket (a ws(s):// rpcUrl): requests counted, a JSON-RPC error as RpcRequestError (range
 * refusals). `reconnect` false (a seeding run): a dead endpoint fails its requests instead of being retried forever.
 */
export function socketRpc(url: string, reconnect = true): SeedRpc & { close(): void } {
  const transport = webSocket(url, { reconnect: reconnect ? RECONNECT : false, retryCount: 2 })({});
  let count = 0;
  const client = createPublicClient({
    transport: custom({
      async request({ method, params }: { method: string; params?: unknown }) {
        count++;
        try {
          return await transport.request({ method, params } as never);
        } catch (err) {
          const e = err as { details?: string; shortMessage?: string; message: string; code?: number };
          throw new RpcRequestError(`${method}: ${e.details ?? e.shortMessage ?? e.message}`, false, e.code);
        }
      },
    }),
  }) as PublicClient;
  return {
    client,
    requests: () => count,
    close: () =>
      void transport.value!.getRpcClient().then(
        (c) => c.close(),
        () => undefined, // never connected: nothing to close
      ),
  };
}
