/** A followed chain's position (ChainFollower.status()), as /readyz and /metrics read it. Times: ms since the epoch. */
export interface FollowedChainStatus {
  readonly chainId: number;
  readonly headBlock: number;
  readonly appliedBlock: number;
  /** When the last block was applied. */
  readonly lastBlockAt: number;
  /** When the endpoint last answered a head poll. */
  readonly lastHeadAt: number;
  readonly errors: number;
}

/** A followed chain's counters since start (ChainFollower.metrics). */
export interface FollowedChainCounters {
  readonly blocks: number;
  readonly events: number;
  readonly reorgs: number;
  readonly rereads: number;
  readonly rpcRequests: number;
}

/** The chains this process follows (FOLLOW=true), for readiness and metrics. */
export interface LiveState {
  /** MAX_STATE_AGE_SECONDS. */
  readonly maxAgeSeconds: number;
  chains(): readonly { readonly status: FollowedChainStatus; readonly counters: FollowedChainCounters }[];
}

/**
 * Seconds since a followed chain's state was last known current: since the last head poll when every block up to the
 * head is applied, else since the last block was applied (Infinity before either happened).
 */
export function stateAgeSeconds(status: FollowedChainStatus, nowMs: number): number {
  const since = status.appliedBlock >= status.headBlock ? status.lastHeadAt : status.lastBlockAt;
  return since > 0 ? Math.max(0, (nowMs - since) / 1000) : Number.POSITIVE_INFINITY;
}
