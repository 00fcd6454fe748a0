import { join } from 'node:path';
import type { Logger } from 'pino';
import { getAddress, type PublicClient } from 'viem';
import type { Catalog, CatalogChain } from '../catalog/Catalog.ts';
import { refusedRange } from '../chain/logRanges.ts';
import type { MulticallOptions } from '../chain/multicallBatched.ts';
import { multicallRunner, type PhaseRunner } from '../chain/readPoolStates.ts';
import { DEFAULT_MULTICALL3, gasPriceAt, seedChains } from '../chain/seedChains.ts';
import { createSeedRpc, type SeedRpc, socketRpc } from '../chain/seedRpc.ts';
import type { BlockUpdate, BlockUpdateSink } from '../graph/blockUpdate.ts';
import { loadServedSnapshots, type Snapshot } from '../graph/snapshot.ts';
import { poolAddress } from '../protocols/PoolSource.ts';
import { writeFileAtomic } from '../store/writeFileAtomic.ts';
import { followSchedule, type HeadSubscription, subscribeNewHeads } from './heads.ts';
import { type BlockChange, PoolBook, type RpcLog } from './poolBook.ts';
import { FollowedSupplies } from './tokenSupplies.ts';

/** Options of one chain's follower (env names in README "Live pool state"). */
export interface FollowerOptions {
  readonly chain: CatalogChain;
  readonly rpcUrl: string;
  /** SNAPSHOT_DIR: the start snapshot is read from here (over the shipped one), and snapshots are written here. */
  readonly snapshotDir: string;
  /** The shipped read-only snapshots (SHIPPED_SNAPSHOT_DIR); never written. */
  readonly shippedSnapshotDir?: string;
  readonly catalog: Catalog;
  /**
   * A WebSocket endpoint (RPC_WS_URL_<chainId>, or rpcUrl when it is ws(s)://): new heads arrive by
   * eth_subscribe("newHeads"), each fetched by hash with its logs; polls continue as a safety net.
   */
  readonly wsUrl?: string;
  /** Wait between head polls; default: a tenth of the chain's block time (measured at start), 100 to 1000 ms. */
  readonly pollIntervalMs?: number;
  /** Blocks of undo history kept for reorgs (default 64); a deeper reorg re-seeds the chain. */
  readonly undoDepth?: number;
  /**
   * Write a snapshot (SNAPSHOT_DIR/<slug>.json: a restart point, with its block hash) every this many applied blocks
   * (0: never); default: the chain's blocks in about 5 minutes.
   */
  readonly snapshotEveryBlocks?: number;
  /** Read the endpoint's priority fee (eth_maxPriorityFeePerGas) once per this many blocks (default 64). */
  readonly priorityFeeEveryBlocks?: number;
  /** Re-read the tokens' totalSupply() at the head once per this many seconds of block time (default 600; 0: never). */
  readonly supplyEverySeconds?: number;
  /** First block range of a catch-up eth_getLogs (default 2000; halved while the endpoint refuses it). */
  readonly catchUpRange?: number;
  readonly logger: Logger;
  /** Follow in the background after the catch-up (default true); false: the caller drives step() (tests, bench). */
  readonly follow?: boolean;
  /** Start state; else the chain's served snapshot (loadServedSnapshots over the two folders), else a fresh seed. */
  readonly startFrom?: Snapshot;
}

/** A follower's position, for /readyz and logs. lastBlockAt: ms since the epoch when the last block was applied. */
export interface FollowerStatus {
  readonly chainId: number;
  readonly headBlock: number;
  readonly appliedBlock: number;
  readonly appliedHash: string;
  readonly lastBlockAt: number;
  /** ms since the epoch when the endpoint last answered a head poll (the state is known current as of then). */
  readonly lastHeadAt: number;
  readonly errors: number;
}

interface RpcBlock {
  readonly number: string;
  readonly hash: string;
  readonly parentHash: string;
  readonly timestamp: string;
  readonly baseFeePerGas?: string;
}

