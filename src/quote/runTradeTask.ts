import type { ChainPoolIndex, PoolEntry, PricingGraph } from '../graph/PricingGraph.ts';
import type { TradeType } from '../protocols/PoolProtocol.ts';
import { bestTrade, type TradeOutcome } from '../routing/bestTrade.ts';
import { tradeEnds } from '../routing/tradeEnds.ts';

/** What the API sends a pricing worker: the request only, never pool state. */
export interface TradeTask {
  chainId: number;
  /** Lower-case token addresses (the native asset as its pseudo-address). */
  tokenIn: string;
  tokenOut: string;
  tradeType: TradeType;
  /** The fixed amount (tokenIn's for exactIn, tokenOut's for exactOut). */
  amount: bigint;
  maxHops: number;
  maxSplits: number;
  gasPriceWei: bigint;
  /** DEX deployments (`slug/version`) whose pools may be used. */
  deployments: string[];
  /**
   * One best trade per deployment (POST /quotes/routes), plus the best over all of them when it mixes deployments,
   * instead of one best trade over all of them (a bare wrap or unwrap, through no DEX, is one trade either way).
   */
  perDeployment: boolean;
  /** Snapshot generation (reloads) the API process is serving; a worker behind it reloads. */
  generation: number;
  /** Followed blocks the API has applied within that generation; a worker behind it applies them first. */
  updates: number;
}

/** One trade outcome; `deployment` is `slug/version` for a trade kept to one deployment, '' for one over all of them. */
export interface DeploymentTrade {
  deployment: string;
  outcome: TradeOutcome;
}

/** What a worker returns: outcomes, or a plain error value (class identity does not survive the thread hop). */
export type TradeTaskResult = { ok: true; trades: DeploymentTrade[] } | { ok: false; error: { code: string; message: string } };

/** Runs a trade task on a pricing graph: the same code in a worker and in the API thread. */
export function runTradeTask(graph: PricingGraph, task: TradeTask): DeploymentTrade[] {
  const index = graph.chain(task.chainId);
  if (!index) return [];
  if (!task.perDeployment || tradeEnds(index.wrappedNative, task.tokenIn, task.tokenOut).bareWrap)
    return [{ deployment: '', outcome: search(index, task, task.deployments) }];
  const each = task.deployments.map((deployment) => ({ deployment, outcome: search(index, task, [deployment]) }));
  // One pool per trade: the best over all deployments is one of theirs, never a mix, and a refusal of all of them
  // says what each says.
  if (task.maxHops === 1 && task.maxSplits === 1) return each;
  const overall: DeploymentTrade = { deployment: '', outcome: search(index, task, task.deployments) };
  // The best trade over all of them, when it goes through more than one deployment, is an entry of its own; when
  // there is none, its refusal says why (e.g. the only paths mix deployments that cannot execute an exact output).
  const mixed =
    overall.outcome.ok && new Set(overall.outcome.trade.splits.flatMap((s) => s.route.legs.map((l) => `${l.dex}/${l.version}`))).size > 1;
  return mixed || !overall.outcome.ok ? [...each, overall] : each;
}

/** The task's best trade through the given deployments' pools. */
function search(index: ChainPoolIndex, task: TradeTask, deployments: readonly string[]): TradeOutcome {
  const allowKey = deployments.join(',');
  // The filter of a deployment list is made once per index and reused (it names the memoised candidate paths too).
  const allow = index.memo(`allow:${allowKey}`, () => {
    const allowed = new Set(deployments);
    return (e: PoolEntry): boolean => allowed.has(e.deployment);
  });
  const { tokenIn, tokenOut, tradeType, amount, maxHops, maxSplits, gasPriceWei } = task;
  return bestTrade(index, { tokenIn, tokenOut, tradeType, amount, maxHops, maxSplits, gasPriceWei, allow, allowKey });
}
