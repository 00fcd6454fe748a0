import { type Hex, type Log, type PublicClient, parseAbi, parseEventLogs, toEventSelector } from 'viem';
import { logsInRange, topicOf } from '../chain/logsInRange.ts';

/**
 * The Across SpokePool events a cross-chain status reads, as `@across-protocol/contracts` 5.x declares them: the
 * origin's FundsDeposited, and on the destination FilledRelay (what the deployed SpokePools emit since the
 * bytes32-address upgrade) or FilledV3Relay (what the SpokePools before it emitted, addresses as `address` and a
 * uint32 depositId; the indexed topics are encoded alike, so one eth_getLogs finds either).
 */
const ACROSS_EVENTS = parseAbi([
  'event FundsDeposited(bytes32 inputToken, bytes32 outputToken, uint256 inputAmount, uint256 outputAmount, uint256 indexed destinationChainId, uint256 indexed depositId, uint32 quoteTimestamp, uint32 fillDeadline, uint32 exclusivityDeadline, bytes32 indexed depositor, bytes32 recipient, bytes32 exclusiveRelayer, bytes message)',
  'event FilledRelay(bytes32 inputToken, bytes32 outputToken, uint256 inputAmount, uint256 outputAmount, uint256 repaymentChainId, uint256 indexed originChainId, uint256 indexed depositId, uint32 fillDeadline, uint32 exclusivityDeadline, bytes32 exclusiveRelayer, bytes32 indexed relayer, bytes32 depositor, bytes32 recipient, bytes32 messageHash, (bytes32 updatedRecipient, bytes32 updatedMessageHash, uint256 updatedOutputAmount, uint8 fillType) relayExecutionInfo)',
  'event FilledV3Relay(address inputToken, address outputToken, uint256 inputAmount, uint256 outputAmount, uint256 repaymentChainId, uint256 indexed originChainId, uint32 indexed depositId, uint32 fillDeadline, uint32 exclusivityDeadline, address exclusiveRelayer, address indexed relayer, address depositor, address recipient, bytes message, (address updatedRecipient, bytes updatedMessage, uint256 updatedOutputAmount, uint8 fillType) relayExecutionInfo)',
]);
const FILL_TOPICS = [toEventSelector(ACROSS_EVENTS[1]), toEventSelector(ACROSS_EVENTS[2])];

/** An Across deposit as its origin FundsDeposited event states it (addresses lower case, 20 bytes). */
export interface AcrossDeposit {
  readonly depositId: bigint;
  readonly destinationChainId: bigint;
  readonly inputToken: string;
  readonly outputToken: string;
  readonly inputAmount: bigint;
  readonly outputAmount: bigint;
  readonly depositor: string;
  readonly recipient: string;
  /** Destination Unix seconds after which the deposit can no longer be filled (it is refunded on the origin). */
  readonly fillDeadline: number;
}

/** A destination fill of an Across deposit. */
export interface AcrossFill {
  readonly txHash: Hex;
  readonly blockNumber: bigint;
  /** What the relayer paid (relayExecutionInfo.updatedOutputAmount: outputAmount unless the depositor sped it up). */
  readonly outputAmount: bigint;
  readonly relayer: string;
}

/** The 20-byte address of a bytes32 or address value, lower case. */
function address20(value: string): string {
  return `0x${value.slice(-40)}`.toLowerCase();
}

/** The FundsDeposited event `spokePool` emitted among a receipt's logs; undefined when there is none. */
export function acrossDepositOf(logs: readonly Log[], spokePool: string): AcrossDeposit | undefined {
  const pool = spokePool.toLowerCase();
  const [event] = parseEventLogs({ abi: ACROSS_EVENTS, eventName: 'FundsDeposited', logs: logs as Log[] }).filter(
    (log) => log.address.toLowerCase() === pool,
  );
  if (!event) return undefined;
  const a = event.args;
  return {
    depositId: a.depositId,
    destinationChainId: a.destinationChainId,
    inputToken: address20(a.inputToken),
    outputToken: address20(a.outputToken),
    inputAmount: a.inputAmount,
    outputAmount: a.outputAmount,
    depositor: address20(a.depositor),
    recipient: address20(a.recipient),
    fillDeadline: a.fillDeadline,
  };
}

/** The relay data of a fill event compared with the deposit: the deposit's fields (bytes32 or address values alike). */
type FillRelayData = Omit<AcrossDeposit, 'depositId' | 'destinationChainId'>;

/** Whether a fill event's relay data is the deposit's (a fill with other data pays, but fills another relay hash). */
function fillsDeposit(args: FillRelayData, deposit: AcrossDeposit): boolean {
  return (
    address20(args.inputToken) === deposit.inputToken &&
    address20(args.outputToken) === deposit.outputToken &&
    args.inputAmount === deposit.inputAmount &&
    args.outputAmount === deposit.outputAmount &&
    address20(args.depositor) === deposit.depositor &&
    address20(args.recipient) === deposit.recipient &&
    args.fillDeadline === deposit.fillDeadline
  );
}

/**
 * The destination fill of `deposit` (FilledRelay or FilledV3Relay by `spokePool`, topics originChainId and depositId,
 * relay data equal to the deposit's) in blocks [fromBlock, toBlock], read with eth_getLogs (logsInRange); undefined
 * when there is none in the range.
 */
export async function findAcrossFill(
  client: PublicClient,
  params: { spokePool: string; originChainId: number; deposit: AcrossDeposit; fromBlock: bigint; toBlock: bigint },
): Promise<AcrossFill | undefined> {
  const { deposit } = params;
  const fillOf = (logs: readonly Log[]): AcrossFill | undefined => {
    for (const fill of parseEventLogs({ abi: ACROSS_EVENTS, logs: logs as Log[] })) {
      if (fill.eventName === 'FundsDeposited' || !fillsDeposit(fill.args, deposit)) continue;
      return {
        txHash: fill.transactionHash as Hex,
        blockNumber: fill.blockNumber as bigint,
        outputAmount: fill.args.relayExecutionInfo.updatedOutputAmount,
        relayer: address20(fill.args.relayer),
      };
    }
    return undefined;
  };
  const filter = { address: params.spokePool, topics: [FILL_TOPICS, topicOf(BigInt(params.originChainId)), topicOf(deposit.depositId)] };
  return fillOf(await logsInRange(client, filter, params.fromBlock, params.toBlock, (logs) => fillOf(logs) !== undefined));
}