interface Applied {
  readonly number: number;
  readonly hash: string;
  readonly parentHash: string;
  readonly timestamp: number;
  readonly gasPriceWei: string;
}

type Optional = 'startFrom' | 'shippedSnapshotDir' | 'wsUrl' | 'pollIntervalMs' | 'snapshotEveryBlocks';

const hex = (n: number): string => `0x${n.toString(16)}`;

/**
 * Follows one chain: from a snapshot, catches up to the head with eth_getLogs over block ranges, then per new block
 * its header (by hash when a newHeads subscription announced it, else eth_getBlockByNumber 'latest' or the next
 * number) and one eth_getLogs by blockHash (EIP-234), filtered client-side to the tracked pools and catalogued
 * factories. Each applied block goes to the sink as a BlockUpdate; the first after a start or a re-seed is full.
 */
export class ChainFollower {
  private readonly m = { blocks: 0, events: 0, reorgs: 0, rereads: 0 };
  private readonly rpc: SeedRpc;
  private readonly client: PublicClient;
  private book!: PoolBook;
  private tickWindowWords = 20;
  private excludedTokens: Snapshot['excludedTokens'];
  private approvalResetTokens: Snapshot['approvalResetTokens'];
  /** The start snapshot's router facts (seeding reads them; the follower carries them into its own snapshots). */
  private routers: Snapshot['routers'];
  private applied!: Applied;
  private readonly history: { block: Applied; change: BlockChange }[] = [];
  private head = 0;
  private lastBlockAt = 0;
  private lastHeadAt = 0;
  private errors = 0;
  private priorityFee: { wei: bigint; at: number } | undefined;
  private lastSnapshotBlock = 0;
  /** The next update delivers every pool (`full`): the first after a start or a re-seed. */
  private resync = true;
  private range: number;
  private readonly supplies: FollowedSupplies;
  private stopped = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  /** Effective head poll and snapshot interval (the options', else from the block time measured at start). */
  private pollMs = 1000;
  private snapshotEvery = 0;
  /** Heads announced by the subscription, not yet stepped to (newest last); whether it is live. */
  private announced: string | undefined;
  private subscription: HeadSubscription | undefined;
  private subscribed = false;
  private readonly o: Required<Omit<FollowerOptions, Optional>> & Pick<FollowerOptions, Optional>;

  constructor(
    opts: FollowerOptions,
    private readonly sink: BlockUpdateSink,
  ) {
    this.o = {
      undoDepth: 64,
      priorityFeeEveryBlocks: 64,
      supplyEverySeconds: 600,
      catchUpRange: 2000,
      follow: true,
      ...opts,
    };
    this.range = this.o.catchUpRange;
    this.supplies = new FollowedSupplies(opts.chain, this.o.supplyEverySeconds);
    this.rpc = /^wss?:\/\//i.test(opts.rpcUrl)
      ? socketRpc(opts.rpcUrl)
      : createSeedRpc({ url: opts.rpcUrl, retries: 2, backoffMs: 200, timeoutMs: 10_000 });
    this.client = this.rpc.client;
  }

  private get chainId(): number {
    return this.o.chain.chainId;
  }

  private request<T>(method: string, params: unknown[]): Promise<T> {
    return this.client.request({ method, params } as never) as Promise<T>;
  }

  /** Counters since start: blocks and events applied, reorgs, pool re-reads, HTTP requests to the endpoint (retries included). */
  get metrics(): { blocks: number; events: number; reorgs: number; rereads: number; rpcRequests: number } {
    return { ...this.m, rpcRequests: this.rpc.requests() };
  }

  status(): FollowerStatus {
    return {
      chainId: this.chainId,
      headBlock: this.head,
      appliedBlock: this.applied?.number ?? 0,
      appliedHash: this.applied?.hash ?? '',
      lastBlockAt: this.lastBlockAt,
      lastHeadAt: this.lastHeadAt,
      errors: this.errors,
    };
  }

