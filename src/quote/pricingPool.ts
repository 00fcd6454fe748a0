import { Piscina } from 'piscina';
import { fileURLToPath } from 'node:url';
import type { Config } from '../config.ts';
import { InternalError, ServiceUnavailableError } from '../errors/BaseError.ts';
import type { PoolPricing } from './priceSwap.ts';

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

/** A Piscina pool of pricing workers with bounded queue (backpressure: a full queue is a 503). */
export function createPricingPool(
  config: Pick<Config, 'workerThreads' | 'workerMaxQueue' | 'catalogDir' | 'snapshotDir'>,
  /** Worker entry file; tests substitute one that can be made to crash. */
  workerFile: string = WORKER,
): Pricer {
  const pool = new Piscina({
    filename: workerFile,
    minThreads: config.workerThreads,
    maxThreads: config.workerThreads,
    maxQueue: config.workerMaxQueue,
    concurrentTasksPerWorker: 1,
    execArgv: ['--import', 'tsx'],
    workerData: { catalogDir: config.catalogDir, snapshotDir: config.snapshotDir },
  });
  return {
    async price(task) {
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
    },
    async close() {
      await pool.close({ force: false });
    },
    queueSize() {
      return pool.queueSize;
    },
  };
}
