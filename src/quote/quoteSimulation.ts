import {
  type Address,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  numberToHex,
  type PublicClient,
  parseAbi,
  parseEventLogs,
  type StateOverride,
  toHex,
  BaseError as ViemError,
} from 'viem';
import { NATIVE_TOKEN_ADDRESS } from '../catalog/Catalog.ts';
import type { ChainClients } from '../chain/chainClients.ts';
import { decodeRevert, type RevertReason } from '../chain/decodeRevert.ts';
import { findStorageSlot } from '../chain/findStorageSlot.ts';
import { ServiceUnavailableError, ValidationError } from '../errors/BaseError.ts';
import type { TradeType } from '../protocols/PoolProtocol.ts';
import type { Step } from '../tx/Step.ts';

/**
 * What a simulation reads of a saved quote (src/quote/Quote.ts Quote has these fields; named here so that this
 * file, whose result the Quote carries, does not import the service back).
 */
export interface SimulatedQuote {
  readonly quoteId: string;
  readonly tradeType: TradeType;
  readonly amountIn: string;
  readonly amountInMaximum: string;
  readonly amountOut: string;
  readonly originChainId: number;
  readonly destinationChainId: number;
  readonly recipientAddress: string;
  readonly tokenIn: { readonly address: string; readonly symbol: string };
  readonly tokenOut: { readonly address: string };
  readonly steps: readonly Step[];
}

/** How a step fared: run and succeeded, run and reverted, or not run because an earlier step reverted. */
export type SimulatedStepStatus = 'success' | 'reverted' | 'skipped';

/** One step of a simulated quote. */
export interface SimulatedStep {
  /** The step's message, as in the quote. */
  message: string;
  status: SimulatedStepStatus;
  /** Gas the step used (eth_simulateV1), or the gas eth_estimateGas needs for it (eth_call fallback); null when skipped. */
  gasUsed: string | null;
  /** simulatedGasLimit(gasUsed) of a successful step; null otherwise. */
  gasLimit: string | null;
  /** A reverted step: the decoded reason and the revert data; null otherwise. */
  revert: RevertReason | null;
}

/**
 * A state override the simulation applied: what the sender was given that it does not hold yet (balance), and with
 * the eth_call fallback the approvals of earlier steps carried to later ones (allowance).
 */
export interface SimulationOverride {
  /** balance: `holder`'s balance of `token` (NATIVE_TOKEN_ADDRESS: ether); allowance: `holder`'s for `spender`. */
  kind: 'balance' | 'allowance';
  token: string;
  holder: string;
  spender?: string;
  /** The value set, integer string in the token's smallest units. */
  value: string;
}

/** The answer of POST /quotes/{id}/simulate, and a quote's `simulation` when the request sets `simulate: true`. */
export interface QuoteSimulation {
  quoteId: string;
  chainId: number;
  /** The block whose state the steps ran on (the node's latest); they run in the block after it. */
  blockNumber: number;
  /** eth_simulateV1: the steps in order in one simulated block, each on the state the previous left; eth_call: see notes. */
  method: 'eth_simulateV1' | 'eth_call';
  sender: string;
  /** Every step succeeded. */
  success: boolean;
  /** The quote's amountOut. */
  amountOut: string;
  /**
   * What the recipient's tokenOut balance gained over the steps run (their Transfer logs; ether: the node's traced
   * transfers); equals amountOut when the state has not moved since the quote. Null with the eth_call fallback.
   */
  simulatedAmountOut: string | null;
  overrides: SimulationOverride[];
  steps: SimulatedStep[];
  /** What the simulation could not do as the chain would (empty when nothing). */
  notes: string[];
}

/**
 * The gas limit of a simulated step: gasUsed plus a quarter, plus 20,000. The quarter covers the gas refunds
 * gasUsed is net of (at most a fifth of the gas spent, EIP-3529) and the 1/64 a call keeps back (EIP-150); the
 * 20,000 covers what differs in the block the step is mined in: a v3 pool's oracle write in a new second (about
 * 5,000 a pool) and a few ticks more crossed.
 */
export function simulatedGasLimit(gasUsed: bigint): bigint {
  return (gasUsed * 5n + 3n) / 4n + 20_000n;
}