  /** The followed state as a snapshot (what snapshot files and tests compare). */
  snapshot(): Snapshot {
    return {
      formatVersion: 1,
      chainId: this.chainId,
      blockNumber: this.applied.number,
      blockHash: this.applied.hash,
      blockTimestamp: this.applied.timestamp,
      gasPriceWei: this.applied.gasPriceWei,
      seededAt: new Date().toISOString(),
      tickWindowWords: this.tickWindowWords,
      ...this.supplies.snapshotField(),
      pools: this.book.snapshotPools(),
      ...(this.excludedTokens && this.excludedTokens.length > 0 ? { excludedTokens: this.excludedTokens } : {}),
      ...(this.approvalResetTokens && this.approvalResetTokens.length > 0 ? { approvalResetTokens: this.approvalResetTokens } : {}),
      ...(this.routers && this.routers.length > 0 ? { routers: this.routers } : {}),
    };
  }

  /**
   * Loads the start state: the chain's served snapshot (SNAPSHOT_DIR over the shipped one; its own last one when it
   * wrote one), unless its block was reorganised away, else a fresh seed. Then catches up to the head, delivers every
   * pool once (a `full` update: consumers drop whatever they held of the chain), then follows in the background until
   * stop().
   */
  async start(): Promise<void> {
    const served = loadServedSnapshots({ snapshotDir: this.o.snapshotDir, shippedSnapshotDir: this.o.shippedSnapshotDir }).snapshots.find(
      (s) => s.chainId === this.chainId,
    );
    const start = this.o.startFrom ?? served;
    const started = start !== undefined && (await this.reset(start));
    if (start && !started)
      this.o.logger.warn(
        { chainId: this.chainId, block: start.blockNumber, blockHash: start.blockHash },
        "the start snapshot's block is no longer on the chain (reorg): seeding afresh",
      );
    if (!started) await this.reseedBook();
    await this.tune();
    await this.catchUp();
    if (this.resync && !this.stopped) await this.moveTo(await this.blockAt(this.applied.number), [], []);
    if (this.o.follow) {
      if (this.o.wsUrl) await this.subscribe(this.o.wsUrl);
      this.loop = this.follow();
    }
  }

  /** The effective head poll (ms) and snapshot interval (blocks): the options', else from the chain's block time. */
  get schedule(): { pollIntervalMs: number; snapshotEveryBlocks: number; subscribed: boolean } {
    return { pollIntervalMs: this.pollMs, snapshotEveryBlocks: this.snapshotEvery, subscribed: this.subscribed };
  }

  /**
   * Sets the head poll and snapshot interval the options leave open from the chain's block time (followSchedule): the
   * mean over its last 64 blocks (timestamps are whole seconds, so never below 1 ms).
   */
  private async tune(): Promise<void> {
    let blockMs = 1000;
    if (this.o.pollIntervalMs === undefined || this.o.snapshotEveryBlocks === undefined) {
      const head = Number(await this.request<string>('eth_blockNumber', []));
      const span = Math.min(64, head);
      if (span > 0) {
        const [now, then] = await Promise.all([this.blockAt(head), this.blockAt(head - span)]);
        blockMs = Math.max(1, ((Number(now.timestamp) - Number(then.timestamp)) * 1000) / span);
      }
    }
    ({ pollIntervalMs: this.pollMs, snapshotEveryBlocks: this.snapshotEvery } = followSchedule(blockMs, this.o));
    this.o.logger.info(
      { chainId: this.chainId, blockMs: Math.round(blockMs), pollIntervalMs: this.pollMs, snapshotEveryBlocks: this.snapshotEvery },
      'follower schedule',
    );
  }

  /** Subscribes to new heads (heads.ts): each announced head wakes the follow loop; a refusal leaves polling in charge. */
  private async subscribe(url: string): Promise<void> {
    const log = (msg: string) => (err: unknown) => this.o.logger.warn({ chainId: this.chainId, err: (err as Error).message }, msg);
    this.subscription = await subscribeNewHeads(url, {
      onHead: (hash) => {
        this.subscribed = true;
        this.announced = hash;
        this.wake?.();
      },
      onError: (err) => {
        this.subscribed = false;
        log('newHeads subscription failed; polling')(err);
      },
    }).catch((err: unknown) => {
      log('newHeads subscription refused; polling')(err);
      return undefined;
    });
    this.subscribed = this.subscription !== undefined;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.loop;
    await this.subscription?.close();
    if ('close' in this.rpc) (this.rpc as { close(): void }).close();
  }

