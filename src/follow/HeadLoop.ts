import type { Logger } from 'pino';
import type { FollowerRpc } from './FollowerRpc.ts';
import { followSchedule, type HeadSubscription, subscribeNewHeads } from './heads.ts';

/**
 * When a follower (ChainFollower) steps: its schedule (head poll and snapshot interval: the options', else from the
 * chain's block time), the newHeads subscription whose heads wake it at once, and the loop that steps, polls and
 * backs off after failures until stop().
 */
export class HeadLoop {
  /** Effective head poll and snapshot interval (the options', else from the block time measured at start). */
  pollMs = 1000;
  snapshotEvery = 0;
  /** Heads announced by the subscription, not yet stepped to (newest last); whether it is live. */
  private announced: string | undefined;
  private subscription: HeadSubscription | undefined;
  subscribed = false;
  private stopped = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;

  constructor(
    private readonly chainId: number,
    private readonly logger: Logger,
  ) {}

  /**
   * Sets the head poll and snapshot interval the options leave open from the chain's block time (followSchedule): the
   * mean over its last 64 blocks (timestamps are whole seconds, so never below 1 ms).
   */
  async tune(rpc: FollowerRpc, given: { readonly pollIntervalMs?: number; readonly snapshotEveryBlocks?: number }): Promise<void> {
    let blockMs = 1000;
    if (given.pollIntervalMs === undefined || given.snapshotEveryBlocks === undefined) {
      const head = Number(await rpc.request<string>('eth_blockNumber', []));
      const span = Math.min(64, head);
      if (span > 0) {
        const [now, then] = await Promise.all([rpc.blockAt(head), rpc.blockAt(head - span)]);
        blockMs = Math.max(1, ((Number(now.timestamp) - Number(then.timestamp)) * 1000) / span);
      }
    }
    ({ pollIntervalMs: this.pollMs, snapshotEveryBlocks: this.snapshotEvery } = followSchedule(blockMs, given));
    this.logger.info(
      { chainId: this.chainId, blockMs: Math.round(blockMs), pollIntervalMs: this.pollMs, snapshotEveryBlocks: this.snapshotEvery },
      'follower schedule',
    );
  }

  /** Subscribes to new heads (heads.ts): each announced head wakes the follow loop; a refusal leaves polling in charge. */
  async subscribe(url: string): Promise<void> {
    const log = (msg: string) => (err: unknown) => this.logger.warn({ chainId: this.chainId, err: (err as Error).message }, msg);
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

  /** The head the subscription announced since the last call (its hash), if any; forgotten once taken. */
  takeAnnounced(): string | undefined {
    const hash = this.announced;
    this.announced = undefined;
    return hash;
  }

  /** Steps in the background until stop(); each failed step is counted (onFailure), logged and retried. */
  run(step: () => Promise<void>, onFailure: () => void): void {
    this.loop = this.follow(step, onFailure);
  }

  private async follow(step: () => Promise<void>, onFailure: () => void): Promise<void> {
    let failures = 0;
    while (!this.stopped) {
      try {
        await step();
        failures = 0;
      } catch (err) {
        onFailure();
        failures++;
        this.logger.warn({ chainId: this.chainId, err: (err as Error).message }, 'follower step failed; retrying');
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

  /** Ends the loop (after the step under way) and the subscription. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.loop;
    await this.subscription?.close();
  }
}
