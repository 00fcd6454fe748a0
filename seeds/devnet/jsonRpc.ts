/** Error returned by a JSON-RPC endpoint (the `error` member of the response). */
export class JsonRpcError extends Error {
  override readonly name = 'JsonRpcError';
  constructor(
    readonly method: string,
    readonly rpcCode: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(`${method}: ${message}`);
  }
}

let nextId = 1;

/** Sends one JSON-RPC 2.0 request over HTTP and returns its result (throws JsonRpcError on an error reply). */
export async function jsonRpc<T = unknown>(url: string, method: string, params: readonly unknown[] = []): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
  });
  if (!res.ok) throw new Error(`${method}: HTTP ${res.status}`);
  const body = (await res.json()) as { result?: T; error?: { code: number; message: string; data?: unknown } };
  if (body.error) throw new JsonRpcError(method, body.error.code, body.error.message, body.error.data);
  return body.result as T;
}

/**
 * The receipt of a sent transaction (as the node returns it), asked for by hash every 10 ms until it exists, at most
 * `timeoutMs`. A devnet mines only when sent to, so a wait that looks again only when a new block appears (viem's
 * waitForTransactionReceipt) can miss the one block it is mined in and wait for a block that never comes.
 */
export async function receiptOf<R extends object>(url: string, hash: string, timeoutMs = 60_000): Promise<R> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const receipt = await jsonRpc<R | null>(url, 'eth_getTransactionReceipt', [hash]);
    if (receipt !== null) return receipt;
    if (Date.now() > deadline) throw new Error(`no receipt for ${hash} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
