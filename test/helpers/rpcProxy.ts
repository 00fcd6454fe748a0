import { createServer, type Server } from 'node:http';

/** One JSON-RPC request the proxy saw. */
export interface ProxiedRequest {
  readonly method: string;
  readonly params: unknown[];
}

/** A JSON-RPC error the proxy answers instead of the node. */
export interface ProxyRefusal {
  readonly code: number;
  readonly message: string;
}

/** A recording JSON-RPC proxy in front of a node. */
export interface RpcProxy {
  readonly url: string;
  /** Every request, in order (batch members one by one). */
  readonly log: ProxiedRequest[];
  close(): Promise<void>;
}

/**
 * An HTTP proxy in front of a JSON-RPC node that records every request; `refuse` (called per single request) may
 * answer a JSON-RPC error in the node's place (a method the endpoint lacks, a log range it will not serve).
 */
export async function rpcProxy(
  target: string,
  refuse: (request: ProxiedRequest) => ProxyRefusal | undefined | Promise<ProxyRefusal | undefined> = () => undefined,
): Promise<RpcProxy> {
  const log: ProxiedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString();
      const parsed = JSON.parse(body) as (ProxiedRequest & { id: number }) | (ProxiedRequest & { id: number })[];
      for (const r of Array.isArray(parsed) ? parsed : [parsed]) log.push({ method: r.method, params: r.params });
      const refusal = Array.isArray(parsed) ? undefined : await refuse(parsed);
      if (refusal && !Array.isArray(parsed)) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: parsed.id, error: refusal }));
        return;
      }
      const upstream = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      res.writeHead(upstream.status, { 'content-type': 'application/json' });
      res.end(await upstream.text());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { url: `http://127.0.0.1:${port}`, log, close: () => new Promise((r) => server.close(() => r())) };
}
