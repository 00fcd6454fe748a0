import { type Address, erc20Abi, type PublicClient } from 'viem';
import { allowanceKey } from '../bridge/buildBridgeRouteSteps.ts';
import type { ChainClients } from '../chain/chainClients.ts';
import { permit2Abi } from '../tx/abis.ts';
import type { Permit2Allowance } from '../tx/approveStep.ts';
import type { Step } from '../tx/Step.ts';

/** What was read of a sender's Permit2 allowances of one token: per spender (lower case), or why they were not read. */
export type Permit2AllowanceRead = { readonly allowances: ReadonlyMap<string, Permit2Allowance> } | { readonly unread: string };

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

  /** Whether the chain has an RPC URL (RPC_URL_<chainId>) to read from. */
  canRead(chainId: number): boolean {
    return this.clients.client(chainId) !== undefined;
  }

  async read(chainId: number, token: string, owner: string, spenders: readonly string[]): Promise<AllowanceRead> {
    return this.perSpender(chainId, owner, spenders, (client, spender) =>
      client.readContract({
        address: token as Address,
        abi: erc20Abi,
        functionName: 'allowance',
        args: [owner as Address, spender as Address],
      }),
    );
  }

  /**
   * Reads a sender's Permit2 allowances of `token` (Permit2.allowance(owner, token, spender): amount, expiration and
   * the next nonce of a signed permit), per spender (the Universal Router), as read() does the ERC-20 allowances.
   */
  async readPermit2(
    chainId: number,
    permit2: string,
    token: string,
    owner: string,
    spenders: readonly string[],
  ): Promise<Permit2AllowanceRead> {
    return this.perSpender(chainId, owner, spenders, async (client, spender) => {
      const [amount, expiration, nonce] = await client.readContract({
        address: permit2 as Address,
        abi: permit2Abi,
        functionName: 'allowance',
        args: [owner as Address, token as Address, spender as Address],
      });
      return { amount, expiration, nonce };
    });
  }

  /** One read per distinct spender (lower case) through the chain's client, or why none could be made. */
  private async perSpender<T>(
    chainId: number,
    owner: string,
    spenders: readonly string[],
    readOne: (client: PublicClient, spender: string) => Promise<T>,
  ): Promise<{ readonly allowances: ReadonlyMap<string, T> } | { readonly unread: string }> {
    const client = this.clients.client(chainId);
    if (!client) return { unread: allowancesUnread(owner, `no RPC URL for chain ${chainId} (RPC_URL_${chainId})`) };
    const unique = [...new Set(spenders.map((s) => s.toLowerCase()))];
    try {
      const values = await Promise.all(unique.map((spender) => readOne(client, spender)));
      return { allowances: new Map(unique.map((spender, i) => [spender, values[i]])) };
    } catch {
      return { unread: allowancesUnread(owner, `chain ${chainId} could not be read`) };
    }
  }
}

/**
 * The allowances of `owner` that a quote's approval steps give (steps with a `spender`, on any chain), read per chain
 * and token, keyed by allowanceKey(chainId, token, spender); what could not be read is left out, and `unread` says
 * why (the first chain that failed).
 */
export async function readStepAllowances(
  reader: AllowanceReader,
  owner: string,
  steps: readonly Step[],
): Promise<{ readonly allowances: ReadonlyMap<string, bigint>; readonly unread?: string }> {
  const spenders = new Map<string, { chainId: number; token: string; spenders: string[] }>();
  for (const step of steps) {
    if (!step.spender) continue;
    const group = `${step.chainId}:${step.to.toLowerCase()}`;
    const entry = spenders.get(group) ?? { chainId: step.chainId, token: step.to, spenders: [] };
    entry.spenders.push(step.spender);
    spenders.set(group, entry);
  }
  const allowances = new Map<string, bigint>();
  let unread: string | undefined;
  for (const { chainId, token, spenders: list } of spenders.values()) {
    const read = await reader.read(chainId, token, owner, list);
    if ('unread' in read) unread ??= read.unread;
    else for (const [spender, value] of read.allowances) allowances.set(allowanceKey(chainId, token, spender), value);
  }
  return unread === undefined ? { allowances } : { allowances, unread };
}
