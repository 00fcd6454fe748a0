import { decodeFunctionResult, encodeFunctionData, type Address, type Hex, type PublicClient } from 'viem';
import type { SnapshotPoolV2, SnapshotPoolV3 } from '../src/graph/snapshot.ts';
import { tickWindow, type FollowedPoolV3 } from '../src/protocols/uniswapV3Events.ts';
import { multicallBatched, type MulticallOptions, type ReadCall } from './multicallBatched.ts';
import { erc20BalanceAbi, v2PairAbi, v3PoolAbi } from './seedAbis.ts';

/** A pool to read: where it is and what the catalogue says it is (v2 fee: feeBps x 100; v3: the tier, fee() is read). */
export interface PoolToRead {
  readonly address: Address;
  readonly dex: string;
  readonly version: 'v2' | 'v3';
  readonly token0: Address;
  readonly token1: Address;
  readonly fee: number;
}

/** The seeding phases that read pool state. */
export type StatePhase = 'state' | 'bitmap' | 'ticks';

/**
 * Runs one phase's reads through Multicall3 at the pinned block (the seeding run's progress-reporting phase, or a
 * plain multicallBatched); `summary` describes the results for a progress line.
 */
export type PhaseRunner = <T>(phase: StatePhase, calls: ReadCall<T>[], summary: (results: (T | undefined)[]) => string) => Promise<(T | undefined)[]>;

type Slot0 = readonly [bigint, number, number, number, number, number, boolean];

/** A pool's first-phase reads: balances of both tokens, v2 reserves or v3 slot0 / liquidity / fee / tickSpacing. */
export interface PoolBasics {
  readonly pool: PoolToRead;
  readonly balance0: bigint | undefined;
  readonly balance1: bigint | undefined;
  readonly reserves?: readonly [bigint, bigint, number] | undefined;
  readonly slot0?: Slot0 | undefined;
  readonly liquidity?: bigint | undefined;
  readonly fee?: number | undefined;
  readonly tickSpacing?: number | undefined;
}

function read<T>(target: Address, data: Hex, decode: (r: Hex) => T): ReadCall<T> {
  return { target, data, decode };
}

const call = (address: Address, functionName: 'slot0' | 'liquidity' | 'fee' | 'tickSpacing'): ReadCall<unknown> =>
  read(address, encodeFunctionData({ abi: v3PoolAbi, functionName } as { abi: typeof v3PoolAbi; functionName: 'fee' }), (r) =>
    decodeFunctionResult({ abi: v3PoolAbi, functionName, data: r } as { abi: typeof v3PoolAbi; functionName: 'fee'; data: Hex }),
  );

/** Phase 'state': balances and v2 reserves / v3 slot0, liquidity, fee and tickSpacing of every pool, in one set of multicalls. */
export async function readPoolBasics(run: PhaseRunner, pools: readonly PoolToRead[]): Promise<PoolBasics[]> {
  const calls: ReadCall<unknown>[] = [];
  const balance = (token: Address, owner: Address): ReadCall<unknown> =>
    read(token, encodeFunctionData({ abi: erc20BalanceAbi, functionName: 'balanceOf', args: [owner] }), (r) =>
      decodeFunctionResult({ abi: erc20BalanceAbi, functionName: 'balanceOf', data: r }),
    );
  for (const p of pools) {
    calls.push(balance(p.token0, p.address), balance(p.token1, p.address));
    if (p.version === 'v2') {
      calls.push(read(p.address, encodeFunctionData({ abi: v2PairAbi, functionName: 'getReserves' }), (r) => decodeFunctionResult({ abi: v2PairAbi, functionName: 'getReserves', data: r })));
    } else {
      calls.push(call(p.address, 'slot0'), call(p.address, 'liquidity'), call(p.address, 'fee'), call(p.address, 'tickSpacing'));
    }
  }
  const r = await run('state', calls, (x) => `${x.filter((v) => v === undefined).length} failed reads`);
  let k = 0;
  return pools.map((pool): PoolBasics => {
    const balance0 = r[k++] as bigint | undefined;
    const balance1 = r[k++] as bigint | undefined;
    if (pool.version === 'v2') return { pool, balance0, balance1, reserves: r[k++] as PoolBasics['reserves'] };
    return { pool, balance0, balance1, slot0: r[k++] as Slot0 | undefined, liquidity: r[k++] as bigint | undefined, fee: r[k++] as number | undefined, tickSpacing: r[k++] as number | undefined };
  });
}

function popcount(x: bigint): number {
  let n = 0;
  for (; x > 0n; x &= x - 1n) n++;
  return n;
}

/** The states read, and the pools dropped with why (failed reads, an uninitialized v3 pool). */
export interface PoolStates {
  readonly v2: SnapshotPoolV2[];
  /** v3 pools with the liquidityGross of every tick read (grossByTick; seeding leaves it out of snapshot files). */
  readonly v3: FollowedPoolV3[];
  readonly dropped: { readonly address: Address; readonly reason: string }[];
}

/**
 * Phases 'bitmap' and 'ticks': completes pools from their basics: v2 as read; v3 with the tick-bitmap words of the
 * window (current word ± tickWindowWords, clamped) and liquidityNet / liquidityGross of every initialized tick in it.
 */
