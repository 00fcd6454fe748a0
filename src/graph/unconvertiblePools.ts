import { BroadcastChannel } from 'node:worker_threads';

/** A pool whose snapshot state does not convert to a priceable pool (registry.poolFromSnapshot threw). */
export interface UnconvertiblePool {
  readonly chainId: number;
  readonly address: string;
  /** The conversion error's message. */
  readonly reason: string;
}

/** The channel the threads of a process (API thread, pricing workers) report unconvertible pools on. */
const CHANNEL = 'sqs:unconvertible-pool';
/** Most distinct (pool, reason) pairs a listener remembers; beyond it, it forgets them all and starts again. */
const SEEN_LIMIT = 10_000;

let reporter: BroadcastChannel | undefined;

/** Reports a pool that failed to convert to the listeners of this process, from whichever thread converted it. */
export function reportUnconvertiblePool(pool: UnconvertiblePool): void {
  if (!reporter) {
    reporter = new BroadcastChannel(CHANNEL);
    reporter.unref();
  }
  reporter.postMessage(pool);
}

/**
 * Calls `listener` for the pools any thread of this process reports, once per pool and reason (every thread and
 * every graph generation converts a pool again, and reports it again). Returns the function that stops listening.
 */
export function onUnconvertiblePool(listener: (pool: UnconvertiblePool) => void): () => void {
  const seen = new Set<string>();
  const channel = new BroadcastChannel(CHANNEL);
  channel.unref();
  channel.onmessage = (event) => {
    const pool = (event as { data: UnconvertiblePool }).data;
    const key = `${pool.chainId}:${pool.address}:${pool.reason}`;
    if (seen.has(key)) return;
    if (seen.size >= SEEN_LIMIT) seen.clear();
    seen.add(key);
    listener(pool);
  };
  return () => channel.close();
}