/** The simulation results kept in memory (per quote and block), oldest dropped first. */
const CACHE_SIZE = 1000;
const TRANSFER = parseAbi(['event Transfer(address indexed from, address indexed to, uint256 value)']);
/** Where eth_simulateV1 (traceTransfers) reports ether moved by calls: ERC-7528's address, the catalogue's native one. */
const ETHER_LOGS = NATIVE_TOKEN_ADDRESS.toLowerCase();

/** One call's result in eth_simulateV1's answer. */
interface SimulateV1Call {
  status: Hex;
  gasUsed: Hex;
  returnData: Hex;
  logs: { address: Address; topics: [Hex, ...Hex[]]; data: Hex }[];
  error?: { code: number; message: string; data?: Hex };
}

/**
 * Runs a saved same-chain quote's steps before they are signed (POST /quotes/{id}/simulate, POST /quotes
 * `simulate: true`) on the chain's RPC_URL_<chainId>, from the request's `sender`, at the node's latest block:
 * with eth_simulateV1 (the steps in order, each on the state the previous left), or where the node lacks it one
 * eth_call per step (see simulateByCalls). Balances the sender does not hold yet are given by state overrides
 * (`overrides`): ether as the account's balance, an ERC-20 through the storage slot its balanceOf reads
 * (findStorageSlot). Approvals are the quote's own steps. Results are kept per (quote, block).
 */
export class QuoteSimulator {
  readonly #cache = new Map<string, QuoteSimulation>();
  /** Chains whose node answered that it has no eth_simulateV1. */
  readonly #noSimulateV1 = new Set<number>();

  constructor(private readonly clients: ChainClients) {}

