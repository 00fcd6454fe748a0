import { Piscina } from 'piscina';
import { fileURLToPath } from 'node:url';
import type { Config } from '../config.ts';
import { InternalError, ServiceUnavailableError } from '../errors/BaseError.ts';
import type { TickSource } from '../amm/tickSource.ts';
import type { PoolGraph } from '../graph/PoolGraph.ts';
import { PricingGraph, type PricedPool } from '../graph/PricingGraph.ts';
import { tickCount } from '../graph/parseSnapshotBytes.ts';
import { sharedSnapshotFiles } from '../graph/snapshot.ts';
import { priceSwap, type PoolPricing } from './priceSwap.ts';

/** What the API sends a pricing worker: the request only, never pool state. */
export interface PriceTask {
  chainId: number;
  /** Effective token addresses (native already replaced by the wrapped token). */
  tokenIn: string;
  tokenOut: string;
  amountIn: bigint;
  /** Snapshot generation the API process is serving; the worker reloads when it differs. */
  generation: number;
}

/** What a worker returns: pricings, or a plain error value (class identity does not survive the thread hop). */
export type PriceTaskResult =
  | { ok: true; pricings: PoolPricing[] }
  | { ok: false; error: { code: string; message: string } };

/** The pricing side of the quote path: prices a pair's candidate pools for one amount. */
export interface Pricer {
  price(task: PriceTask): Promise<PoolPricing[]>;
  close(): Promise<void>;
  /** Tasks waiting for a worker. */
  queueSize(): number;
}

const WORKER = fileURLToPath(new URL('../../workers/pricing.ts', import.meta.url));

/** How createPricingPool is set up beyond the config. */
export interface PricingPoolOptions {
  /** Worker entry file; tests substitute one that can be made to crash. */
  readonly workerFile?: string;
  /**
   * The API process's current pool graph. With it, tasks are first priced in the calling thread within
   * `inlineStepBudget`; only tasks that exceed it go to a worker. Without it, every task goes to a worker.
   */
  readonly graph?: () => PoolGraph;
  /** Tick-boundary steps (summed over a task's v3 pools) allowed in the calling thread (default 96; 0 disables). */
  readonly inlineStepBudget?: number;
  /** v3 pools with more initialized ticks than this are converted and priced by workers only (default 256). */
  readonly inlineMaxTicks?: number;
}

/** How many tasks were priced where (for benchmarks and metrics). */
export interface PricerStats {
  inline: number;
  /** Tasks sent to a worker because they had a pool too large to convert in this thread. */
  workerLarge: number;
  /** Tasks sent to a worker after using up the step budget in this thread. */
  workerBudget: number;
}

/** Thrown by a budgeted tick source to stop an in-thread walk; never leaves this module. */
class StepBudgetExceeded extends Error {}
const BUDGET_EXCEEDED = new StepBudgetExceeded('step budget exceeded');

/**
 * Prices in the calling thread with a bounded number of tick-source steps. Priced pools are the same data a
 * worker uses, with each v3 pool's tick source wrapped to count steps: a walk either finishes exactly as it
 * would in a worker, or throws BUDGET_EXCEEDED and the whole task is handed to a worker.
 */
class InlinePricer {
  private readonly graphs = new WeakMap<PoolGraph, PricingGraph>();
  private readonly twins = new WeakMap<PricedPool, PricedPool>();
  private stepsLeft = 0;

  constructor(
    private readonly graph: () => PoolGraph,
    private readonly budget: number,
    private readonly maxTicks: number,
  ) {}