  private async seed(): Promise<Snapshot> {
    const report = await seedChains({
      chains: [this.o.chain],
      rpcUrls: new Map([[this.chainId, this.o.rpcUrl]]),
      snapshotDir: this.o.snapshotDir,
      progress: 'none',
      log: () => {},
    });
    const snapshot = report.chains[0]?.snapshot;
    if (!snapshot) throw new Error(`chain ${this.chainId}: seeding failed (${report.chains[0]?.reason ?? 'no report'})`);
    return snapshot;
  }

  /** Starts from a fresh seed at the head. */
  private async reseedBook(): Promise<void> {
    const seeded = await this.seed();
    if (!(await this.reset(seeded))) throw new Error(`chain ${this.chainId}: block ${seeded.blockNumber} of a fresh seed not found`);
  }

  private async blockAt(number: number): Promise<RpcBlock> {
    return this.request<RpcBlock>('eth_getBlockByNumber', [hex(number), false]);
  }

  /**
   * Starts from a snapshot; false (nothing changed) when the chain has no block at its number (a reorg to a shorter
   * chain) or, when the snapshot names its block's hash, another block there.
   */
  private async reset(snapshot: Snapshot): Promise<boolean> {
    const block = await this.request<RpcBlock | null>('eth_getBlockByNumber', [hex(snapshot.blockNumber), false]);
    if (!block || (snapshot.blockHash !== undefined && snapshot.blockHash.toLowerCase() !== block.hash.toLowerCase())) return false;
    this.book = new PoolBook(this.o.chain, snapshot);
    this.tickWindowWords = snapshot.tickWindowWords;
    this.excludedTokens = snapshot.excludedTokens;
    this.approvalResetTokens = snapshot.approvalResetTokens;
    this.routers = snapshot.routers;
    this.supplies.reset(snapshot);
    this.applied = {
      number: snapshot.blockNumber,
      hash: block.hash,
      parentHash: block.parentHash,
      timestamp: snapshot.blockTimestamp,
      gasPriceWei: snapshot.gasPriceWei ?? '0',
    };
    this.history.length = 0;
    this.lastSnapshotBlock = snapshot.blockNumber;
    this.head = Math.max(this.head, snapshot.blockNumber);
    this.resync = true;
    return true;
  }

  private multicall(blockNumber: number): MulticallOptions {
    const multicall3 = getAddress(this.o.chain.multicall3Address || DEFAULT_MULTICALL3);
    return { multicall3, blockNumber: BigInt(blockNumber), batchSize: 500, concurrency: 4 };
  }

  private runner(blockNumber: number): PhaseRunner {
    return multicallRunner(this.client, this.multicall(blockNumber));
  }

  private onReread = (address: string, reason: string): void => {
    this.o.logger.warn({ chainId: this.chainId, pool: address, reason }, 'pool re-read');
  };

  private async gasPrice(block: RpcBlock): Promise<string> {
    const number = Number(block.number);
    const base = block.baseFeePerGas === undefined ? undefined : BigInt(block.baseFeePerGas);
    if (!this.priorityFee || number - this.priorityFee.at >= this.o.priorityFeeEveryBlocks || number < this.priorityFee.at) {
      const total = await gasPriceAt(this.client, base);
      this.priorityFee = { wei: total - (base ?? 0n), at: number };
    }
    return ((base ?? 0n) + this.priorityFee.wei).toString();
  }

  /** eth_getLogs over [from, to] for the book's topics, halving the range while the endpoint refuses it. */
  private async logsInRange(from: number, to: number): Promise<RpcLog[]> {
    try {
      return await this.request<RpcLog[]>('eth_getLogs', [{ fromBlock: hex(from), toBlock: hex(to), topics: [this.book.topics] }]);
    } catch (err) {
      if (from === to || !refusedRange(err)) throw err;
      const mid = from + Math.floor((to - from) / 2);
      this.range = Math.max(1, mid - from + 1);
      return [...(await this.logsInRange(from, mid)), ...(await this.logsInRange(mid + 1, to))];
    }
  }

