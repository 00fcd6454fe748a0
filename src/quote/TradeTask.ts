import type { PricingGraph } from '../graph/PricingGraph.ts';
import type { TradeType } from '../protocols/PoolProtocol.ts';
import { bestTradesByDeployment, type DeploymentTrade } from '../routing/bestTradesByDeployment.ts';
import type { RoutingLimits } from '../routing/RoutingLimits.ts';

/** What the API sends a pricing worker: the request only, never pool state. */
export interface TradeTask {
  chainId: number;
  /** Lower-case token addresses (the native asset as its pseudo-address). */
  tokenIn: string;
  tokenOut: string;
  tradeType: TradeType;
  /** The fixed amount (tokenIn's for exactIn, tokenOut's for exactOut). */
  amount: bigint;
  limits: RoutingLimits;
  /** One best trade per deployment (POST /quotes/routes) instead of one over all of them (bestTradesByDeployment). */
  perDeployment: boolean;
  /** Snapshot generation (reloads) the API process is serving; a worker behind it reloads. */
  generation: number;
  /** Followed blocks the API has applied within that generation; a worker behind it applies them first. */
  updates: number;
}

/** What a worker returns: outcomes, or a plain error value (class identity does not survive the thread hop). */
export type TradeTaskResult = { ok: true; trades: DeploymentTrade[] } | { ok: false; error: { code: string; message: string } };

/** Finds a task's trades on a pricing graph (Pricer.findTrades): the same code in a worker and in the API thread. */
export function findTrades(graph: PricingGraph, task: TradeTask): DeploymentTrade[] {
  const index = graph.chain(task.chainId);
  return index ? bestTradesByDeployment(index, task, task.limits, task.perDeployment) : [];
}
