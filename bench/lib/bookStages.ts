/**
 * What the live follower's book costs per block on a large chain, beyond the block's own logs: PoolBook.applyBlock of
 * an empty block (no log), which still does every block's own work: the pools re-read at every block
 * (PoolProtocol.rereadEachBlock) and the read of v4's PoolManager.protocolFeesAccrued for the currencies some pool
 * records non-zero. The book holds a generated snapshot's pools (bench/lib/generateScale.ts) plus `v4Pools` hookless
 * v4 pools with a protocol fee on the catalogue's PoolManager (every 50th recording a non-zero accrual of its
 * currency0, so each block reads those currencies); none re-read at every block (their reads would need a chain). The
 * reads are answered here, non-zero (steady state: nothing changes).
 *
 * With `spread` (issue 26), every block instead makes v4's shared state move both ways, the follower's worst block
 * for it: a Swap paying the protocol fee on each pool that recorded a non-zero accrual at the start (its currency0
 * in, accrual false before it: v4AccruedState spreads true to every pool of that currency), and the reads of those
 * currencies answered zero (collectProtocolFees emptied them: the re-read sets them false on all those pools again).
 *
 * bench/followBook.ts runs it as a child process for this checkout and for BENCH_BEFORE's (the file is copied there:
 * it reads only src/ modules both have): `npm run ts -- bench/lib/bookStages.ts <catalogDir> <snapshotDir> <chainId>
 * <blocks> <v4Pools> [spread]` prints BookStages as JSON.
 */
import { encodeAbiParameters, pad } from 'viem';
import { loadCatalog } from '../../src/catalog/loadCatalog.ts';
import { PoolBook } from '../../src/follow/poolBook.ts';
import { loadServedSnapshots } from '../../src/graph/snapshot.ts';
import type { PoolLog } from '../../src/protocols/logWords.ts';
import { tickWindow } from '../../src/protocols/uniswapV3/uniswapV3Events.ts';
import { V4_SWAP } from '../../src/protocols/uniswapV4/uniswapV4Events.ts';
import { swapFee } from '../../src/protocols/uniswapV4/v4Fees.ts';

export interface BookStages {
  readonly pools: number;
  /** Reads the book asked per block (protocolFeesAccrued calls). */
  readonly reads: number;
  /** Logs per block (spread: the Swaps), and pools whose state the blocks changed, per block. */
  readonly logs: number;
  readonly changed: number;
  /** Per block: wall and CPU ms of applyBlock. */
  readonly blocks: readonly { readonly wall: number; readonly cpu: number }[];
}

export async function bookStages(
  folders: { catalogDir: string; snapshotDir: string },
  chainId: number,
  blocks: number,
  v4Pools: number,
  spread = false,
): Promise<BookStages> {
  const catalog = loadCatalog(folders.catalogDir);
  const chain = catalog.chain(chainId)!;
  const snapshot = loadServedSnapshots({ ...folders, shippedSnapshotDir: undefined }).snapshots.find((s) => s.chainId === chainId)!;
  const poolManager = chain.dexes.find((d) => d.version === 'v4')!.v4PoolManagerAddress;
  const tokens = chain.tokens.map((t) => t.address.toLowerCase()).sort();
  const v4 = Array.from({ length: v4Pools }, (_, k) => {
    const i = k % tokens.length;
    const j = (i + 1 + (Math.floor(k / tokens.length) % (tokens.length - 1))) % tokens.length;
    return {
      address: `0x${(0xb4000000 + k).toString(16).padStart(64, '0')}`,
      dex: 'uniswap',
      version: 'v4' as const,
      token0: tokens[Math.min(i, j)],
      token1: tokens[Math.max(i, j)],
      fee: 3000,
      balance0: '1000000',
      balance1: '1000000',
      poolManager,
      hooks: '0x0000000000000000000000000000000000000000',
      tickSpacing: 60,
      lpFee: 3000,
      protocolFee: 0x1f41f4,
      sqrtPriceX96: (1n << 96n).toString(),
      tick: 0,
      liquidity: '1000000',
      bitmapWords: tickWindow(0, 60, snapshot.tickWindowWords),
      ticks: [],
      protocolFeesAccruedSet: [k % 50 === 0, false] as [boolean, boolean],
    };
  });
  const book = new PoolBook(chain, { ...snapshot, pools: [...snapshot.pools, ...v4] });
  let reads = 0;
  const answer = spread ? 0n : 1n;
  const run = async <T>(_phase: unknown, calls: readonly unknown[]): Promise<(T | undefined)[]> => {
    reads += calls.length;
    return calls.map(() => answer as T);
  };
  // A swap of 1,000,000 units of currency0 at the same price: its protocol fee (500 pips) is owed whatever the steps.
  const fee = swapFee(3000, 0x1f41f4, true);
  const data = encodeAbiParameters(
    ['int128', 'int128', 'uint160', 'uint128', 'int24', 'uint24'].map((type) => ({ type })),
    [-1_000_000n, 990_000n, 1n << 96n, 1_000_000n, 0, fee],
  );
  const swaps: PoolLog[] = spread
    ? v4.filter((p) => p.protocolFeesAccruedSet[0]).map((p) => ({ address: poolManager!, topics: [V4_SWAP, p.address, pad('0x01')], data }))
    : [];
  const out: { wall: number; cpu: number }[] = [];
  let changed = 0;
  const rereads: string[] = [];
  for (let b = 0; b < blocks; b++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const change = await book.applyBlock(swaps, run as Parameters<PoolBook['applyBlock']>[1], snapshot.tickWindowWords, (a, why) =>
      rereads.push(`${a}: ${why}`),
    );
    const wall = performance.now() - t0;
    const cpu = process.cpuUsage(c0);
    out.push({ wall, cpu: (cpu.user + cpu.system) / 1000 });
    changed += change.prev.size;
  }
  // Every Swap applies (a re-read would be answered by nothing here: the case would not be the one measured).
  if (rereads.length > 0) throw new Error(`bookStages: a Swap was re-read: ${rereads[0]}`);
  return { pools: book.pools.size, reads: reads / blocks, logs: swaps.length, changed: changed / blocks, blocks: out };
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/^.*\/bench\//, '/bench/'))) {
  const [catalogDir, snapshotDir, chainId, blocks, v4Pools, spread] = process.argv.slice(2);
  const stages = await bookStages({ catalogDir, snapshotDir }, Number(chainId), Number(blocks), Number(v4Pools), spread === 'spread');
  process.stdout.write(JSON.stringify(stages));
}