  async simulate(quote: SimulatedQuote, sender: Address): Promise<QuoteSimulation> {
    if (quote.originChainId !== quote.destinationChainId)
      throw new ValidationError(`simulation covers same-chain quotes only: quote ${quote.quoteId} is cross-chain`);
    const chainId = quote.originChainId;
    const client = this.clients.client(chainId);
    if (!client) throw new ValidationError(`simulation needs an RPC URL for chain ${chainId} (RPC_URL_${chainId})`);
    try {
      const block = await client.getBlock({ blockTag: 'latest' });
      const key = `${quote.quoteId}:${block.number}`;
      const cached = this.#cache.get(key);
      if (cached) return cached;
      const result = await this.run(client, quote, sender, block.number, block.timestamp);
      if (this.#cache.size >= CACHE_SIZE) this.#cache.delete(this.#cache.keys().next().value!);
      this.#cache.set(key, result);
      return result;
    } catch (error) {
      if (error instanceof ValidationError) throw error;
      throw new ServiceUnavailableError(`chain ${chainId} could not be simulated on: try again`, { cause: error });
    }
  }

  private async run(
    client: PublicClient,
    quote: SimulatedQuote,
    sender: Address,
    blockNumber: bigint,
    timestamp: bigint,
  ): Promise<QuoteSimulation> {
    const notes: string[] = [];
    const funding = await this.funding(client, quote, sender, blockNumber, notes);
    const base = {
      quoteId: quote.quoteId,
      chainId: quote.originChainId,
      blockNumber: Number(blockNumber),
      sender,
      amountOut: quote.amountOut,
      overrides: funding.overrides,
    };
    if (!this.#noSimulateV1.has(quote.originChainId)) {
      try {
        const calls = await this.simulateV1(client, quote.steps, sender, funding.state, blockNumber, timestamp);
        return { ...base, method: 'eth_simulateV1', ...this.v1Results(quote, calls), notes };
      } catch (error) {
        if (!lacksMethod(error)) throw error;
        this.#noSimulateV1.add(quote.originChainId);
      }
    }
    const steps = await this.simulateByCalls(client, quote, sender, funding.state, blockNumber, notes, base.overrides);
    return { ...base, method: 'eth_call', success: steps.every((s) => s.status === 'success'), simulatedAmountOut: null, steps, notes };
  }

  /**
   * The overrides that give the sender what the steps spend when it does not hold it yet: native input, the ether
   * the steps send; an ERC-20, amountIn (exactOut: amountInMaximum) through its balance slot. A token whose slot is
   * not found is simulated with the sender's own balance, and a note says so.
   */
  private async funding(
    client: PublicClient,
    quote: SimulatedQuote,
    sender: Address,
    blockNumber: bigint,
    notes: string[],
  ): Promise<{ state: StateOverride; overrides: SimulationOverride[] }> {
    const token = quote.tokenIn.address as Address;
    if (token.toLowerCase() === ETHER_LOGS) {
      const needed = quote.steps.reduce((sum, s) => sum + BigInt(s.value ?? '0'), 0n);
      const balance = await client.getBalance({ address: sender, blockNumber });
      if (balance >= needed) return { state: [], overrides: [] };
      return {
        state: [{ address: sender, balance: needed }],
        overrides: [{ kind: 'balance', token: NATIVE_TOKEN_ADDRESS, holder: sender, value: needed.toString() }],
      };
    }
    const needed = BigInt(quote.tradeType === 'exactOut' ? quote.amountInMaximum : quote.amountIn);
    const balance = await client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [sender], blockNumber });
    if (balance >= needed) return { state: [], overrides: [] };
    const data = encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [sender] });
    const slot = await findStorageSlot(client, token, data, [sender], blockNumber);
    if (!slot) {
      notes.push(
        `the balance of ${quote.tokenIn.symbol} (${token}) could not be overridden (no storage slot of balanceOf found): the steps ran with the sender's balance, ${balance}`,
      );
      return { state: [], overrides: [] };
    }
    return {
      state: [{ address: token, stateDiff: [{ slot, value: toHex(needed, { size: 32 }) }] }],
      overrides: [{ kind: 'balance', token, holder: sender, value: needed.toString() }],
    };
  }

  /** The steps as calls of one block after `blockNumber` (its number and a timestamp one second later), run by the node. */
  private async simulateV1(
    client: PublicClient,
    steps: readonly Step[],
    sender: Address,
    state: StateOverride,
    blockNumber: bigint,
    timestamp: bigint,
  ): Promise<SimulateV1Call[]> {
    const stateOverrides = Object.fromEntries(
      state.map((o) => [
        o.address,
        {
          ...(o.balance === undefined ? {} : { balance: numberToHex(o.balance) }),
          ...(o.stateDiff ? { stateDiff: Object.fromEntries(o.stateDiff.map((d) => [d.slot, d.value])) } : {}),
        },
      ]),
    );
    const request = client.request as unknown as (args: { method: string; params: unknown[] }) => Promise<{ calls: SimulateV1Call[] }[]>;
    const blocks = await request({
      method: 'eth_simulateV1',
      params: [
        {
          blockStateCalls: [
            {
              blockOverrides: { number: numberToHex(blockNumber + 1n), time: numberToHex(timestamp + 1n) },
              stateOverrides,
              calls: steps.map((s) => ({
                from: sender,
                to: s.to,
                data: s.data,
                ...(s.value === undefined ? {} : { value: numberToHex(BigInt(s.value)) }),
              })),
            },
          ],
          traceTransfers: true,
          validation: false,
        },
        numberToHex(blockNumber),
      ],
    });
    return blocks[0].calls;
  }

  /** Per step results of eth_simulateV1 (steps after the first revert: skipped) and what the recipient received. */
  private v1Results(
    quote: SimulatedQuote,
    calls: readonly SimulateV1Call[],
  ): Pick<QuoteSimulation, 'success' | 'simulatedAmountOut' | 'steps'> {
    const recipient = quote.recipientAddress.toLowerCase();
    const tokenOut = quote.tokenOut.address.toLowerCase();
    let reverted = false;
    let received = 0n;
    const steps = quote.steps.map((step, i): SimulatedStep => {
      const call = calls[i];
      if (reverted) return { message: step.message, status: 'skipped', gasUsed: null, gasLimit: null, revert: null };
      const gasUsed = BigInt(call.gasUsed);
      if (call.status !== '0x1') {
        reverted = true;
        return {
          message: step.message,
          status: 'reverted',
          gasUsed: gasUsed.toString(),
          gasLimit: null,
          revert: decodeRevert(call.error?.data ?? call.returnData),
        };
      }
      for (const log of parseEventLogs({ abi: TRANSFER, logs: call.logs as never, strict: false })) {
        if (log.address.toLowerCase() !== tokenOut || log.args.value === undefined) continue;
        if (log.args.to?.toLowerCase() === recipient) received += log.args.value;
        if (log.args.from?.toLowerCase() === recipient) received -= log.args.value;
      }
      return {
        message: step.message,
        status: 'success',
        gasUsed: gasUsed.toString(),
        gasLimit: simulatedGasLimit(gasUsed).toString(),
        revert: null,
      };
    });
    return { success: !reverted, simulatedAmountOut: received.toString(), steps };
  }

  /**
   * The fallback where the node lacks eth_simulateV1: each step alone with eth_call (success or the revert) and
   * eth_estimateGas (its gas), on the block's state with the funding overrides. Of what earlier steps change, only
   * their approvals are carried (as overrides of tokenIn's allowance slot, listed in `overrides` as kind
   * "allowance"); any other effect is not, transfers are not observed (simulatedAmountOut null), and the notes say so.
   */
  private async simulateByCalls(
    client: PublicClient,
    quote: SimulatedQuote,
    sender: Address,
    funding: StateOverride,
    blockNumber: bigint,
    notes: string[],
    overrides: SimulationOverride[],
  ): Promise<SimulatedStep[]> {
    notes.push(
      "the node has no eth_simulateV1: each step ran alone with eth_call on the block's state; approvals of earlier steps are carried as allowance overrides, nothing else is, and simulatedAmountOut is not observed",
    );
    const token = quote.tokenIn.address as Address;
    const approvals: { slot: Hex; value: bigint }[] = [];
    const steps: SimulatedStep[] = [];
    let reverted = false;
    for (const step of quote.steps) {
      if (reverted) {
        steps.push({ message: step.message, status: 'skipped', gasUsed: null, gasLimit: null, revert: null });
        continue;
      }
      const state = withStorage(funding, token, approvals);
      const tx = {
        account: sender,
        to: step.to,
        data: step.data,
        value: step.value === undefined ? undefined : BigInt(step.value),
        blockNumber,
      };
      try {
        await client.call({ ...tx, stateOverride: state });
        const gas = await client.estimateGas({ ...tx, stateOverride: state });
        steps.push({
          message: step.message,
          status: 'success',
          gasUsed: gas.toString(),
          gasLimit: simulatedGasLimit(gas).toString(),
          revert: null,
        });
      } catch (error) {
        const data = revertData(error);
        if (data === undefined) throw error;
        reverted = true;
        steps.push({ message: step.message, status: 'reverted', gasUsed: null, gasLimit: null, revert: decodeRevert(data) });
        continue;
      }
      if (step.spender && step.to.toLowerCase() === token.toLowerCase()) {
        const data = encodeFunctionData({ abi: erc20Abi, functionName: 'allowance', args: [sender, step.spender] });
        const slot = await findStorageSlot(client, token, data, [sender, step.spender], blockNumber);
        if (slot) {
          approvals.push({ slot, value: BigInt(step.amount) });
          overrides.push({ kind: 'allowance', token, holder: sender, spender: step.spender, value: step.amount });
        } else notes.push(`the approval of "${step.message}" could not be carried (no storage slot of allowance found)`);
      }
    }
    return steps;
  }
}

