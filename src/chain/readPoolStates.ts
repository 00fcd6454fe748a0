import type { PublicClient } from 'viem';
import {
  type PoolDropped,
  type PoolStateRead,
  type PoolToRead,
  type ReadCall,
  STATE_PHASES,
  type StatePhase,
  viewCall,
} from '../protocols/PoolSource.ts';
import { poolSource, type SnapshotPool } from '../protocols/registry.ts';
import { type MulticallOptions, multicallBatched } from './multicallBatched.ts';
import { erc20BalanceAbi } from './seedAbis.ts';

/**
 * Runs one phase's reads through Multicall3 at the pinned block (the seeding run's progress-reporting phase, or a
 * plain multicallBatched); `summary` describes the results for a progress line.
 */
export type PhaseRunner = <T>(
  phase: StatePhase,
  calls: ReadCall<T>[],
  summary: (results: (T | undefined)[]) => string,
) => Promise<(T | undefined)[]>;

/** A pool after the first phase: both token balances, and its protocol's read (registry.poolSource) under way. */
export interface PoolBasics {
  readonly pool: PoolToRead;
  readonly balance0: bigint | undefined;
  readonly balance1: bigint | undefined;
  readonly read: PoolStateRead<SnapshotPool>;
}

/** The states read (as a follower keeps them: v3 with liquidityGross per tick), and the pools dropped with why. */
export interface PoolStates {
  readonly pools: SnapshotPool[];
  readonly dropped: ({ readonly address: PoolToRead['address'] } & PoolDropped)[];
}

const failedReads = (results: readonly unknown[]): string => `${results.filter((v) => v === undefined).length} failed reads`;

/** Runs one phase: every read's calls in one set of multicalls, each read taking its own slice of the results. */
async function runPhase(
  run: PhaseRunner,
  phase: StatePhase,
  reads: readonly PoolStateRead<SnapshotPool>[],
  extra: (i: number) => ReadCall<unknown>[] = () => [],
): Promise<unknown[][]> {
  const calls: ReadCall<unknown>[] = [];
  const spans = reads.map((read, i) => {
    const own = [...extra(i), ...read.calls(phase)];
    calls.push(...own);
    return own.length;
  });
  const results = await run(phase, calls, failedReads);
  let k = 0;
  return spans.map((n) => {
    const start = k;
    k += n;
    return results.slice(start, k);
  });
}

/**
 * Phase 'state' of every pool in one set of multicalls: the balances of both tokens and what the pool's protocol
 * reads first (v2 reserves; v3 slot0, liquidity, fee, tickSpacing).
 */
export async function readPoolBasics(run: PhaseRunner, pools: readonly PoolToRead[], tickWindowWords: number): Promise<PoolBasics[]> {
  const reads = pools.map((p) => poolSource(p.version).readState(p, tickWindowWords));
  const holds = pools.map((p) => poolSource(p.version).ownBalances !== false);
  const balance = (token: PoolToRead['address'], owner: PoolToRead['address']): ReadCall<unknown> =>
    viewCall(token, erc20BalanceAbi, 'balanceOf', [owner]);
  const results = await runPhase(run, 'state', reads, (i) =>
    holds[i] ? [balance(pools[i].token0, pools[i].address), balance(pools[i].token1, pools[i].address)] : [],
  );
  return pools.map((pool, i) => {
    // A pool without balances of its own (ownBalances false) gets 0 here: its finish() states them.
    const [balance0, balance1, ...own] = holds[i] ? results[i] : [0n, 0n, ...results[i]];
    reads[i].take('state', own);
    return { pool, balance0: balance0 as bigint | undefined, balance1: balance1 as bigint | undefined, read: reads[i] };
  });
}

/** The later phases (v3: the tick-bitmap words of the window, then every initialized tick in it) and the states. */
export async function completePoolStates(run: PhaseRunner, basics: readonly PoolBasics[]): Promise<PoolStates> {
  const out: PoolStates = { pools: [], dropped: [] };
  const live = basics.filter((b) => {
    if (b.balance0 !== undefined && b.balance1 !== undefined) return true;
    out.dropped.push({ address: b.pool.address, reason: 'state reads failed' });
    return false;
  });
  for (const phase of STATE_PHASES.slice(1)) {
    const results = await runPhase(
      run,
      phase,
      live.map((b) => b.read),
    );
    for (const [i, b] of live.entries()) b.read.take(phase, results[i]);
  }
  for (const b of live) {
    const done = b.read.finish(b.balance0!, b.balance1!);
    if (done.ok) out.pools.push(done.state);
    else out.dropped.push({ address: b.pool.address, reason: done.reason, ...(done.pending ? { pending: true } : {}) });
  }
  return out;
}

/** Full state of a set of pools at the runner's block: readPoolBasics then completePoolStates. */
export async function readPoolStates(run: PhaseRunner, pools: readonly PoolToRead[], tickWindowWords: number): Promise<PoolStates> {
  return completePoolStates(run, await readPoolBasics(run, pools, tickWindowWords));
}

/** A PhaseRunner that runs each phase's reads with multicallBatched at the options' block (no progress reporting). */
export function multicallRunner(client: PublicClient, options: MulticallOptions): PhaseRunner {
  return async (_phase, calls) => (calls.length === 0 ? [] : multicallBatched(client, options, calls));
}
