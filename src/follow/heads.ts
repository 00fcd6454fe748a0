import { webSocket } from 'viem';
import { RECONNECT } from '../chain/seedRpc.ts';

/** How long a state snapshot may lag when FOLLOW_SNAPSHOT_EVERY is not set: a restart replays about this much. */
export const SNAPSHOT_EVERY_MS = 300_000;

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