/** `base` with storage writes on `token` added (later writes of a slot win). */
function withStorage(base: StateOverride, token: Address, writes: readonly { slot: Hex; value: bigint }[]): StateOverride {
  if (writes.length === 0) return base;
  const others = base.filter((o) => o.address.toLowerCase() !== token.toLowerCase());
  const own = base.find((o) => o.address.toLowerCase() === token.toLowerCase());
  const diff = new Map((own?.stateDiff ?? []).map((d) => [d.slot, d.value]));
  for (const w of writes) diff.set(w.slot, toHex(w.value, { size: 32 }));
  return [...others, { address: token, stateDiff: [...diff].map(([slot, value]) => ({ slot, value })) }];
}

/** The revert data of a failed eth_call / eth_estimateGas ('0x' for a revert without data); undefined when it was no revert. */
function revertData(error: unknown): Hex | undefined {
  if (!(error instanceof ViemError)) return undefined;
  const found = error.walk((e) => {
    const x = e as { code?: unknown; data?: unknown };
    return x.code === 3 || (typeof x.data === 'string' && /^0x[0-9a-f]*$/i.test(x.data));
  }) as { data?: unknown } | null;
  if (!found) return /revert/i.test(error.message) ? '0x' : undefined;
  return typeof found.data === 'string' ? (found.data as Hex) : '0x';
}

/** Whether the node answered that it has no such method (EIP-1474 -32601, or its words for it). */
function lacksMethod(error: unknown): boolean {
  if (!(error instanceof ViemError)) return false;
  return Boolean(
    error.walk((e) => {
      const x = e as { code?: unknown; message?: string };
      return (
        x.code === -32601 || /method .*(not found|not supported|does not exist|not available)|unsupported method/i.test(x.message ?? '')
      );
    }),
  );
}
