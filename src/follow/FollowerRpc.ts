import { getAddress, type PublicClient } from 'viem';
import type { CatalogChain } from '../catalog/Catalog.ts';
import { refusedRange } from '../chain/logRanges.ts';
import type { MulticallOptions } from '../chain/multicallBatched.ts';
import { multicallRunner, type PhaseRunner } from '../chain/readPoolStates.ts';
import { DEFAULT_MULTICALL3, gasPriceAt, seedChains } from '../chain/seedChains.ts';
import { createSeedRpc, type SeedRpc, socketRpc } from '../chain/seedRpc.ts';
import type { Snapshot } from '../graph/snapshot.ts';
import type { RpcLog } from './poolBook.ts';

/** A block header as eth_getBlockBy* returns it (the fields a follower reads). */
export interface RpcBlock {
  readonly number: string;
  readonly hash: string;
  readonly parentHash: string;
  readonly timestamp: string;
  readonly baseFeePerGas?: string;
}

export const hex = (n: number): string => `0x${n.toString(16)}`;

/**
 * A follower's endpoint (ChainFollower): its requests, blocks by number, logs over block ranges (halving the range
 * while the endpoint refuses it, and keeping the smaller range), the gas price of a block (the priority fee re-read
 * once per priorityFeeEveryBlocks), Multicall3 readers pinned to a block, and a fresh seed of the chain from it.
 */
export class FollowerRpc {
  private readonly rpc: SeedRpc;
  readonly client: PublicClient;
  /** The block range of the next catch-up eth_getLogs. */
  range: number;
  private priorityFee: { wei: bigint; at: number } | undefined;

  constructor(
    private readonly rpcUrl: string,
    private readonly chain: CatalogChain,
    catchUpRange: number,
    private readonly priorityFeeEveryBlocks: number,
  ) {
    this.range = catchUpRange;
    this.rpc = /^wss?:\/\//i.test(rpcUrl)
      ? socketRpc(rpcUrl)
      : createSeedRpc({ url: rpcUrl, retries: 2, backoffMs: 200, timeoutMs: 10_000 });
    this.client = this.rpc.client;
  }

  request<T>(method: string, params: unknown[]): Promise<T> {
    return this.client.request({ method, params } as never) as Promise<T>;
  }

  async blockAt(number: number): Promise<RpcBlock> {
    return this.request<RpcBlock>('eth_getBlockByNumber', [hex(number), false]);
  }

  multicall(blockNumber: number): MulticallOptions {
    const multicall3 = getAddress(this.chain.multicall3Address || DEFAULT_MULTICALL3);
    return { multicall3, blockNumber: BigInt(blockNumber), batchSize: 500, concurrency: 4 };
  }

  runner(blockNumber: number): PhaseRunner {
    return multicallRunner(this.client, this.multicall(blockNumber));
  }

  async gasPrice(block: RpcBlock): Promise<string> {
    const number = Number(block.number);
    const base = block.baseFeePerGas === undefined ? undefined : BigInt(block.baseFeePerGas);
    if (!this.priorityFee || number - this.priorityFee.at >= this.priorityFeeEveryBlocks || number < this.priorityFee.at) {
      const total = await gasPriceAt(this.client, base);
      this.priorityFee = { wei: total - (base ?? 0n), at: number };
    }
    return ((base ?? 0n) + this.priorityFee.wei).toString();
  }

  /** eth_getLogs over [from, to] for the topics, halving the range while the endpoint refuses it. */
  async logsInRange(from: number, to: number, topics: readonly string[]): Promise<RpcLog[]> {
    try {
      return await this.request<RpcLog[]>('eth_getLogs', [{ fromBlock: hex(from), toBlock: hex(to), topics: [topics] }]);
    } catch (err) {
      if (from === to || !refusedRange(err)) throw err;
      const mid = from + Math.floor((to - from) / 2);
      this.range = Math.max(1, mid - from + 1);
      return [...(await this.logsInRange(from, mid, topics)), ...(await this.logsInRange(mid + 1, to, topics))];
    }
  }

  /** HTTP requests to the endpoint so far (retries included). */
  requests(): number {
    return this.rpc.requests();
  }

  /** A fresh seed of the chain at the endpoint's head (seedChains, with snapshotDir as its SNAPSHOT_DIR). */
  async seed(snapshotDir: string): Promise<Snapshot> {
    const report = await seedChains({
      chains: [this.chain],
      rpcUrls: new Map([[this.chain.chainId, this.rpcUrl]]),
      snapshotDir,
      progress: 'none',
      log: () => {},
    });
    const snapshot = report.chains[0]?.snapshot;
    if (!snapshot) throw new Error(`chain ${this.chain.chainId}: seeding failed (${report.chains[0]?.reason ?? 'no report'})`);
    return snapshot;
  }

  /** Closes the endpoint's socket (a ws(s):// endpoint); nothing for HTTP. */
  close(): void {
    if ('close' in this.rpc) (this.rpc as { close(): void }).close();
  }
}
