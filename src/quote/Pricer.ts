import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { Catalog } from '../catalog/Catalog.ts';
import type { Config } from '../config.ts';
import { InternalError, ServiceUnavailableError } from '../errors/BaseError.ts';
import type { ChainPoolIndex } from '../graph/ChainPoolIndex.ts';
import type { PoolGraph } from '../graph/PoolGraph.ts';
import { type PricingGraph, pricingGraphOf } from '../graph/PricingGraph.ts';
import { sharedSnapshotFiles } from '../graph/snapshot.ts';
import { workerHandover } from '../graph/workerHandover.ts';
import { snapshotProtocol } from '../protocols/registry.ts';
import type { TradeFinder, TradeSearch } from '../routing/TradeFinder.ts';
import type { DeploymentQuote, QuoteSearch } from './describedQuote.ts';
import type { DeploymentRoute, RouteSearch } from './describedRoutes.ts';
import { findQuote, findRoutes, findTrades, type TradeTask, type TradeTaskResult } from './TradeTask.ts';
import { TaskBatches } from './taskBatches.ts';
import { decodeTrades } from './tradeCodec.ts';

/** The pricing side of the quote path: finds trades on the state being served (in a worker, or in this thread). */
export interface Pricer extends TradeFinder {
  /** A POST /quotes/routes search's outcomes, each trade described (findRoutes); none when the chain has no pool state. */
  findRoutes(search: RouteSearch): Promise<DeploymentRoute[]>;
  /** A POST /quotes search's outcome, its trade described and its steps built (findQuote); none without pool state. */
  findQuote(search: QuoteSearch): Promise<DeploymentQuote[]>;
  close(): Promise<void>;
  /** Tasks waiting for a worker. */
  queueSize(): number;
}

const WORKER = fileURLToPath(new URL('../../workers/pricing.ts', import.meta.url));
/** The project's TypeScript loader (src/loader/register.js), which workers load their `.ts` modules with. */
export const TS_LOADER = new URL('../loader/register.js', import.meta.url).href;

/**
 * Most searches sent to a worker in one task (TaskBatches). Under load a batch's first search waits for the rest
 * (~0.5 ms each at default routing) before its answer comes back.
 */
const MAX_BATCH = 8;

/**
 * The node flags a pricing worker runs with: the project's TypeScript loader, plus the process's own CPU-profile flags (`--cpu-prof`,
 * `--cpu-prof-dir=...`, ...), so a service started with them profiles its workers too (bench:http's BENCH_CPU_PROF);
 * a worker's execArgv replaces the process's, so they would otherwise be lost.
 */
export function workerExecArgv(processArgs: readonly string[] = process.execArgv): string[] {
  const profile: string[] = [];
  for (let i = 0; i < processArgs.length; i++) {
    const arg = processArgs[i];
    if (!arg.startsWith('--cpu-prof')) continue;
    profile.push(arg);
    // `--cpu-prof-dir <dir>` (and -name, -interval) in two words: the value comes along.
    if (arg !== '--cpu-prof' && !arg.includes('=') && i + 1 < processArgs.length) profile.push(processArgs[++i]);
  }
  return [...profile, '--import', TS_LOADER];
}

/** How createPricer is set up beyond the config. */
export interface PricerOptions {
  /** Worker entry file; tests substitute one that can be made to crash. */
  readonly workerFile?: string;
  /**
   * The API process's current pool graph and catalogue. With them, cheap tasks (one hop, one split, direct pools
   * of at most `inlineMaxTicks` initialized ticks) are priced in the calling thread; the rest go to a worker; and
   * workers start from this catalogue and the graph's USD prices and pool scores (workerHandover.ts) instead of
   * building their own.
   * Without them, every task goes to a worker.
   */
  readonly graph?: () => PoolGraph;
  readonly catalog?: Catalog;
  /** v3 pools with more initialized ticks than this are priced by workers only (default 256). */
  readonly inlineMaxTicks?: number;
  /** Generation of the state being served (GraphHolder.generation; default 0): workers price on the same snapshots. */
  readonly generation?: () => number;
  /** Followed blocks applied to it (GraphHolder.updates; default 0). */
  readonly updates?: () => number;
  /** Most searches sent to a worker in one task (default MAX_BATCH; 1 sends each alone, for benchmarks). */
  readonly maxBatch?: number;
}

