import {
  type Hex,
  type Log,
  type PublicClient,
  parseAbi,
  parseEventLogs,
  type Transaction,
  TransactionNotFoundError,
  type TransactionReceipt,
  TransactionReceiptNotFoundError,
  toEventSelector,
} from 'viem';
import { acrossDepositOf, findAcrossFill } from '../bridge/acrossFill.ts';
import { type Catalog, NATIVE_TOKEN_ADDRESS } from '../catalog/Catalog.ts';
import { ChainClients } from '../chain/chainClients.ts';
import { firstBlockAtOrAfter } from '../chain/firstBlockAtOrAfter.ts';
import { logsInRange, topicOf } from '../chain/logsInRange.ts';
import { ServiceUnavailableError, ValidationError } from '../errors/BaseError.ts';
import type { Quote } from './Quote.ts';
import { isExpired } from './quoteLifecycle.ts';

/** What GET /quotes/{id}/status says of a transaction. */
export type TxStatus = 'pending' | 'success' | 'failed' | 'not_found' | 'expired';

/** The answer of GET /quotes/{id}/status. */
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
  /**
   * Cross-chain quotes only: for the hash of the deposit step, what followed it (the fill, the destination swap);
   * null for any other hash.
   */
  bridge?: BridgeTxStatus | null;
}

/** What followed a cross-chain quote's deposit (QuoteTxStatus.bridge). */
export interface BridgeTxStatus {
  /** The SpokePool's deposit id (integer string, FundsDeposited) once the deposit is mined and succeeded; else null. */
  depositId: string | null;
  /** The relayer's fill on the destination chain; null until the deposit succeeded. */
  fill: BridgeFillStatus | null;
  /** The quote's last destination step once the fill arrived; null when the quote has none or the fill has not arrived. */
  destinationSwap: DestinationTxStatus | null;
}

/**
 * pending: not filled yet and the fill deadline has not passed on the destination; filled: a FilledRelay (or
 * FilledV3Relay) for this deposit; expired: not filled by its fill deadline: it never will be, and the SpokePool
 * refunds the depositor on the origin chain.
 */
export interface BridgeFillStatus {
  status: 'pending' | 'filled' | 'expired';
  txHash: string | null;
  blockNumber: number | null;
  /** The amount the relayer paid (integer string, the bridged output token's smallest units). */
  outputAmount: string | null;
}

/** success: the last destination step found mined on the destination chain; not_found: not (yet) sent, or it reverted. */
export interface DestinationTxStatus {
  status: 'success' | 'not_found';
  txHash: string | null;
  blockNumber: number | null;
}

const TX_HASH = /^0x[0-9a-fA-F]{64}$/;
const EVENTS = parseAbi([
  'event Transfer(address indexed from, address indexed to, uint256 value)',
  'event Withdrawal(address indexed src, uint256 wad)',
  'event Deposit(address indexed dst, uint256 wad)',
]);
const [TRANSFER, , DEPOSIT] = EVENTS.map((event) => toEventSelector(event));

/** Seconds the destination search starts before the deposit's block time: the two chains' clocks may differ a little. */
export const CLOCK_MARGIN_SECONDS = 120;
/** Candidate transactions fetched per status read when looking for the destination step by its logs. */
const DESTINATION_CANDIDATES = 20;

/** Parses the `txHash` query value: a 32-byte hex hash, or a 400 naming the field. */
export function parseTxHash(value: string | undefined): Hex {
  if (value === undefined) throw new ValidationError('txHash: is required');
  if (!TX_HASH.test(value)) throw new ValidationError('txHash: must be a transaction hash (0x followed by 64 hex digits)');
  return value.toLowerCase() as Hex;
}

/**
 * What a transaction delivered to `recipient` of `tokenOut` on a chain: its Transfer logs; the native asset: the
 * unwraps (Withdrawal logs of the chain's wrapped native token); the wrapped native token: also the wraps credited to
 * the recipient (Deposit logs).
 */
