import { type FSWatcher, mkdirSync, watch } from 'node:fs';
import { BroadcastChannel } from 'node:worker_threads';
import type { Logger } from 'pino';
import type { Catalog } from '../catalog/Catalog.ts';
import type { BlockUpdate } from './blockUpdate.ts';
import { PoolGraph } from './PoolGraph.ts';
import { derivePricingGraph } from './PricingGraph.ts';
import { loadServedSnapshots, type SnapshotFolders } from './snapshot.ts';

/** Channel on which the API process tells pricing workers of each new state generation (GraphMessage). */
export const RELOAD_CHANNEL = 'swap-quote-service:snapshot-reload';

/**
 * What the API process posts on RELOAD_CHANNEL for every new generation, in order: a snapshot reload (workers read
 * the folder again) or one followed block (workers apply the same per-pool update to their replica).
 */
export type GraphMessage =
  | { readonly generation: number; readonly reload: true }
  | { readonly generation: number; readonly updates: number; readonly update: BlockUpdate };

/** Outcome of one reload attempt. */
export interface ReloadResult {
  readonly ok: boolean;
  readonly generation: number;
  readonly errors: readonly string[];
}

/**
 * Holds the pool graph being served and swaps it atomically on reload. A reload is all or nothing:
 * if any snapshot file is refused (corrupt, schema-invalid), the old graph keeps serving and the
 * refusal is logged. Followed blocks (apply) replace only the pools they changed, copy-on-write: a quote keeps the
 * graph it started with. Each reload (a new generation) and each applied block (a new update count within it) is
 * broadcast to the pricing workers (GraphMessage), which reload the folder or apply the same update to their
 * replica; tasks carry both numbers, so a worker never prices on an older graph than the API's.
 */
export class GraphHolder {
  private graph: PoolGraph;
  private gen = 0;
  private applied = 0;
  private watcher: FSWatcher | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly channel = new BroadcastChannel(RELOAD_CHANNEL);
  private files: ReadonlyMap<number, string>;

  constructor(
    private readonly catalog: Catalog,
    private readonly folders: SnapshotFolders,
    private readonly logger: Logger,
    /** Builds what serving a graph needs before it is served (at start-up and on each reload), e.g. the pricing index. */
    private readonly prepare: (graph: PoolGraph) => void = () => {},
  ) {
    const { snapshots, errors, files } = loadServedSnapshots(folders);
    for (const error of errors) logger.error({ snapshotError: error }, 'snapshot refused');
    this.graph = new PoolGraph(snapshots, catalog);
    prepare(this.graph);
    this.files = files;
    for (const line of this.graph.ignored) logger.warn({ ignored: line }, 'snapshot pool ignored');
    this.channel.unref();
  }

  /** The graph being served. */
  current(): PoolGraph {
    return this.graph;
  }

  /** The file each chain's served snapshot was read from (SNAPSHOT_DIR or the shipped folder), as of the last (re)load. */
  snapshotFile(chainId: number): string | undefined {
    return this.files.get(chainId);
  }

  /** The generation of the graph being served: snapshot reloads so far (0 at start-up). */
  generation(): number {
    return this.gen;
  }

  /** Followed blocks applied since the last reload (the state version within a generation). */
  updates(): number {
    return this.applied;
  }

  /** Reloads every snapshot; swaps only if all are valid. */
  reload(reason: string): ReloadResult {
    const { snapshots, errors, files } = loadServedSnapshots(this.folders);
    if (errors.length > 0) {
      for (const error of errors)
        this.logger.error({ snapshotError: error, reason }, 'snapshot refused; the previous snapshots keep serving');
      return { ok: false, generation: this.gen, errors };
    }
    const before = new Map(this.graph.chainIds().map((id) => [id, this.graph.snapshot(id)!.blockNumber]));
    const next = new PoolGraph(snapshots, this.catalog);
    this.prepare(next);
    this.graph = next;
    this.files = files;
    this.gen += 1;
    this.applied = 0;
    this.post({ generation: this.gen, reload: true });
    this.logger.info(
      {
        reason,
        generation: this.gen,
        chains: snapshots.map((s) => ({
          chainId: s.chainId,
          pools: s.pools.length,
          block: s.blockNumber,
          previousBlock: before.get(s.chainId) ?? null,
          file: files.get(s.chainId),
        })),
      },
      'snapshots reloaded',
    );
    return { ok: true, generation: this.gen, errors };
  }

  /**
   * Applies one followed block: a new graph sharing every pool the block did not change (and the pricing index,
   * derived for the changed pools only). An update not newer than the chain's state (e.g. after a reload to a later
   * snapshot) changes nothing. Returns whether the graph moved.
   */
  apply(update: BlockUpdate): boolean {
    const previous = this.graph;
    const next = previous.withUpdate(update);
    if (next === previous) return false;
    derivePricingGraph(previous, next, update);
    this.graph = next;
    this.applied += 1;
    this.post({ generation: this.gen, updates: this.applied, update });
    return true;
  }

  private post(message: GraphMessage): void {
    this.channel.postMessage(message);
  }

  /**
   * Reloads when files in SNAPSHOT_DIR change (debounced; the folder is created when missing, so a first seeding run
   * is seen), in addition to explicit reloads (SIGHUP). The shipped folder is read only and not watched.
   */
  watch(debounceMs = 250): void {
    if (this.watcher) return;
    try {
      mkdirSync(this.folders.snapshotDir, { recursive: true });
    } catch (error) {
      this.logger.error(
        { err: error, snapshotDir: this.folders.snapshotDir },
        'snapshot folder cannot be created; not watched (SIGHUP reloads)',
      );
      return;
    }
    this.watcher = watch(this.folders.snapshotDir, (_event, file) => {
      if (file && !String(file).endsWith('.json')) return;
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.reload('snapshot folder changed'), debounceMs);
    });
    this.watcher.on('error', (error) => this.logger.error({ err: error }, 'snapshot folder watch failed'));
  }

  /** Stops watching and closes the worker channel. */
  close(): void {
    clearTimeout(this.timer);
    this.watcher?.close();
    this.channel.close();
  }
}
