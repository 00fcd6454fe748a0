import type { DeploymentId } from '../catalog/Catalog.ts';
import type { HooksOption } from '../protocols/uniswapV4/v4Fees.ts';

/**
 * How far a trade search may go: the routing extensions of a quote request (README, "Routing"), carried as one
 * value from the request to the search (the pricing task, the per-deployment fan-out, bestTrade, findRoutes).
 */
export interface RoutingLimits {
  /** Most pools in one path. */
  readonly maxHops: number;
  /** Most paths the amount may be split over. */
  readonly maxSplits: number;
  /** Wei per gas unit to rank trades by net of their network fee; 0 ranks by gross amounts. */
  readonly gasPriceWei: bigint;
  /** DEX deployments whose pools may be used. */
  readonly deployments: readonly DeploymentId[];
  /** Which v4 pools with hooks may be used (src/protocols/uniswapV4/v4Fees.ts, v4HookAdmits); default "safe". */
  readonly hooks?: HooksOption;
  /** The chain catalogue's allowed v4 hooks (lower-case), admitted under "safe". */
  readonly allowedHooks?: readonly string[];
  /**
   * The slippage (basis points) each stage but the last of a path executed as consecutive steps keeps to (Route.stages):
   * the next stage spends that minimum. Undefined: such paths are not searched.
   */
  readonly handoverSlippageBps?: number;
  /**
   * How a Universal Router route's Permit2 allowance is given (request `approvalMode`, POST /quotes); default
   * "approve". Priced into the trade's gas (gasModel.callGas): "permit2" has no `Permit2.approve` step, the swap
   * carries the signed permit instead.
   */
  readonly approvalMode?: ApprovalMode;
}

/** How the Universal Router's Permit2 allowance is given (request `approvalMode`; steps: src/tx/executorSteps.ts). */
export type ApprovalMode = 'approve' | 'permit2';

/** Routing limits as a request states them: the gas price may be left to the chain's pool state (undefined). */
export type RequestedLimits = Omit<RoutingLimits, 'gasPriceWei'> & { readonly gasPriceWei: bigint | undefined };

/** Bounds and defaults of the integer limits, for validation (the request schema) and for requests that state none. */
export const ROUTING_BOUNDS = {
  maxHops: { minimum: 1, maximum: 3, default: 3 },
  maxSplits: { minimum: 1, maximum: 7, default: 5 },
} as const satisfies Record<'maxHops' | 'maxSplits', { minimum: number; maximum: number; default: number }>;

/** The default limits over every DEX deployment of a chain, priced at the gas price of its pool state. */
export function defaultLimits(deployments: readonly DeploymentId[]): RequestedLimits {
  return { maxHops: ROUTING_BOUNDS.maxHops.default, maxSplits: ROUTING_BOUNDS.maxSplits.default, gasPriceWei: undefined, deployments };
}