  /** Applies ranges of blocks up to the head; one update per range (no undo history: a reorg below it re-seeds). */
  async catchUp(): Promise<void> {
    this.head = Number(await this.request<string>('eth_blockNumber', []));
    this.lastHeadAt = Date.now();
    while (!this.stopped && this.applied.number < this.head) {
      const from = this.applied.number + 1;
      const to = Math.min(this.head, from + this.range - 1);
      const logs = this.book.relevant(await this.logsInRange(from, to));
      logs.sort((a, b) => Number(a.blockNumber) - Number(b.blockNumber) || Number(a.logIndex) - Number(b.logIndex));
      const changed = new Set<string>();
      for (let i = 0; i < logs.length; ) {
        const n = logs[i].blockNumber;
        let j = i;
        while (j < logs.length && logs[j].blockNumber === n) j++;
        const change = await this.book.applyBlock(logs.slice(i, j), this.runner(Number(n)), this.tickWindowWords, this.onReread);
        this.count(change);
        for (const a of change.prev.keys()) changed.add(a);
        i = j;
      }
      // Pools whose price moves without a log (PoolProtocol.rereadEachBlock) are read at the range's last block.
      if (this.book.everyBlock().size > 0 && Number(logs.at(-1)?.blockNumber ?? -1) !== to) {
        const change = await this.book.applyBlock([], this.runner(to), this.tickWindowWords, this.onReread);
        this.count(change);
        for (const a of change.prev.keys()) changed.add(a);
      }
      const block = await this.blockAt(to);
      this.m.blocks += to - from + 1;
      await this.moveTo(block, changed, []);
      this.history.length = 0;
    }
  }

  private count(change: BlockChange): void {
    this.m.events += change.events;
    this.m.rereads += change.rereads;
  }

  /** Records the new applied block, emits its update (every pool when a resync is due), writes a snapshot when due. */
  private async moveTo(block: RpcBlock, changed: Iterable<string>, removed: string[], reorg?: boolean): Promise<void> {
    this.applied = {
      number: Number(block.number),
      hash: block.hash,
      parentHash: block.parentHash,
      timestamp: Number(block.timestamp),
      gasPriceWei: await this.gasPrice(block),
    };
    const totalSupplies = await this.supplies.forBlock(
      this.applied.number >= this.head,
      this.applied.timestamp,
      this.client,
      this.multicall(this.applied.number),
      (err) => this.o.logger.warn({ chainId: this.chainId, err: (err as Error).message }, 'token supplies not read; kept'),
    );
    this.lastBlockAt = Date.now();
    const full = this.resync;
    this.resync = false;
    const update: BlockUpdate = {
      chainId: this.chainId,
      blockNumber: this.applied.number,
      blockHash: this.applied.hash,
      parentHash: this.applied.parentHash,
      blockTimestamp: this.applied.timestamp,
      gasPriceWei: this.applied.gasPriceWei,
      pools: this.book.snapshotPools(full ? undefined : changed),
      removed: full ? [] : removed,
      ...(totalSupplies ? { totalSupplies } : {}),
      ...(reorg ? { reorg } : {}),
      ...(full ? { full } : {}),
    };
    await this.sink(update);
    if (this.snapshotEvery > 0 && this.applied.number - this.lastSnapshotBlock >= this.snapshotEvery) {
      writeFileAtomic(join(this.o.snapshotDir, `${this.o.chain.slug}.json`), `${JSON.stringify(this.snapshot(), null, 1)}\n`);
      this.lastSnapshotBlock = this.applied.number;
    }
  }

