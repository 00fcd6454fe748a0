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

/**
 * The chains the follower process publishes (a Redis set of chain ids): replaced with its chains when it starts, each
 * chain added again at every heartbeat. Instances read and gate readiness only on the chains announced here.
 */
export function followChainsKey(prefix: string): string {
  return `${prefix}:follow:chains`;
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

  /**
   * Announces the chains this follower publishes, replacing what an earlier run announced (one follower process per
   * REDIS_KEY_PREFIX): instances follow exactly these. A chain stays announced while this process is down, so
   * instances notice a dead follower (their readiness fails after MAX_STATE_AGE_SECONDS).
   */
  async announce(chainIds: readonly number[]): Promise<void> {
    const key = followChainsKey(this.o.prefix);
    const multi = this.client.multi().del(key);
    if (chainIds.length > 0) multi.sAdd(key, chainIds.map(String));
    await multi.exec();
  }

  /** Sets a chain's heartbeat and keeps it announced (should Redis have lost the set); a failure is ignored. */
  heartbeat(chainId: number, beat: FollowHeartbeat): void {
    this.client.set(followHeadKey(this.o.prefix, chainId), JSON.stringify(beat)).catch(() => undefined);
    this.client.sAdd(followChainsKey(this.o.prefix), String(chainId)).catch(() => undefined);
  }

  /** Closes the connection. */
  close(): void {
    this.client.destroy();
  }
}

/**
 * An API instance's reader of the followed chains' streams (FOLLOW_STREAM=true with REDIS_URL). It follows the chains
 * the follower announces (followChainsKey) among those this instance has a snapshot of (`chainIds`), checking the
 * announcement at every read: from a chain's announcement on, it reads every entry from the start of the chain's
 * stream (entries up to the block of the instance's snapshot are skipped), then blocks for new ones, applying each in
 * order through `apply`. `chains()` (readiness, metrics) lists the announced chains only: a chain with a snapshot and
 * no follower is served at its snapshot's age and fails nothing. Redis down: the state keeps serving, the reader
 * retries with backoff and resumes after the last entry it applied, so nothing is skipped. Entries are never deleted here.
 */
export class FollowStreamReader {
  private readonly client: Client;
  private readonly last = new Map<number, string>();
  private readonly seen = new Map<number, { head: number; at: number; blocks: number }>();
  /** Each chain's block when this reader began reading it: older entries (history before its snapshot) are skipped. */
  private readonly startBlock = new Map<number, number>();
  /** Chains the follower announced at the last check, in `chainIds` order. */
  private announced: readonly number[] = [];
  /** Announced chains this instance has no snapshot of (warned once each). */
  private readonly unknown = new Set<number>();
  private stopped = false;
  private loop: Promise<void> | undefined;

  constructor(
    private readonly o: { url: string; prefix: string; chainIds: readonly number[]; logger: Logger; blockMs?: number },
    private readonly apply: (update: BlockUpdate) => void,
    private readonly appliedBlock: (chainId: number) => number,
  ) {
    this.client = followClient(o.url);
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

  /** The followed chains (announced, with a snapshot here) as this instance knows them (stream entries, heartbeats). */
  chains(): { status: FollowedChainStatus; counters: FollowedChainCounters }[] {
    return this.announced.map((chainId) => {
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
        await this.announcements();
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

  /** Reads which chains the follower announces; a chain announced for the first time is read from its stream's start. */
  private async announcements(): Promise<void> {
    const ids = new Set((await this.client.sMembers(followChainsKey(this.o.prefix))).map(Number));
    for (const id of ids) {
      if (this.o.chainIds.includes(id) || this.unknown.has(id)) continue;
      this.unknown.add(id);
      this.o.logger.warn({ chainId: id }, 'the follower publishes a chain this instance has no snapshot of; not applied');
    }
    this.announced = this.o.chainIds.filter((id) => ids.has(id));
    for (const id of this.announced) {
      if (this.last.has(id)) continue;
      this.last.set(id, '0');
      this.startBlock.set(id, this.appliedBlock(id));
    }
  }

  private async readOnce(): Promise<void> {
    // Chains announced once stay read (a follower restarted without one leaves its stream alone).
    const streams = [...this.last].map(([id, last]) => ({ key: followStreamKey(this.o.prefix, id), id: last }));
    if (streams.length === 0) {
      await new Promise((r) => setTimeout(r, this.o.blockMs ?? 500));
      return;
    }
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
    for (const chainId of this.announced) {
      const raw = await this.client.get(followHeadKey(this.o.prefix, chainId));
      if (!raw) continue;
      const beat = JSON.parse(raw) as FollowHeartbeat;
      const s = this.seen.get(chainId) ?? { head: 0, at: 0, blocks: 0 };
      const current = beat.applied <= this.appliedBlock(chainId);
      this.seen.set(chainId, { head: Math.max(s.head, beat.head), at: current ? Math.max(s.at, beat.at) : s.at, blocks: s.blocks });
    }
  }
}
