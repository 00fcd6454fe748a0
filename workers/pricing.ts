/**
 * Piscina worker: holds its own replica of the pool graph (loaded from the same catalogue and
 * snapshot folders as the API process) and prices swaps with the exact AMM math. Tasks carry only
 * the request. Never throws domain errors across the thread boundary: returns result values.
 */
import { BroadcastChannel, receiveMessageOnPort, workerData } from 'node:worker_threads';
import type { Catalog } from '../src/catalog/Catalog.ts';
import { loadCatalog } from '../src/catalog/loadCatalog.ts';
import { type GraphMessage, RELOAD_CHANNEL } from '../src/graph/GraphHolder.ts';
import { PoolGraph } from '../src/graph/PoolGraph.ts';
import { derivePricingGraph, type PricingGraph, pricingGraphOf } from '../src/graph/PricingGraph.ts';
import { loadServedSnapshots } from '../src/graph/snapshot.ts';
import { handedCatalog, takeHandedChains, type WorkerHandover } from '../src/graph/workerHandover.ts';
import * as tradeTask from '../src/quote/TradeTask.ts';
import { encodeTrades } from '../src/quote/tradeCodec.ts';

interface PricingWorkerData {
  catalogDir: string;
  snapshotDir: string;
  shippedSnapshotDir: string | undefined;
  /** What the API thread built that this worker need not build again (catalogue, USD prices, pool scores), if sent. */
  handover?: WorkerHandover;
}

const { catalogDir, snapshotDir, shippedSnapshotDir, handover } = workerData as PricingWorkerData;
/** The same folders, read by the same rule, as the API process (src/graph/GraphHolder.ts). */
const folders = { snapshotDir, shippedSnapshotDir };
const catalog = handover ? handedCatalog(handover) : loadCatalog(catalogDir);
let generation = 0;
/** Followed blocks applied since the last reload. */
let updates = 0;
/** A generation whose blocks this worker missed (-1: none). */
let missed = -1;
let poolGraph = loadGraph();
let graph: PricingGraph = pricingGraphOf(poolGraph, catalog);
// Before the first task (Piscina hands this worker tasks once its module has loaded): ready means ready.
tradeTask.warmUp(graph);

/** The graph of the snapshot folder, with the API thread's prices and scores for snapshots of the file versions it read. */
function loadGraph(): PoolGraph {
  const loaded = new PoolGraph(loadServedSnapshots(folders).snapshots, catalog);
  if (handover) takeHandedChains(loaded, handover);
  return loaded;
}

/** Reads the snapshot folder: the state of a generation with no followed block applied. */
function reload(to: number): void {
  poolGraph = loadGraph();
  graph = pricingGraphOf(poolGraph, catalog);
  tradeTask.warmUp(graph);
  generation = to;
  updates = 0;
}

/** Applies what the API announced: a reload of the folder, or a followed block's per-pool update. */
function receive(message: GraphMessage): void {
  if ('reload' in message) {
    if (message.generation > generation) reload(message.generation);
    return;
  }
  if (message.generation !== generation || message.updates !== updates + 1) return;
  const next = poolGraph.withUpdate(message.update);
  derivePricingGraph(poolGraph, next, message.update);
  poolGraph = next;
  graph = pricingGraphOf(poolGraph, catalog);
  updates = message.updates;
}

// The API announces each new generation; apply it between tasks, or at once when a task needs it (below).
const channel = new BroadcastChannel(RELOAD_CHANNEL);
channel.unref();
channel.onmessage = (event) => receive((event as { data: GraphMessage }).data);

/** Longest wait for an announced block to arrive on the channel before a task is handed back. */
const ARRIVAL_TIMEOUT_MS = 2_000;
const pause = new Int32Array(new SharedArrayBuffer(4));

/** Reads the next message waiting on the channel now, if any. */
function drainOne(): boolean {
  const next = receiveMessageOnPort(channel as unknown as Parameters<typeof receiveMessageOnPort>[0]);
  if (next) receive(next.message as GraphMessage);
  return next !== undefined;
}

/**
 * Brings the replica to the task's state, synchronously: messages waiting on the channel are read first. A newer
 * generation with nothing waiting is a reload this worker missed (e.g. it started after it): the folder is read. A
 * followed block is waited for (the API posts it before the tasks that need it, but the channel and the task port
 * are separate); false when it cannot be had (a worker started after blocks were applied): the caller hands the
 * task back and the API prices it, never on an older state than it was given.
 */
function ensureState(wantedGeneration: number, wantedUpdates: number): boolean {
  while (generation < wantedGeneration && drainOne());
  if (generation < wantedGeneration) reload(wantedGeneration);
  const deadline = Date.now() + ARRIVAL_TIMEOUT_MS;
  while (generation === wantedGeneration && updates < wantedUpdates) {
    if (drainOne()) continue;
    // Blocks this worker never saw (it started after them) will not come: no waiting again until the next reload.
    if (missed === generation) return false;
    if (Date.now() > deadline) {
      missed = generation;
      return false;
    }
    Atomics.wait(pause, 0, 0, 1);
  }
  return generation === wantedGeneration && updates === wantedUpdates;
}

/** This worker's replica and catalogue as they stand (tests: what it built at start-up). */
export function replica(): { readonly graph: PoolGraph; readonly catalog: Catalog } {
  return { graph: poolGraph, catalog };
}

/**
 * Finds the best trade (or the best per DEX deployment) for one task, on this worker's replica (Pricer.findTrades);
 * a POST /quotes/routes search's trades described as its routes (Pricer.findRoutes); a POST /quotes search's trade
 * described with its steps (Pricer.findQuote).
 */
export function findTrades(task: tradeTask.TradeTask): tradeTask.TradeTaskResult {
  try {
    if (!ensureState(task.generation, task.updates))
      return {
        ok: false,
        error: { code: 'STATE_BEHIND', message: `the worker is not at generation ${task.generation}, block update ${task.updates}` },
      };
    if (tradeTask.isQuoteSearch(task)) return { ok: true, quotes: tradeTask.findQuote(graph, task) };
    if (tradeTask.isRouteSearch(task)) return { ok: true, routes: tradeTask.findRoutes(graph, task) };
    return { ok: true, trades: encodeTrades(tradeTask.findTrades(graph, task)) };
  } catch (error) {
    return { ok: false, error: { code: 'WORKER_FAILURE', message: error instanceof Error ? error.message : String(error) } };
  }
}

/** A batch of tasks (Pricer's TaskBatches), priced one after the other: one result per task, in order. */
export function priceTasks(tasks: readonly tradeTask.TradeTask[]): tradeTask.TradeTaskResult[] {
  return tasks.map(findTrades);
}

export default priceTasks;