  private async follow(): Promise<void> {
    let failures = 0;
    while (!this.stopped) {
      try {
        await this.step();
        failures = 0;
      } catch (err) {
        this.errors++;
        failures++;
        this.o.logger.warn({ chainId: this.chainId, err: (err as Error).message }, 'follower step failed; retrying');
      }
      if (this.stopped) break;
      // Subscribed: a head wakes the loop at once; the poll is a safety net for a missed notification.
      const every = this.subscribed ? Math.max(this.pollMs, 5000) : this.pollMs;
      const delay = failures === 0 ? every : Math.min(30_000, this.pollMs * 2 ** Math.min(failures, 10));
      if (this.announced !== undefined && failures === 0) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delay);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  /**
   * Reads the head once (the block a subscription announced, by hash, else the latest) and applies every new block
   * (rolling back first on a reorg).
   */
  async step(): Promise<void> {
    const hash = this.announced;
    this.announced = undefined;
    const latest =
      (hash && (await this.request<RpcBlock | null>('eth_getBlockByHash', [hash, false]))) ||
      (await this.request<RpcBlock>('eth_getBlockByNumber', ['latest', false]));
    this.head = Number(latest.number);
    this.lastHeadAt = Date.now();
    let reorg: { changed: Set<string>; existed: Set<string> } | undefined;
    for (;;) {
      const diverged = this.head < this.applied.number || (this.head === this.applied.number && latest.hash !== this.applied.hash);
      const next = diverged
        ? undefined
        : this.head === this.applied.number + 1
          ? latest
          : this.head > this.applied.number
            ? await this.request<RpcBlock>('eth_getBlockByNumber', [hex(this.applied.number + 1), false])
            : undefined;
      if (!diverged && !next) break;
      if (diverged || next!.parentHash !== this.applied.hash) {
        if (!reorg) {
          reorg = { changed: new Set(), existed: new Set(this.book.pools.keys()) };
          this.m.reorgs++;
          this.o.logger.warn({ chainId: this.chainId, block: this.applied.number, head: this.head }, 'reorg: rolling back');
        }
        if (!this.rollBack(reorg.changed)) return this.reseed();
        continue;
      }
      const logs = await this.request<RpcLog[]>('eth_getLogs', [{ blockHash: next!.hash, topics: [this.book.topics] }]);
      const change = await this.book.applyBlock(
        this.book.relevant(logs),
        this.runner(Number(next!.number)),
        this.tickWindowWords,
        this.onReread,
      );
      this.count(change);
      this.m.blocks++;
      this.history.push({ block: { ...this.applied }, change });
      if (this.history.length > this.o.undoDepth) this.history.shift();
      if (reorg) {
        for (const a of change.prev.keys()) reorg.changed.add(a);
        this.applied = {
          ...this.applied,
          number: Number(next!.number),
          hash: next!.hash,
          parentHash: next!.parentHash,
          timestamp: Number(next!.timestamp),
        };
        if (this.applied.number < this.head) continue;
      }
      await this.moveTo(next!, reorg ? reorg.changed : change.prev.keys(), reorg ? this.removedSince(reorg) : [], reorg !== undefined);
      reorg = undefined;
    }
    if (reorg) {
      const block = await this.blockAt(this.applied.number);
      await this.moveTo(block, reorg.changed, this.removedSince(reorg), true);
    }
  }

  private removedSince(reorg: { changed: Set<string>; existed: Set<string> }): string[] {
    return [...reorg.changed].filter((a) => !this.book.pools.has(a) && reorg.existed.has(a)).map((a) => poolAddress(a));
  }

  /** Undoes the newest applied block; false when the undo history is exhausted (a reorg deeper than undoDepth). */
  private rollBack(changed: Set<string>): boolean {
    const entry = this.history.pop();
    if (!entry) return false;
    for (const a of this.book.undo(entry.change)) changed.add(a);
    this.applied = entry.block;
    return true;
  }

  /** A reorg deeper than the undo history: seed the chain afresh and deliver every pool (a full update). */
  private async reseed(): Promise<void> {
    this.o.logger.warn({ chainId: this.chainId, undoDepth: this.o.undoDepth }, 'reorg deeper than the undo history: re-seeding');
    await this.reseedBook();
    await this.moveTo(await this.blockAt(this.applied.number), [], [], true);
  }
}
