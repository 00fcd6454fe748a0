import { createClient } from '@keyv/redis';
import type { Logger } from 'pino';
import type { BlockUpdate } from '../graph/blockUpdate.ts';
import type { FollowedChainCounters, FollowedChainStatus } from '../graph/liveState.ts';

/** The Redis Stream a chain's followed blocks are published to: one entry per block, field `update` (BlockUpdate JSON). */
export function followStreamKey(prefix: string, chainId: number): string {
  return `${prefix}:follow:${chainId}`;
}

/** The follower's heartbeat for a chain: `{"head":<block seen>,"applied":<block published>,"at":<ms>}`, set at every head poll. */
export function followHeadKey(prefix: string, chainId: number): string {
  return `${prefix}:follow:${chainId}:head`;
}

/** What the follower process writes beside the stream. */
export interface FollowHeartbeat {
  readonly head: number;
  readonly applied: number;
  readonly at: number;
}

/** A client for the follow streams that reconnects with backoff (100 ms doubling, at most 2 s) and never emits errors. */
function followClient(url: string) {
  const client = createClient({ url, socket: { reconnectStrategy: (retries: number) => Math.min(100 * 2 ** retries, 2000) } });
  client.on('error', () => undefined);
  return client;
}

type Client = ReturnType<typeof followClient>;

/**
 * The follower process's writer (`npm run follow`): appends each followed block to its chain's stream (trimmed to about
 * `maxLen` entries, oldest first) and sets the chain's heartbeat. Redis down: publish waits and retries with backoff
 * (100 ms doubling, at most 5 s), so no block is skipped; a heartbeat that fails is dropped (the next one follows).
 */
export class FollowStreamWriter {
  private readonly client: Client;

  constructor(private readonly o: { url: string; prefix: string; maxLen: number; logger: Logger }) {
    this.client = followClient(o.url);
  }

  /** Connects; throws when Redis does not answer. */
  async connect(): Promise<void> {
    await this.client.connect();
  }

  /** Publishes one block, retrying while Redis is down. */
  async publish(update: BlockUpdate): Promise<void> {
    for (let delay = 100; ; delay = Math.min(delay * 2, 5000)) {
      try {
        await this.client.xAdd(
          followStreamKey(this.o.prefix, update.chainId),
          '*',
          { update: JSON.stringify(update) },
          { TRIM: { strategy: 'MAXLEN', strategyModifier: '~', threshold: this.o.maxLen } },
        );
        return;
      } catch (err) {
        this.o.logger.warn(
          { chainId: update.chainId, block: update.blockNumber, err: (err as Error).message, retryInMs: delay },
          'publishing a block failed; retrying',
        );
        await new Promise((r) => setTimeout(r, delay));
      }
    }
  }

  /** Sets a chain's heartbeat; a failure is ignored. */
  heartbeat(chainId: number, beat: FollowHeartbeat): void {
    this.client.set(followHeadKey(this.o.prefix, chainId), JSON.stringify(beat)).catch(() => undefined);
  }

  /** Closes the connection. */
  close(): void {
    this.client.destroy();
  }
}

/**
 * An API instance's reader of the followed chains' streams (FOLLOW_STREAM=true with REDIS_URL): reads every entry
 * from the start of each chain's stream (entries up to the block of the snapshot it started from are skipped), then blocks
 * for new ones, applying each in order through `apply`. Redis down: the state keeps serving, the reader retries with
 * backoff and resumes after the last entry it applied, so nothing is skipped. Entries are never deleted here.
 */
export class FollowStreamReader {
  private readonly client: Client;
  private readonly last = new Map<number, string>();
  private readonly seen = new Map<number, { head: number; at: number; blocks: number }>();
  /** Each chain's block when this reader started: older entries (history before the instance's snapshot) are skipped. */
  private readonly startBlock = new Map<number, number>();
  private stopped = false;
  private loop: Promise<void> | undefined;

  constructor(
    private readonly o: { url: string; prefix: string; chainIds: readonly number[]; logger: Logger; blockMs?: number },
    private readonly apply: (update: BlockUpdate) => void,
    private readonly appliedBlock: (chainId: number) => number,
  ) {
    this.client = followClient(o.url);
    for (const id of o.chainIds) {
      this.last.set(id, '0');
      this.startBlock.set(id, appliedBlock(id));
    }
  }

  /** Connects and reads in the background until stop(). */
  start(): void {
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.client.destroy();
    await this.loop?.catch(() => undefined);
  }

  /** The followed chains as this instance knows them (from the stream entries and the follower's heartbeat). */
  chains(): { status: FollowedChainStatus; counters: FollowedChainCounters }[] {
    return this.o.chainIds.map((chainId) => {
      const s = this.seen.get(chainId) ?? { head: 0, at: 0, blocks: 0 };
      const applied = this.appliedBlock(chainId);
      return {
        status: { chainId, headBlock: Math.max(s.head, applied), appliedBlock: applied, lastBlockAt: s.at, lastHeadAt: s.at, errors: 0 },
        counters: { blocks: s.blocks, events: 0, reorgs: 0, rereads: 0, rpcRequests: 0 },
      };
    });
  }

  private async run(): Promise<void> {
    let delay = 100;
    while (!this.stopped) {
      try {
        if (!this.client.isOpen) await this.client.connect();
        await this.readOnce();
        await this.heartbeats();
        delay = 100;
      } catch (err) {
        if (this.stopped) return;
        this.o.logger.warn({ err: (err as Error).message, retryInMs: delay }, 'follow stream unreachable; serving the last state');
        await new Promise((r) => setTimeout(r, delay));
        delay = Math.min(delay * 2, 5000);
      }
    }
  }

  private async readOnce(): Promise<void> {
    const streams = this.o.chainIds.map((id) => ({ key: followStreamKey(this.o.prefix, id), id: this.last.get(id)! }));
    const reply = (await this.client.xRead(streams, { BLOCK: this.o.blockMs ?? 500, COUNT: 1000 })) as
      | { name: string; messages: { id: string; message: Record<string, string> }[] }[]
      | null;
    for (const stream of reply ?? []) {
      const chainId = Number(stream.name.slice(stream.name.lastIndexOf(':') + 1));
      for (const entry of stream.messages) {
        const update = JSON.parse(entry.message.update!) as BlockUpdate;
        // History up to the snapshot this instance started from is already in its state (a reorg among it included).
        if (update.blockNumber > this.startBlock.get(chainId)!) this.apply(update);
        this.last.set(chainId, entry.id);
        const s = this.seen.get(chainId) ?? { head: 0, at: 0, blocks: 0 };
        this.seen.set(chainId, { head: Math.max(s.head, update.blockNumber), at: Date.now(), blocks: s.blocks + 1 });
      }
    }
  }

  /** The follower's heartbeats: the state is current as of its last head poll when it has published up to that head. */
  private async heartbeats(): Promise<void> {
    for (const chainId of this.o.chainIds) {
      const raw = await this.client.get(followHeadKey(this.o.prefix, chainId));
      if (!raw) continue;
      const beat = JSON.parse(raw) as FollowHeartbeat;
      const s = this.seen.get(chainId) ?? { head: 0, at: 0, blocks: 0 };
      const current = beat.applied <= this.appliedBlock(chainId);
      this.seen.set(chainId, { head: Math.max(s.head, beat.head), at: current ? Math.max(s.at, beat.at) : s.at, blocks: s.blocks });
    }
  }
}