function received(logs: readonly Log[], tokenOut: string, recipientAddress: string, wrappedNative: string): bigint {
  const native = tokenOut.toLowerCase() === NATIVE_TOKEN_ADDRESS.toLowerCase();
  const token = (native ? wrappedNative : tokenOut).toLowerCase();
  const wrapped = token === wrappedNative.toLowerCase();
  const recipient = recipientAddress.toLowerCase();
  let sum = 0n;
  for (const log of parseEventLogs({ abi: EVENTS, logs: logs as Log[] })) {
    if (log.address.toLowerCase() !== token) continue;
    if (!native && log.eventName === 'Transfer' && log.args.to.toLowerCase() === recipient) sum += log.args.value;
    if (!native && wrapped && log.eventName === 'Deposit' && log.args.dst.toLowerCase() === recipient) sum += log.args.wad;
    if (native && log.eventName === 'Withdrawal') sum += log.args.wad;
  }
  return sum;
}

/** (amountOut − amountReceived) × 10000 / amountOut, rounded toward zero; null when amountOut is 0. */
function slippageBps(amountOut: string, amountReceived: bigint): number | null {
  const quoted = BigInt(amountOut);
  return quoted > 0n ? Number(((quoted - amountReceived) * 10_000n) / quoted) : null;
}

/** Whether a transaction sends `step` (its sender, target and calldata). */
function sends(tx: Transaction, step: Quote['steps'][number]): boolean {
  return (
    step.from.toLowerCase() === tx.from.toLowerCase() &&
    step.to.toLowerCase() === tx.to?.toLowerCase() &&
    step.data.toLowerCase() === tx.input.toLowerCase()
  );
}

/** A transaction of the quote found on one of its chains. */
interface SentTx {
  readonly chainId: number;
  readonly client: PublicClient;
  readonly tx: Transaction;
}

/**
 * Reads what became of a quote's transaction on its chain (GET /quotes/{id}/status): through the chain's
 * RPC_URL_<chainId>, one client per chain. A hash that is not one of the quote's steps (its sender, target and
 * calldata) is refused. A cross-chain quote needs both chains' RPC URLs: its hash is looked up on the origin chain,
 * then the destination; the deposit's hash also reports the fill and the destination step (crossChain).
 */
export class QuoteTxStatusReader {
  readonly #clients: ChainClients;

  constructor(
    private readonly deps: { readonly catalog: Catalog; readonly rpcUrls: ReadonlyMap<number, string>; readonly now?: () => number },
  ) {
    this.#clients = new ChainClients(deps.rpcUrls);
  }

  async status(quote: Quote, txHash: Hex): Promise<QuoteTxStatus> {
    const crossChain = quote.originChainId !== quote.destinationChainId;
    const chains = crossChain ? [quote.originChainId, quote.destinationChainId] : [quote.originChainId];
    const clients = chains.map((chainId) => ({ chainId, client: this.client(chainId) }));
    const base = { quoteId: quote.quoteId, txHash, amountOut: quote.amountOut, amountOutMinimum: quote.amountOutMinimum };
    const none = { step: null, blockNumber: null, gasUsed: null, amountReceived: null, realizedSlippageBps: null };
    const extra = crossChain ? { bridge: null } : {};
    let sent: SentTx | undefined;
    for (const { chainId, client } of clients) {
      const tx = await this.read(() => client.getTransaction({ hash: txHash }));
      if (tx) {
        sent = { chainId, client, tx };
        break;
      }
    }
    if (!sent) return { ...base, status: isExpired(quote, (this.deps.now ?? Date.now)()) ? 'expired' : 'not_found', ...none, ...extra };
    const { chainId, client, tx } = sent;
    const step = quote.steps.findIndex((s) => s.chainId === chainId && sends(tx, s));
    if (step < 0) throw new ValidationError(`transaction ${txHash} is not a step of quote ${quote.quoteId}`);
    const receipt = tx.blockNumber === null ? undefined : await this.read(() => client.getTransactionReceipt({ hash: txHash }));
    if (!receipt) return { ...base, status: 'pending', ...none, step, ...extra };
    const success = receipt.status === 'success';
    const amountReceived = success ? received(receipt.logs, quote.tokenOut.address, quote.recipientAddress, this.wrapped(chainId)) : 0n;
    const last = step === quote.steps.length - 1;
    const status: QuoteTxStatus = {
      ...base,
      status: success ? 'success' : 'failed',
      step,
      blockNumber: Number(receipt.blockNumber),
      gasUsed: receipt.gasUsed.toString(),
      amountReceived: amountReceived.toString(),
      realizedSlippageBps: success && last ? slippageBps(quote.amountOut, amountReceived) : null,
      ...extra,
    };
    // The deposit is the last origin step (buildBridgeRouteSteps).
    const depositStep = quote.steps.filter((s) => s.chainId === quote.originChainId).length - 1;
    if (!crossChain || step !== depositStep || !success) return status;
    return this.crossChain(quote, status, receipt, clients[1].client);
  }

