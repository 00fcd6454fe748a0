import { readFileSync } from 'node:fs';
import {
  type Abi,
  type Address,
  type Chain,
  createPublicClient,
  createWalletClient,
  defineChain,
  getAddress,
  type Hex,
  http,
  keccak256,
  type PublicClient,
  type TransactionReceipt,
  toHex,
  type WalletClient,
} from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import { resolveArtifact } from '../../seeds/devnet/artifacts.ts';
import { receiptOf } from '../../seeds/devnet/jsonRpc.ts';
import { NATIVE_TOKEN_ADDRESS } from '../../src/catalog/Catalog.ts';
import type { Step } from '../../src/tx/Step.ts';

/** The ABI of a compiled contract artifact shipped in an npm package (e.g. '@uniswap/v2-core/build/IERC20.json'). */
export function artifactAbi(path: string): Abi {
  return (JSON.parse(readFileSync(resolveArtifact(path), 'utf8')) as { abi: Abi }).abi;
}

const ERC20_ABI = artifactAbi('@uniswap/v2-core/build/IERC20.json');

/** One transaction as a wallet sends it. */
export interface DevnetTransaction {
  readonly to: Address;
  readonly data: Hex;
  readonly value?: bigint;
}

/** Clients for one devnet and the wallet actions the end-to-end tests take on it. */
export interface DevnetWallet {
  readonly chainId: number;
  readonly chain: Chain;
  readonly client: PublicClient;
  readonly wallet: WalletClient;
  /** Ether (NATIVE_TOKEN_ADDRESS) or ERC-20 balance of `owner`. */
  balanceOf(token: string, owner: Address): Promise<bigint>;
  /** Sends one transaction: gas = estimate x 1.25 + 50,000 (NOTES-devnet.md) unless given; waits for the receipt, which may be reverted. */
  send(account: PrivateKeyAccount, tx: DevnetTransaction, gas?: bigint): Promise<TransactionReceipt>;
  /** Sends one step (checked to be from `account` and for this chain) with `gas`, else its own gasLimit, else as send() sizes it; the receipt may be reverted. */
  sendStep(account: PrivateKeyAccount, step: Step, gas?: bigint): Promise<TransactionReceipt>;
  /** Sends the steps in order; throws on the first that reverts. */
  sendSteps(account: PrivateKeyAccount, steps: readonly Step[]): Promise<TransactionReceipt[]>;
  /**
   * Sends a trade's steps in order (sendSteps) and measures it: what the sender spent of `tokenIn` (ETH: less the
   * gas its steps paid, so the steps' value and what the swaps took) and what `recipient` received of `tokenOut`.
   */
  sendTrade(
    account: PrivateKeyAccount,
    steps: readonly Step[],
    ends: { readonly tokenIn: string; readonly tokenOut: string; readonly recipient: Address },
  ): Promise<{ receipts: TransactionReceipt[]; spent: bigint; received: bigint }>;
}

/** Public and wallet clients over a devnet's RPC (20 ms polling) with balance reads and step sending. */
export function devnetWallet(devnet: { readonly chainId: number; readonly rpcUrl: string }): DevnetWallet {
  const chain = defineChain({
    id: devnet.chainId,
    name: `devnet ${devnet.chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [devnet.rpcUrl] } },
  });
  const client = createPublicClient({ chain, transport: http(devnet.rpcUrl), pollingInterval: 20 }) as PublicClient;
  const wallet = createWalletClient({ chain, transport: http(devnet.rpcUrl), pollingInterval: 20 });

  async function send(account: PrivateKeyAccount, { to, data, value }: DevnetTransaction, gas?: bigint): Promise<TransactionReceipt> {
    const limit = gas ?? ((await client.estimateGas({ account, to, data, value })) * 125n) / 100n + 50_000n;
    const hash = await wallet.sendTransaction({ account, chain, to, data, value, gas: limit });
    await receiptOf(devnet.rpcUrl, hash);
    return client.getTransactionReceipt({ hash });
  }
  async function sendStep(account: PrivateKeyAccount, step: Step, gas?: bigint): Promise<TransactionReceipt> {
    if (step.from !== account.address) throw new Error(`step.from ${step.from} is not the sender ${account.address}`);
    if (step.chainId !== devnet.chainId)
      throw new Error(`step "${step.message}" is for chain ${step.chainId}, not the devnet's ${devnet.chainId}`);
    // A step is sent with exactly the gasLimit the service gave it (estimateGas only for a step that has none).
    const limit = gas ?? (step.gasLimit === undefined ? undefined : BigInt(step.gasLimit));
    return send(account, { to: step.to, data: step.data, value: step.value === undefined ? undefined : BigInt(step.value) }, limit);
  }
  async function balanceOf(token: string, owner: Address): Promise<bigint> {
    if (token === NATIVE_TOKEN_ADDRESS) return client.getBalance({ address: owner });
    return (await client.readContract({ address: token as Address, abi: ERC20_ABI, functionName: 'balanceOf', args: [owner] })) as bigint;
  }
  async function sendSteps(account: PrivateKeyAccount, steps: readonly Step[]): Promise<TransactionReceipt[]> {
    const receipts: TransactionReceipt[] = [];
    for (const step of steps) {
      const receipt = await sendStep(account, step);
      if (receipt.status !== 'success')
        throw new Error(`step "${step.message}" reverted (gasUsed ${receipt.gasUsed} of its gasLimit ${step.gasLimit ?? 'estimated'})`);
      receipts.push(receipt);
    }
    return receipts;
  }
  return {
    chainId: devnet.chainId,
    chain,
    client,
    wallet,
    balanceOf,
    send,
    sendStep,
    sendSteps,
    async sendTrade(account, steps, { tokenIn, tokenOut, recipient }) {
      const [inBefore, outBefore] = await Promise.all([balanceOf(tokenIn, account.address), balanceOf(tokenOut, recipient)]);
      const receipts = await sendSteps(account, steps);
      const [inAfter, outAfter] = await Promise.all([balanceOf(tokenIn, account.address), balanceOf(tokenOut, recipient)]);
      const paid = tokenIn === NATIVE_TOKEN_ADDRESS ? gasPaid(receipts) : 0n;
      return { receipts, spent: inBefore - inAfter - paid, received: outAfter - outBefore };
    },
  };
}

/**
 * A public client over a devnet's RPC that sends the calls made in one tick as one JSON-RPC batch (up to 100 calls per
 * HTTP request), for tests that make many independent reads (e.g. a quoter ladder at one block): each call is still its
 * own eth_call, answered as alone, without an HTTP round trip each.
 */
export function batchingClient(devnet: { readonly rpcUrl: string }): PublicClient {
  return createPublicClient({ transport: http(devnet.rpcUrl, { batch: { batchSize: 100 } }) }) as PublicClient;
}

/** Ether the receipts paid for gas (gasUsed x effectiveGasPrice). */
export function gasPaid(receipts: readonly TransactionReceipt[]): bigint {
  return receipts.reduce((sum, r) => sum + r.gasUsed * r.effectiveGasPrice, 0n);
}

/** A fresh address with no balance of anything: the first 20 bytes of keccak256(seed). */
export function freshAddress(seed: string): Address {
  return getAddress(keccak256(toHex(seed)).slice(0, 42));
}
