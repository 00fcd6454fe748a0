import { join } from 'node:path';
import type { Logger } from 'pino';
import type { Catalog, CatalogChain } from '../catalog/Catalog.ts';
import type { BlockUpdate, BlockUpdateSink } from '../graph/blockUpdate.ts';
import { loadServedSnapshots, type Snapshot } from '../graph/snapshot.ts';
import { poolAddress } from '../protocols/PoolSource.ts';
import { writeFileAtomic } from '../store/writeFileAtomic.ts';
import { FollowerRpc, hex, type RpcBlock } from './FollowerRpc.ts';
import { HeadLoop } from './HeadLoop.ts';
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

interface Applied {
  readonly number: number;
  readonly hash: string;
  readonly parentHash: string;
  readonly timestamp: number;
  readonly gasPriceWei: string;
}

type Optional = 'startFrom' | 'shippedSnapshotDir' | 'wsUrl' | 'pollIntervalMs' | 'snapshotEveryBlocks';

/**
 * Follows one chain: from a snapshot, catches up to the head with eth_getLogs over block ranges, then per new block
 * its header (by hash when a newHeads subscription announced it, else eth_getBlockByNumber 'latest' or the next
 * number) and one eth_getLogs by blockHash (EIP-234), filtered client-side to the tracked pools and catalogued
 * factories. Each applied block goes to the sink as a BlockUpdate; the first after a start or a re-seed is full.
 */
export class ChainFollower {
  private readonly m = { blocks: 0, events: 0, reorgs: 0, rereads: 0 };
  private readonly rpc: FollowerRpc;
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
  private lastSnapshotBlock = 0;
  /** The next update delivers every pool (`full`): the first after a start or a re-seed. */
  private resync = true;
  private readonly supplies: FollowedSupplies;
  private stopped = false;
  /** When it steps: the schedule, the newHeads subscription, the background loop. */
  private readonly heads: HeadLoop;
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
    this.supplies = new FollowedSupplies(opts.chain, this.o.supplyEverySeconds);
    this.rpc = new FollowerRpc(opts.rpcUrl, opts.chain, this.o.catchUpRange, this.o.priorityFeeEveryBlocks);
    this.heads = new HeadLoop(opts.chain.chainId, opts.logger);
  }

  private get chainId(): number {
    return this.o.chain.chainId;
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
    await this.heads.tune(this.rpc, this.o);
    await this.catchUp();
    if (this.resync && !this.stopped) await this.moveTo(await this.rpc.blockAt(this.applied.number), [], []);
    if (this.o.follow) {
      if (this.o.wsUrl) await this.heads.subscribe(this.o.wsUrl);
      this.heads.run(
        () => this.step(),
        () => this.errors++,
      );
    }
  }

  /** The effective head poll (ms) and snapshot interval (blocks): the options', else from the chain's block time. */
  get schedule(): { pollIntervalMs: number; snapshotEveryBlocks: number; subscribed: boolean } {
    return { pollIntervalMs: this.heads.pollMs, snapshotEveryBlocks: this.heads.snapshotEvery, subscribed: this.heads.subscribed };
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.heads.stop();
    this.rpc.close();
  }

  /** Starts from a fresh seed at the head. */
  private async reseedBook(): Promise<void> {
    const seeded = await this.rpc.seed(this.o.snapshotDir);
    if (!(await this.reset(seeded))) throw new Error(`chain ${this.chainId}: block ${seeded.blockNumber} of a fresh seed not found`);
  }

  /**
   * Starts from a snapshot; false (nothing changed) when the chain has no block at its number (a reorg to a shorter
   * chain) or, when the snapshot names its block's hash, another block there.
   */
  private async reset(snapshot: Snapshot): Promise<boolean> {
    const block = await this.rpc.request<RpcBlock | null>('eth_getBlockByNumber', [hex(snapshot.blockNumber), false]);
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

  private onReread = (address: string, reason: string): void => {
    this.o.logger.warn({ chainId: this.chainId, pool: address, reason }, 'pool re-read');
  };

  /** Applies ranges of blocks up to the head; one update per range (no undo history: a reorg below it re-seeds). */
  async catchUp(): Promise<void> {
    this.head = Number(await this.rpc.request<string>('eth_blockNumber', []));
    this.lastHeadAt = Date.now();
    while (!this.stopped && this.applied.number < this.head) {
      const from = this.applied.number + 1;
      const to = Math.min(this.head, from + this.rpc.range - 1);
      const logs = this.book.relevant(await this.rpc.logsInRange(from, to, this.book.topics));
      logs.sort((a, b) => Number(a.blockNumber) - Number(b.blockNumber) || Number(a.logIndex) - Number(b.logIndex));
      const changed = new Set<string>();
      for (let i = 0; i < logs.length; ) {
        const n = logs[i].blockNumber;
        let j = i;
        while (j < logs.length && logs[j].blockNumber === n) j++;
        const change = await this.book.applyBlock(logs.slice(i, j), this.rpc.runner(Number(n)), this.tickWindowWords, this.onReread);
        this.count(change);
        for (const a of change.prev.keys()) changed.add(a);
        i = j;
      }
      // Pools whose price moves without a log (PoolProtocol.rereadEachBlock) are read at the range's last block.
      if (this.book.everyBlock().size > 0 && Number(logs.at(-1)?.blockNumber ?? -1) !== to) {
        const change = await this.book.applyBlock([], this.rpc.runner(to), this.tickWindowWords, this.onReread);
        this.count(change);
        for (const a of change.prev.keys()) changed.add(a);
      }
      const block = await this.rpc.blockAt(to);
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
      gasPriceWei: await this.rpc.gasPrice(block),
    };
    const totalSupplies = await this.supplies.forBlock(
      this.applied.number >= this.head,
      this.applied.timestamp,
      this.rpc.client,
      this.rpc.multicall(this.applied.number),
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
    if (this.heads.snapshotEvery > 0 && this.applied.number - this.lastSnapshotBlock >= this.heads.snapshotEvery) {
      writeFileAtomic(join(this.o.snapshotDir, `${this.o.chain.slug}.json`), `${JSON.stringify(this.snapshot(), null, 1)}\n`);
      this.lastSnapshotBlock = this.applied.number;
    }
  }

  /**
   * Reads the head once (the block a subscription announced, by hash, else the latest) and applies every new block
   * (rolling back first on a reorg).
   */
  async step(): Promise<void> {
    const hash = this.heads.takeAnnounced();
    const latest =
      (hash && (await this.rpc.request<RpcBlock | null>('eth_getBlockByHash', [hash, false]))) ||
      (await this.rpc.request<RpcBlock>('eth_getBlockByNumber', ['latest', false]));
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
            ? await this.rpc.request<RpcBlock>('eth_getBlockByNumber', [hex(this.applied.number + 1), false])
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
      const logs = await this.rpc.request<RpcLog[]>('eth_getLogs', [{ blockHash: next!.hash, topics: [this.book.topics] }]);
      const change = await this.book.applyBlock(
        this.book.relevant(logs),
        this.rpc.runner(Number(next!.number)),
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
      const block = await this.rpc.blockAt(this.applied.number);
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
    await this.moveTo(await this.rpc.blockAt(this.applied.number), [], [], true);
  }
}