/** How many tasks were priced where (for benchmarks and metrics). */
export interface PricerStats {
  inline: number;
  worker: number;
}

/**
 * Prices cheap tasks in the calling thread with the code the workers run (findTrades): a task searching one hop
 * and one split over direct pools whose walks are short. Everything else is sent to a worker, so a heavy search
 * never holds the API's event loop.
 */
class InlinePricer {
  constructor(
    private readonly graph: () => PoolGraph,
    private readonly catalog: Catalog,
    private readonly maxTicks: number,
  ) {}

  /** Any search priced in this thread by `price` (findTrades, findRoutes or findQuote). */
  runHere<S extends TradeSearch, R>(search: S, price: (graph: PricingGraph, search: S) => R): R {
    return price(pricingGraphOf(this.graph(), this.catalog), search);
  }

  /** The search priced in this thread by `price`, or undefined when it must go to a worker. */
  run<S extends TradeSearch, R>(search: S, price: (graph: PricingGraph, search: S) => R): R | undefined {
    if (search.limits.maxHops > 1 || search.limits.maxSplits > 1) return undefined;
    const pricing = pricingGraphOf(this.graph(), this.catalog);
    const index = pricing.chain(search.chainId);
    if (index && hasDeepDirectPool(index, search.tokenIn, search.tokenOut, this.maxTicks)) return undefined;
    return price(pricing, search);
  }
}

/** Whether a pair's direct pools (the native asset counts as its wrapped token) include one with more than `maxTicks` initialized ticks. */
function hasDeepDirectPool(index: ChainPoolIndex, tokenIn: string, tokenOut: string, maxTicks: number): boolean {
  const out = tokenOut === index.native ? index.wrappedNative : tokenOut;
  const into = tokenIn === index.native ? index.wrappedNative : tokenIn;
  return index.pairPools(into, out).some((e) => snapshotProtocol(e.state.version).stateSize(e.state) > maxTicks);
}

/**
 * What each pricing worker starts from (workers/pricing.ts): the folders, the snapshot bytes the API process read
 * (shared: workers parse them without a copy of their own, nor scanning their tick lists again), and with the API's
 * graph its catalogue, USD prices and pool scores, which workers would otherwise build again (workerHandover.ts).
 */
export function pricingWorkerData(
  config: Pick<Config, 'catalogDir' | 'snapshotDir' | 'shippedSnapshotDir'>,
  opts: Pick<PricerOptions, 'graph' | 'catalog'> = {},
): Record<string, unknown> {
  return {
    catalogDir: config.catalogDir,
    snapshotDir: config.snapshotDir,
    shippedSnapshotDir: config.shippedSnapshotDir,
    sharedSnapshotFiles: [config.snapshotDir, config.shippedSnapshotDir].flatMap((dir) => (dir ? sharedSnapshotFiles(dir) : [])),
    handover: opts.graph && opts.catalog ? workerHandover(opts.graph(), opts.catalog) : undefined,
  };
}

/**
 * The pricer: a Piscina pool of pricing workers with bounded queue (backpressure: a full queue is a 503) and,
 * when given the API's graph, in-thread pricing of cheap tasks (see PricerOptions and bench/README.md).
 */