export async function completePoolStates(run: PhaseRunner, basics: readonly PoolBasics[], tickWindowWords: number): Promise<PoolStates> {
  const out: PoolStates = { v2: [], v3: [], dropped: [] };
  interface V3Work { b: PoolBasics; slot0: Slot0; liquidity: bigint; fee: number; tickSpacing: number; words: [number, number]; ticks: number[] }
  const work: V3Work[] = [];
  for (const b of basics) {
    const p = b.pool;
    if (b.balance0 === undefined || b.balance1 === undefined) {
      out.dropped.push({ address: p.address, reason: 'state reads failed' });
    } else if (p.version === 'v2') {
      if (b.reserves === undefined) out.dropped.push({ address: p.address, reason: 'state reads failed' });
      else out.v2.push({ address: p.address, dex: p.dex, version: 'v2', token0: p.token0, token1: p.token1, fee: p.fee, balance0: b.balance0.toString(), balance1: b.balance1.toString(), reserve0: b.reserves[0].toString(), reserve1: b.reserves[1].toString() });
    } else if (b.slot0 === undefined || b.liquidity === undefined || b.fee === undefined || b.tickSpacing === undefined) {
      out.dropped.push({ address: p.address, reason: 'state reads failed' });
    } else if (b.slot0[0] === 0n) {
      out.dropped.push({ address: p.address, reason: 'not initialized (sqrtPriceX96 = 0)' });
    } else {
      work.push({ b, slot0: b.slot0, liquidity: b.liquidity, fee: b.fee, tickSpacing: b.tickSpacing, words: tickWindow(b.slot0[1], b.tickSpacing, tickWindowWords), ticks: [] });
    }
  }

  const bitmapCalls: ReadCall<bigint>[] = [];
  const bitmapOwner: { w: V3Work; word: number }[] = [];
  for (const w of work) {
    for (let word = w.words[0]; word <= w.words[1]; word++) {
      bitmapCalls.push(
        read(w.b.pool.address, encodeFunctionData({ abi: v3PoolAbi, functionName: 'tickBitmap', args: [word] }), (r) =>
          decodeFunctionResult({ abi: v3PoolAbi, functionName: 'tickBitmap', data: r }),
        ),
      );
      bitmapOwner.push({ w, word });
    }
  }
  const bitmaps = await run('bitmap', bitmapCalls, (r) => `${r.reduce((n, x) => n + (x ? popcount(x) : 0), 0)} initialized ticks`);
  bitmaps.forEach((value, i) => {
    const { w, word } = bitmapOwner[i]!;
    if (value === undefined) throw new Error(`tickBitmap(${word}) of ${w.b.pool.address} failed`);
    for (let bit = 0; value !== 0n && bit < 256; bit++) {
      if ((value >> BigInt(bit)) & 1n) w.ticks.push((word * 256 + bit) * w.tickSpacing);
    }
  });

  type TickInfo = readonly [bigint, bigint, bigint, bigint, bigint, bigint, number, boolean];
  const tickCalls: ReadCall<TickInfo>[] = [];
  const tickOwner: { w: V3Work; tick: number }[] = [];
  for (const w of work) {
    for (const tick of w.ticks) {
      tickCalls.push(read(w.b.pool.address, encodeFunctionData({ abi: v3PoolAbi, functionName: 'ticks', args: [tick] }), (r) => decodeFunctionResult({ abi: v3PoolAbi, functionName: 'ticks', data: r })));
      tickOwner.push({ w, tick });
    }
  }
  const tickData = await run('ticks', tickCalls, () => '');
  const found = new Map<V3Work, { ticks: [number, string][]; gross: Record<string, string> }>();
  for (const w of work) found.set(w, { ticks: [], gross: {} });
  tickData.forEach((value, i) => {
    const { w, tick } = tickOwner[i]!;
    if (value === undefined) throw new Error(`ticks(${tick}) of ${w.b.pool.address} failed`);
    const f = found.get(w)!;
    f.ticks.push([tick, value[1].toString()]);
    f.gross[tick] = value[0].toString();
  });
  for (const w of work) {
    const p = w.b.pool;
    const f = found.get(w)!;
    out.v3.push({
      address: p.address, dex: p.dex, version: 'v3', token0: p.token0, token1: p.token1, fee: w.fee,
      balance0: w.b.balance0!.toString(), balance1: w.b.balance1!.toString(),
      sqrtPriceX96: w.slot0[0].toString(), tick: w.slot0[1], liquidity: w.liquidity.toString(), tickSpacing: w.tickSpacing,
      bitmapWords: w.words, ticks: f.ticks.sort((a, b) => a[0] - b[0]), grossByTick: f.gross,
    });
  }
  return out;
}

/** Full state of a set of pools at the runner's block: readPoolBasics then completePoolStates. */
export async function readPoolStates(run: PhaseRunner, pools: readonly PoolToRead[], tickWindowWords: number): Promise<PoolStates> {
  return completePoolStates(run, await readPoolBasics(run, pools), tickWindowWords);
}

/** A v3 pool as a snapshot file holds it: without the follower-side grossByTick. */
export function snapshotPoolV3(p: FollowedPoolV3): SnapshotPoolV3 {
  if (p.grossByTick === undefined) return p;
  const { grossByTick: _gross, ...rest } = p;
  return rest;
}

/** A PhaseRunner that runs each phase's reads with multicallBatched at the options' block (no progress reporting). */
export function multicallRunner(client: PublicClient, options: MulticallOptions): PhaseRunner {
  return async (_phase, calls) => (calls.length === 0 ? [] : multicallBatched(client, options, calls));
}
