import { createPublicClient, http, type PublicClient } from 'viem';

/**
 * The API's clients of the chains it reads at request time (quote status, allowances): one client per chain with an
 * RPC_URL_<chainId>, made on first use. Reads are short: one retry, 10 s timeout.
 */
export class ChainClients {
  readonly #clients = new Map<number, PublicClient>();

  constructor(private readonly rpcUrls: ReadonlyMap<number, string>) {}

  /** The chain's client; undefined when the chain has no RPC URL. */
  client(chainId: number): PublicClient | undefined {
    const url = this.rpcUrls.get(chainId);
    if (!url) return undefined;
    let client = this.#clients.get(chainId);
    if (!client) {
      client = createPublicClient({ transport: http(url, { retryCount: 1, timeout: 10_000 }) }) as PublicClient;
      this.#clients.set(chainId, client);
    }
    return client;
  }
}
