import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context } from 'koa';
import type { Catalog } from '../catalog/Catalog.ts';
import type { PoolGraph } from '../graph/PoolGraph.ts';
import { pricingGraphOf } from '../graph/PricingGraph.ts';

/** Header of the process's own warm-up requests: its value is the token only this process knows. */
export const WARM_UP_HEADER = 'x-warm-up';

/** A fresh random token for one process's warm-up requests (never logged, never sent anywhere but to itself). */
export function createWarmUpToken(): string {
  return randomBytes(16).toString('hex');
}

/** Whether a request is the process's own warm-up request (it carries the token): such requests are not rate limited. */
export function isWarmUpRequest(ctx: Pick<Context, 'get'>, token: string): boolean {
  const presented = Buffer.from(ctx.get(WARM_UP_HEADER));
  const expected = Buffer.from(token);
  return presented.length === expected.length && timingSafeEqual(presented, expected);
}

/** One request the process sends itself once it listens. */
interface WarmUpRequest {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly body?: string;
}

/** Any valid address: nothing is sent on chain. */
const RECIPIENT = '0x1111111111111111111111111111111111111111';

/**
 * The requests that build what the first real requests would otherwise build (ready means ready): the catalogue
 * bodies (serialized once and kept) and, on each chain with pool state, one default POST /quotes/routes from the
 * wrapped native token to its first other base token (request validation, the route views, a worker round trip).
 */
export function warmUpRequests(catalog: Catalog, graph: PoolGraph): WarmUpRequest[] {
  const requests: WarmUpRequest[] = [
    { method: 'GET', path: '/blockchains' },
    { method: 'GET', path: '/blockchains/tokens' },
  ];
  for (const chainId of graph.chainIds()) {
    const chain = catalog.chain(chainId);
    // The bases routing uses (the catalogue's, or those chosen from the pools when it names none).
    const index = pricingGraphOf(graph, catalog).chain(chainId);
    const base = index?.baseTokens.find((t) => t !== index.wrappedNative);
    const tokenOut = base && index?.token(base)?.address;
    if (!chain || !tokenOut) continue;
    const body = {
      originChainId: chainId,
      destinationChainId: chainId,
      tokenIn: chain.wrappedNativeToken,
      tokenOut,
      amount: '1',
      recipientAddress: RECIPIENT,
    };
    requests.push({ method: 'POST', path: '/quotes/routes', body: JSON.stringify(body) });
  }
  return requests;
}

/**
 * Sends the warm-up requests to this process, one at a time, with its token (they count against no rate limit); whatever they answer (a chain may have no route for
 * its sample pair), the warm-up is done when the last has answered or failed.
 */
export async function sendWarmUpRequests(baseUrl: string, requests: readonly WarmUpRequest[], token: string): Promise<void> {
  for (const r of requests) {
    try {
      const headers: Record<string, string> = { [WARM_UP_HEADER]: token };
      if (r.body !== undefined) headers['content-type'] = 'application/json';
      const res = await fetch(baseUrl + r.path, { method: r.method, body: r.body, headers });
      await res.arrayBuffer();
    } catch {
      // A request that fails warms less; readiness does not depend on it.
    }
  }
}