export function createPricer(
  config: Pick<Config, 'workerThreads' | 'workerMaxQueue' | 'catalogDir' | 'snapshotDir' | 'shippedSnapshotDir'>,
  opts: PricerOptions = {},
): Pricer & { stats(): PricerStats; probeWorkers(): Promise<void> } {
  const pool = new Piscina({
    filename: opts.workerFile ?? WORKER,
    minThreads: config.workerThreads,
    maxThreads: config.workerThreads,
    maxQueue: config.workerMaxQueue,
    concurrentTasksPerWorker: 1,
    // Tasks in arrival order: by default Piscina puts a task it shifted but could not hand to a busy worker back at the
    // end of its queue, so under load some requests were overtaken by a hundred later ones (p99 ~10x the median).
    stricterFIFO: true,
    // Piscina's run and wait time histograms (two clock reads and two records per task on the API thread): read by nothing here.
    recordTiming: false,
    execArgv: workerExecArgv(),
    workerData: pricingWorkerData(config, opts),
  });
  const inline = opts.graph && opts.catalog ? new InlinePricer(opts.graph, opts.catalog, opts.inlineMaxTicks ?? 256) : undefined;
  const stats: PricerStats = { inline: 0, worker: 0 };
  // Tasks sent to the workers and not answered yet. One batch per worker runs, up to maxQueue more tasks wait: a task
  // beyond that is refused here, by count (Piscina's own queue stays empty: a batch goes out only to a free worker).
  const capacity = config.workerThreads + config.workerMaxQueue;
  let sent = 0;
  /** A search as a worker task: with the version of the state it must be priced on. */
  const asTask = (search: TradeSearch | RouteSearch | QuoteSearch): TradeTask => ({
    ...search,
    generation: opts.generation?.() ?? 0,
    updates: opts.updates?.() ?? 0,
  });
  const batches = new TaskBatches<TradeTask, TradeTaskResult>(config.workerThreads, opts.maxBatch ?? MAX_BATCH, async (tasks) => {
    try {
      return (await pool.run(tasks, { name: 'priceTasks' })) as TradeTaskResult[];
    } catch (error) {
      throw new ServiceUnavailableError('a pricing worker failed; retry the request', { cause: error });
    }
  });

  /**
   * A search's answer from a worker, which `read` takes; a worker started after followed blocks were applied cannot
   * catch up with them: the API thread prices it then (`here`).
   */
  async function inWorker<S extends TradeSearch, R>(
    search: S,
    here: (graph: PricingGraph, search: S) => R,
    read: (answer: WorkerAnswer) => R,
  ): Promise<R> {
    if (sent >= capacity) throw new ServiceUnavailableError('the pricing queue is full; retry shortly');
    let result: TradeTaskResult;
    sent++;
    try {
      result = await batches.submit(asTask(search));
    } finally {
      sent--;
    }
    if (!result.ok && result.error.code === 'STATE_BEHIND' && inline) {
      stats.inline++;
      return inline.runHere(search, here);
    }
    if (!result.ok) throw new InternalError(`pricing worker: ${result.error.code}: ${result.error.message}`);
    return read(result);
  }

  /** A search's answer: priced in this thread when cheap (InlinePricer, by `here`), else by a worker (inWorker). */
  async function price<S extends TradeSearch, R>(
    search: S,
    here: (graph: PricingGraph, search: S) => R,
    read: (answer: WorkerAnswer) => R,
  ): Promise<R> {
    const found = inline?.run(search, here);
    if (found) {
      stats.inline++;
      return found;
    }
    stats.worker++;
    return inWorker(search, here, read);
  }

  return {
    findTrades: (search) => price(search, findTrades, (answer) => ('trades' in answer ? decodeTrades(answer.trades) : [])),
    findRoutes: (search) => price(search, findRoutes, (answer) => ('routes' in answer ? answer.routes : [])),
    findQuote: (search) => price(search, findQuote, (answer) => ('quotes' in answer ? answer.quotes : [])),
    async close() {
      await pool.close({ force: false });
    },
    queueSize() {
      return batches.waiting + pool.queueSize;
    },
    stats() {
      return { ...stats };
    },
    async probeWorkers() {
      // A task on no chain per worker, sent together: each idle worker takes one (one task per worker at a time), so
      // every worker has answered, and has therefore loaded and warmed its state (workers/pricing.ts), when all have.
      await Promise.all(Array.from({ length: config.workerThreads }, () => inWorker(probeTask, findTrades, () => [])));
    },
  };
}

/** A worker's answer to a task it priced. */
type WorkerAnswer = Exclude<TradeTaskResult, { ok: false }>;

const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';

/** A search on no chain (chain id 0): answered with no trades without touching any state. */
export const probeTask: TradeSearch = {
  chainId: 0,
  tokenIn: ZERO_ADDRESS,
  tokenOut: ZERO_ADDRESS,
  tradeType: 'exactIn',
  amount: 1n,
  limits: { maxHops: 1, maxSplits: 1, gasPriceWei: 0n, deployments: [] },
  perDeployment: false,
};
