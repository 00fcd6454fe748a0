import { type Address, erc20Abi } from 'viem';
import type { ChainClients } from '../chain/chainClients.ts';

/** What was read of a sender's allowances: per spender (lower case), or why they were not read (the warning's text). */
export type AllowanceRead = { readonly allowances: ReadonlyMap<string, bigint> } | { readonly unread: string };

/** The text of warning ALLOWANCE_NOT_READ: whose allowances were not read, and why. */
export function allowancesUnread(owner: string, reason: string): string {
  return `the allowances of ${owner} were not read: ${reason}; the steps approve as they do without a sender`;
}

/**
 * Reads a sender's current ERC-20 allowances (POST /quotes `sender`) through the chain's RPC_URL_<chainId>, at the
 * node's latest block. A chain without an RPC URL, or a node that cannot answer, is not an error: the quote keeps the
 * approvals it has without a sender and says why (warning ALLOWANCE_NOT_READ).
 */
export class AllowanceReader {
  constructor(private readonly clients: ChainClients) {}

  async read(chainId: number, token: string, owner: string, spenders: readonly string[]): Promise<AllowanceRead> {
    const client = this.clients.client(chainId);
    if (!client) return { unread: allowancesUnread(owner, `no RPC URL for chain ${chainId} (RPC_URL_${chainId})`) };
    const unique = [...new Set(spenders.map((s) => s.toLowerCase()))];
    try {
      const values = await Promise.all(
        unique.map((spender) =>
          client.readContract({
            address: token as Address,
            abi: erc20Abi,
            functionName: 'allowance',
            args: [owner as Address, spender as Address],
          }),
        ),
      );
      return { allowances: new Map(unique.map((spender, i) => [spender, values[i]])) };
    } catch {
      return { unread: allowancesUnread(owner, `chain ${chainId} could not be read`) };
    }
  }
}
