/**
 * Piscina worker: holds its own replica of the pool graph (loaded from the same catalogue and
 * snapshot folders as the API process) and prices swaps with the exact AMM math. Tasks carry only
 * the request. Never throws domain errors across the thread boundary: returns result values.
 */
import { BroadcastChannel, workerData } from 'node:worker_threads';
import { loadCatalog } from '../src/catalog/loadCatalog.ts';
import { RELOAD_CHANNEL } from '../src/graph/GraphHolder.ts';
import { PoolGraph } from '../src/graph/PoolGraph.ts';
import { PricingGraph } from '../src/graph/PricingGraph.ts';
import { loadSnapshots } from '../src/graph/snapshot.ts';
import { runTradeTask, type TradeTask, type TradeTaskResult } from '../src/quote/runTradeTask.ts';

interface PricingWorkerData {
  catalogDir: string;
  snapshotDir: string;
}

const { catalogDir, snapshotDir } = workerData as PricingWorkerData;
const catalog = loadCatalog(catalogDir);
let generation = 0;
let graph = new PricingGraph(new PoolGraph(loadSnapshots(snapshotDir).snapshots, catalog), catalog);

/** Reloads the snapshots when the API process has moved to a newer generation. */
function ensureGeneration(wanted: number): void {
  if (wanted <= generation) return;
  graph = new PricingGraph(new PoolGraph(loadSnapshots(snapshotDir).snapshots, catalog), catalog);
  generation = wanted;
}

// The API announces each new generation; swap the replica between tasks rather than in one.
const reloads = new BroadcastChannel(RELOAD_CHANNEL);
reloads.unref();
reloads.onmessage = (event) => {
  const wanted = (event as { data: { generation: number } }).data.generation;
  try {
    ensureGeneration(wanted);
  } catch {
    // The next task carries the generation and retries the load.
  }
};

/** Finds the best trade (or the best per DEX deployment) for one task. */
export function findTrades(task: TradeTask): TradeTaskResult {
  try {
    ensureGeneration(task.generation);
    return { ok: true, trades: runTradeTask(graph, task) };
  } catch (error) {
    return { ok: false, error: { code: 'WORKER_FAILURE', message: error instanceof Error ? error.message : String(error) } };
  }
}

export default findTrades;
