import { createPublicClient, custom, type PublicClient, webSocket } from 'viem';

/** Options for the seeding run's RPC access. */
export interface SeedRpcOptions {
  readonly url: string;
  /** Retries after the first attempt for a transient failure (network, timeout, HTTP 429/5xx, rate-limit codes). */
  readonly retries: number;
  /** First backoff delay; doubles on every retry (plus up to 25% jitter). */
  readonly backoffMs: number;
  /** Per-request timeout. */
  readonly timeoutMs: number;
}

/** A viem client whose HTTP requests are counted, retried with backoff and timed out. */
export interface SeedRpc {
  readonly client: PublicClient;
  /** HTTP requests made so far (retries included). */
  requests(): number;
}

/** Error of one JSON-RPC request, with whether it is worth retrying. */
export class RpcRequestError extends Error {
  override readonly name = 'RpcRequestError';
  constructor(
    message: string,
    readonly transient: boolean,
    readonly code?: number,
  ) {
    super(message);
  }
}

/** What an endpoint says when it refuses an eth_getLogs block range as too large (or its result as too long). */
export const RANGE_REFUSED = /range|too (large|many|big)|limit|exceed|more than/i;

const TRANSIENT_RPC_CODES = new Set([-32005, -32603, 429]);
const TRANSIENT_MESSAGE = /rate|limit|timeout|timed out|header not found|try again|busy|unavailable/i;

/** One line saying why a request failed: the endpoint's own message when there is one (viem wraps it). */
export function shortError(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    if (e instanceof RpcRequestError) return e.message;
  }
  const withShort = err as Error & { shortMessage?: string };
  return (withShort.shortMessage ?? err.message).split('\n')[0];
}

let nextId = 1;

/** Creates the counting, retrying viem client for one endpoint. */
export function createSeedRpc(options: SeedRpcOptions): SeedRpc {
  let count = 0;
  const once = async (method: string, params: unknown): Promise<unknown> => {
    count++;
    let res: Response;
    try {
      res = await fetch(options.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params: params ?? [] }),
        signal: AbortSignal.timeout(options.timeoutMs),
      });
    } catch (err) {
      const inner = err instanceof Error ? (err.cause as { code?: string; message?: string } | undefined) : undefined;
      const cause =
        inner?.code ??
        inner?.message ??
        (err instanceof Error ? (err.name === 'TimeoutError' ? `timeout after ${options.timeoutMs} ms` : err.message) : String(err));
      throw new RpcRequestError(`${method}: request failed (${cause})`, true);
    }
    if (res.status === 429 || res.status >= 500) throw new RpcRequestError(`${method}: HTTP ${res.status}`, true);
    if (!res.ok) throw new RpcRequestError(`${method}: HTTP ${res.status}`, false);
    let body: { result?: unknown; error?: { code: number; message: string } };
    try {
      body = (await res.json()) as typeof body;
    } catch {
      throw new RpcRequestError(`${method}: response is not JSON`, true);
    }
    if (body.error) {
      // An eth_getLogs range refused as too large is answered at once (the caller halves it), unless it is a rate limit.
      const rangeRefused = method === 'eth_getLogs' && RANGE_REFUSED.test(body.error.message) && !/rate/i.test(body.error.message);
      const transient = !rangeRefused && (TRANSIENT_RPC_CODES.has(body.error.code) || TRANSIENT_MESSAGE.test(body.error.message));
      throw new RpcRequestError(`${method}: ${body.error.message}`, transient, body.error.code);
    }
    return body.result;
  };
  const request = async ({ method, params }: { method: string; params?: unknown }): Promise<unknown> => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await once(method, params);
      } catch (err) {
        if (!(err instanceof RpcRequestError) || !err.transient || attempt >= options.retries) throw err;
        const delay = options.backoffMs * 2 ** attempt;
        await new Promise((r) => setTimeout(r, delay + Math.random() * delay * 0.25));
      }
    }
  };
  const client = createPublicClient({ transport: custom({ request }, { retryCount: 0 }) });
  return { client, requests: () => count };
}

/** viem's WebSocket reconnection: every second, for as long as the process runs (it re-subscribes by itself). */
export const RECONNECT = { attempts: 1_000_000, delay: 1000 };

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