  /**
   * What followed a successful deposit: its FundsDeposited (depositId), the fill on the destination chain searched from
   * the destination block at the deposit's time (less CLOCK_MARGIN_SECONDS) to the head, or to the fill deadline once
   * it has passed; then the quote's last destination step, searched by the logs it leaves for the recipient from the
   * fill's block to the head (or to its deadline). amountReceived and realizedSlippageBps become what the recipient
   * received on the destination chain: from the fill when the quote has no destination step, else from that step;
   * null until it arrived.
   */
  private async crossChain(quote: Quote, status: QuoteTxStatus, receipt: TransactionReceipt, client: PublicClient): Promise<QuoteTxStatus> {
    const pending = { ...status, amountReceived: null, realizedSlippageBps: null };
    const details = quote.bridge;
    const deposit = details ? acrossDepositOf(receipt.logs, details.originSpokePool) : undefined;
    if (!details || !deposit) return { ...pending, bridge: { depositId: null, fill: null, destinationSwap: null } };
    const origin = this.client(quote.originChainId);
    const depositTime = Number((await this.chainRead(() => origin.getBlock({ blockNumber: receipt.blockNumber }))).timestamp);
    const head = await this.chainRead(() => client.getBlock({ blockTag: 'latest' }));
    const fromBlock = await this.chainRead(() => firstBlockAtOrAfter(client, depositTime - CLOCK_MARGIN_SECONDS, 0n, head.number));
    const deadlinePassed = Number(head.timestamp) > deposit.fillDeadline;
    const toBlock = deadlinePassed
      ? (await this.chainRead(() => firstBlockAtOrAfter(client, deposit.fillDeadline + 1, fromBlock, head.number))) - 1n
      : head.number;
    const fill = await this.chainRead(() =>
      findAcrossFill(client, { spokePool: details.destinationSpokePool, originChainId: quote.originChainId, deposit, fromBlock, toBlock }),
    );
    const depositId = deposit.depositId.toString();
    if (!fill) {
      const unfilled = { status: deadlinePassed ? 'expired' : 'pending', txHash: null, blockNumber: null, outputAmount: null } as const;
      return { ...pending, bridge: { depositId, fill: unfilled, destinationSwap: null } };
    }
    const fillStatus = {
      status: 'filled',
      txHash: fill.txHash,
      blockNumber: Number(fill.blockNumber),
      outputAmount: fill.outputAmount.toString(),
    } as const;
    const wrapped = this.wrapped(quote.destinationChainId);
    const lastStep = quote.steps.length - 1;
    if (quote.steps[lastStep].chainId !== quote.destinationChainId) {
      const fillReceipt = await this.chainRead(() => client.getTransactionReceipt({ hash: fill.txHash }));
      const amountReceived = received(fillReceipt.logs, quote.tokenOut.address, quote.recipientAddress, wrapped);
      return {
        ...status,
        amountReceived: amountReceived.toString(),
        realizedSlippageBps: slippageBps(quote.amountOut, amountReceived),
        bridge: { depositId, fill: fillStatus, destinationSwap: null },
      };
    }
    const found = await this.destinationStep(quote, client, fill.blockNumber, head.number);
    if (!found) {
      const notFound = { status: 'not_found', txHash: null, blockNumber: null } as const;
      return { ...pending, bridge: { depositId, fill: fillStatus, destinationSwap: notFound } };
    }
    const amountReceived = received(found.logs, quote.tokenOut.address, quote.recipientAddress, wrapped);
    return {
      ...status,
      amountReceived: amountReceived.toString(),
      realizedSlippageBps: slippageBps(quote.amountOut, amountReceived),
      bridge: {
        depositId,
        fill: fillStatus,
        destinationSwap: { status: 'success', txHash: found.transactionHash, blockNumber: Number(found.blockNumber) },
      },
    };
  }

