import {
  type Hex,
  type Log,
  type PublicClient,
  parseAbi,
  parseEventLogs,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
} from 'viem';
import { type Catalog, NATIVE_TOKEN_ADDRESS } from '../catalog/Catalog.ts';
import { ChainClients } from '../chain/chainClients.ts';
import { ServiceUnavailableError, ValidationError } from '../errors/BaseError.ts';
import { isExpired } from './quoteLifecycle.ts';
import type { Quote } from './quoteService.ts';

/** What GET /quotes/{id}/status says of a transaction. */
export type TxStatus = 'pending' | 'success' | 'failed' | 'not_found' | 'expired';

/** The answer of GET /quotes/{id}/status (same-chain quotes). */
export interface QuoteTxStatus {
  quoteId: string;
  txHash: string;
  /**
   * pending: known to the node, not mined; success / failed: mined, by its receipt; not_found: unknown to the node;
   * expired: unknown and the quote's deadline has passed (its steps can no longer succeed).
   */
  status: TxStatus;
  /** Index in the quote's steps of the step this transaction sends; null when not_found or expired. */
  step: number | null;
  blockNumber: number | null;
  gasUsed: string | null;
  amountOut: string;
  amountOutMinimum: string;
  /** Mined transactions: tokenOut the recipient received in this transaction (Transfer logs; native: the unwrap). */
  amountReceived: string | null;
  /** Successful last step: (amountOut − amountReceived) × 10000 / amountOut, rounded toward zero (negative: more than quoted). */
  realizedSlippageBps: number | null;
}

const TX_HASH = /^0x[0-9a-fA-F]{64}$/;
const EVENTS = parseAbi([
  'event Transfer(address indexed from, address indexed to, uint256 value)',
  'event Withdrawal(address indexed src, uint256 wad)',
]);

/** Parses the `txHash` query value: a 32-byte hex hash, or a 400 naming the field. */
export function parseTxHash(value: string | undefined): Hex {
  if (value === undefined) throw new ValidationError('txHash: is required');
  if (!TX_HASH.test(value)) throw new ValidationError('txHash: must be a transaction hash (0x followed by 64 hex digits)');
  return value.toLowerCase() as Hex;
}

/** What a transaction delivered to `recipient` of the quote's tokenOut: its Transfer logs; the native asset: the unwraps. */
function received(logs: readonly Log[], quote: Quote, wrappedNative: string): bigint {
  const native = quote.tokenOut.address.toLowerCase() === NATIVE_TOKEN_ADDRESS.toLowerCase();
  const token = (native ? wrappedNative : quote.tokenOut.address).toLowerCase();
  const recipient = quote.recipientAddress.toLowerCase();
  let sum = 0n;
  for (const log of parseEventLogs({ abi: EVENTS, logs: logs as Log[] })) {
    if (log.address.toLowerCase() !== token) continue;
    if (!native && log.eventName === 'Transfer' && log.args.to.toLowerCase() === recipient) sum += log.args.value;
    if (native && log.eventName === 'Withdrawal') sum += log.args.wad;
  }
  return sum;
}

/**
 * Reads what became of a quote's transaction on its chain (GET /quotes/{id}/status): through the chain's
 * RPC_URL_<chainId>, one client per chain. Same-chain quotes only; a hash that is not one of the quote's steps (its
 * sender, target and calldata) is refused.
 */
export class QuoteTxStatusReader {
  readonly #clients: ChainClients;

  constructor(
    private readonly deps: { readonly catalog: Catalog; readonly rpcUrls: ReadonlyMap<number, string>; readonly now?: () => number },
  ) {
    this.#clients = new ChainClients(deps.rpcUrls);
  }

  async status(quote: Quote, txHash: Hex): Promise<QuoteTxStatus> {
    if (quote.originChainId !== quote.destinationChainId)
      throw new ValidationError(`status covers same-chain quotes only: quote ${quote.quoteId} is cross-chain`);
    const client = this.client(quote.originChainId);
    const base = { quoteId: quote.quoteId, txHash, amountOut: quote.amountOut, amountOutMinimum: quote.amountOutMinimum };
    const none = { step: null, blockNumber: null, gasUsed: null, amountReceived: null, realizedSlippageBps: null };
    const tx = await this.read(() => client.getTransaction({ hash: txHash }));
    if (!tx) return { ...base, status: isExpired(quote, (this.deps.now ?? Date.now)()) ? 'expired' : 'not_found', ...none };
    const step = quote.steps.findIndex(
      (s) =>
        s.chainId === quote.originChainId &&
        s.from.toLowerCase() === tx.from.toLowerCase() &&
        s.to.toLowerCase() === tx.to?.toLowerCase() &&
        s.data.toLowerCase() === tx.input.toLowerCase(),
    );
    if (step < 0) throw new ValidationError(`transaction ${txHash} is not a step of quote ${quote.quoteId}`);
    const receipt = tx.blockNumber === null ? undefined : await this.read(() => client.getTransactionReceipt({ hash: txHash }));
    if (!receipt) return { ...base, status: 'pending', ...none, step };
    const success = receipt.status === 'success';
    const wrapped = this.deps.catalog.chain(quote.originChainId)?.wrappedNativeToken ?? '';
    const amountReceived = success ? received(receipt.logs, quote, wrapped) : 0n;
    const amountOut = BigInt(quote.amountOut);
    const last = step === quote.steps.length - 1;
    return {
      ...base,
      status: success ? 'success' : 'failed',
      step,
      blockNumber: Number(receipt.blockNumber),
      gasUsed: receipt.gasUsed.toString(),
      amountReceived: amountReceived.toString(),
      realizedSlippageBps: success && last && amountOut > 0n ? Number(((amountOut - amountReceived) * 10_000n) / amountOut) : null,
    };
  }

  /** A read that answers undefined for "not found" and 503 when the node cannot answer. */
  private async read<T>(call: () => Promise<T>): Promise<T | undefined> {
    try {
      return await call();
    } catch (error) {
      if (error instanceof TransactionNotFoundError || error instanceof TransactionReceiptNotFoundError) return undefined;
      throw new ServiceUnavailableError('the chain could not be read: try again', { cause: error });
    }
  }

  private client(chainId: number): PublicClient {
    const client = this.#clients.client(chainId);
    if (!client) throw new ValidationError(`status needs an RPC URL for chain ${chainId} (RPC_URL_${chainId})`);
    return client;
  }
}