  /** The pricings, or 'large' / 'budget' when the task must go to a worker. */
  price(task: PriceTask): PoolPricing[] | 'large' | 'budget' {
    const graph = this.graph();
    let pricing = this.graphs.get(graph);
    if (!pricing) this.graphs.set(graph, (pricing = new PricingGraph(graph)));
    for (const pool of graph.poolsForPair(task.chainId, task.tokenIn, task.tokenOut)) {
      if (pool.version === 'v3' && tickCount(pool) > this.maxTicks) return 'large';
    }
    const candidates = pricing.candidates(task.chainId, task.tokenIn, task.tokenOut).map((p) => this.twin(p));
    this.stepsLeft = this.budget;
    try {
      return priceSwap(candidates, task.tokenIn, task.amountIn);
    } catch (error) {
      if (error === BUDGET_EXCEEDED) return 'budget';
      throw error;
    }
  }

  /** The pool with its tick source counting steps against `stepsLeft` (v2 pools are returned as they are). */
  private twin(p: PricedPool): PricedPool {
    if (p.version === 'v2') return p;
    let t = this.twins.get(p);
    if (!t) {
      const inner = p.pool.ticks;
      const ticks: TickSource = {
        nextInitializedTickWithinOneWord: (tick, lte) => {
          if (--this.stepsLeft < 0) throw BUDGET_EXCEEDED;
          return inner.nextInitializedTickWithinOneWord(tick, lte);
        },
      };
      t = { ...p, pool: Object.freeze({ ...p.pool, ticks }) };
      this.twins.set(p, t);
    }
    return t;
  }
}

/**
 * The pricer: a Piscina pool of pricing workers with bounded queue (backpressure: a full queue is a 503) and,
 * when given the API's graph, in-thread pricing of cheap tasks (see PricingPoolOptions and bench/README.md).
 */
export function createPricingPool(
  config: Pick<Config, 'workerThreads' | 'workerMaxQueue' | 'catalogDir' | 'snapshotDir'>,
  opts: PricingPoolOptions = {},
): Pricer & { stats(): PricerStats; probeWorkers(): Promise<void> } {
  const pool = new Piscina({
    filename: opts.workerFile ?? WORKER,
    minThreads: config.workerThreads,
    maxThreads: config.workerThreads,
    maxQueue: config.workerMaxQueue,
    concurrentTasksPerWorker: 1,
    execArgv: ['--import', 'tsx'],
    // The snapshot bytes the API process read, shared: workers parse them without a copy of their own.
    workerData: { catalogDir: config.catalogDir, snapshotDir: config.snapshotDir, sharedSnapshotFiles: sharedSnapshotFiles(config.snapshotDir) },
  });
  const budget = opts.inlineStepBudget ?? 96;
  const inline = opts.graph && budget > 0 ? new InlinePricer(opts.graph, budget, opts.inlineMaxTicks ?? 256) : undefined;
  const stats: PricerStats = { inline: 0, workerLarge: 0, workerBudget: 0 };

  async function inWorker(task: PriceTask): Promise<PoolPricing[]> {
    let result: PriceTaskResult;
    try {
      result = (await pool.run(task, { name: 'price' })) as PriceTaskResult;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (/queue is at limit/i.test(message)) {
        throw new ServiceUnavailableError('the pricing queue is full; retry shortly', { cause: error });
      }
      throw new ServiceUnavailableError('a pricing worker failed; retry the request', { cause: error });
    }
    if (!result.ok) throw new InternalError(`pricing worker: ${result.error.code}: ${result.error.message}`);
    return result.pricings;
  }

  return {
    async price(task) {
      if (inline) {
        const result = inline.price(task);
        if (result === 'large') stats.workerLarge++;
        else if (result === 'budget') stats.workerBudget++;
        else {
          stats.inline++;
          return result;
        }
      }
      return inWorker(task);
    },
    async close() {
      await pool.close({ force: false });
    },
    queueSize() {
      return pool.queueSize;
    },
    stats() {
      return { ...stats };
    },
    async probeWorkers() {
      // An empty pair on no chain: a worker answers with no pricings, proving a thread is up.
      await inWorker({ chainId: 0, tokenIn: ZERO_ADDRESS, tokenOut: ZERO_ADDRESS, amountIn: 1n, generation: 0 });
    },
  };
}

const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';