  /**
   * The successful receipt of the quote's last destination step in blocks [fromBlock, head] (up to the step's
   * deadline): candidates are the transactions with a log that step leaves, Transfer of tokenOut to the recipient (a
   * wrapped native tokenOut: also its Deposit to the recipient; a native tokenOut: Transfer of the bridged token from the
   * wallet), the first DESTINATION_CANDIDATES of them checked against the step's sender, target and calldata. A
   * reverted step leaves no log: it is found by its own hash only.
   */
  private async destinationStep(
    quote: Quote,
    client: PublicClient,
    fromBlock: bigint,
    head: bigint,
  ): Promise<TransactionReceipt | undefined> {
    const step = quote.steps[quote.steps.length - 1];
    const wrapped = this.wrapped(quote.destinationChainId).toLowerCase();
    const tokenOut = quote.tokenOut.address.toLowerCase();
    const recipient = topicOf(quote.recipientAddress);
    const filters =
      tokenOut === NATIVE_TOKEN_ADDRESS.toLowerCase()
        ? [{ address: quote.bridge!.outputToken.address, topics: [TRANSFER, topicOf(step.from)] }]
        : [
            { address: tokenOut, topics: [TRANSFER, null, recipient] },
            ...(tokenOut === wrapped ? [{ address: tokenOut, topics: [DEPOSIT, recipient] }] : []),
          ];
    const deadline = quote.bridge!.destinationSwap?.deadline;
    const block = await this.chainRead(() => client.getBlock({ blockNumber: head }));
    const toBlock =
      deadline !== undefined && Number(block.timestamp) > deadline
        ? (await this.chainRead(() => firstBlockAtOrAfter(client, deadline + 1, fromBlock, head))) - 1n
        : head;
    const hashes = new Set<Hex>();
    for (const filter of filters) {
      for (const log of await this.chainRead(() => logsInRange(client, filter, fromBlock, toBlock))) hashes.add(log.transactionHash as Hex);
    }
    for (const hash of [...hashes].slice(0, DESTINATION_CANDIDATES)) {
      const tx = await this.chainRead(() => client.getTransaction({ hash }));
      if (!sends(tx, step)) continue;
      const receipt = await this.chainRead(() => client.getTransactionReceipt({ hash }));
      if (receipt.status === 'success') return receipt;
    }
    return undefined;
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

  /** A read that must answer: 503 when the node cannot. */
  private async chainRead<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      throw new ServiceUnavailableError('the chain could not be read: try again', { cause: error });
    }
  }

  private wrapped(chainId: number): string {
    return this.deps.catalog.chain(chainId)?.wrappedNativeToken ?? '';
  }

  private client(chainId: number): PublicClient {
    const client = this.#clients.client(chainId);
    if (!client) throw new ValidationError(`status needs an RPC URL for chain ${chainId} (RPC_URL_${chainId})`);
    return client;
  }
}
