/**
 * What the live follower's book costs per block on a large chain, beyond the block's own logs: PoolBook.applyBlock of
 * an empty block (no log), which still does every block's own work: the pools re-read at every block
 * (PoolProtocol.rereadEachBlock) and the read of v4's PoolManager.protocolFeesAccrued for the currencies some pool
 * records non-zero. The book holds a generated snapshot's pools (bench/lib/generateScale.ts) plus `v4Pools` hookless
 * v4 pools with a protocol fee on the catalogue's PoolManager (every 50th recording a non-zero accrual of its
 * currency0, so each block reads those currencies); none re-read at every block (their reads would need a chain). The
 * reads are answered here, non-zero (steady state: nothing changes). bench/followBook.ts runs it as a child process for
 * this checkout and for BENCH_BEFORE's (the file is copied there: it reads only src/ modules both have):
 * `npx tsx bench/lib/bookStages.ts <catalogDir> <snapshotDir> <chainId> <blocks> <v4Pools>` prints BookStages as JSON.
 */
import { loadCatalog } from '../../src/catalog/loadCatalog.ts';
import { PoolBook } from '../../src/follow/poolBook.ts';
import { loadServedSnapshots } from '../../src/graph/snapshot.ts';

export interface BookStages {
  readonly pools: number;
  /** Reads the book asked per block (protocolFeesAccrued calls). */
  readonly reads: number;
  /** Per block: wall and CPU ms of applyBlock. */
  readonly blocks: readonly { readonly wall: number; readonly cpu: number }[];
}

export async function bookStages(
  folders: { catalogDir: string; snapshotDir: string },
  chainId: number,
  blocks: number,
  v4Pools: number,
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
      bitmapWords: [-1, 0] as [number, number],
      ticks: [],
      protocolFeesAccruedSet: [k % 50 === 0, false] as [boolean, boolean],
    };
  });
  const book = new PoolBook(chain, { ...snapshot, pools: [...snapshot.pools, ...v4] });
  let reads = 0;
  const run = async <T>(_phase: unknown, calls: readonly unknown[]): Promise<(T | undefined)[]> => {
    reads += calls.length;
    return calls.map(() => 1n as T);
  };
  const out: { wall: number; cpu: number }[] = [];
  for (let b = 0; b < blocks; b++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await book.applyBlock([], run as Parameters<PoolBook['applyBlock']>[1], snapshot.tickWindowWords, () => {});
    const wall = performance.now() - t0;
    const cpu = process.cpuUsage(c0);
    out.push({ wall, cpu: (cpu.user + cpu.system) / 1000 });
  }
  return { pools: book.pools.size, reads: reads / blocks, blocks: out };
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/^.*\/bench\//, '/bench/'))) {
  const [catalogDir, snapshotDir, chainId, blocks, v4Pools] = process.argv.slice(2);
  const stages = await bookStages({ catalogDir, snapshotDir }, Number(chainId), Number(blocks), Number(v4Pools));
  process.stdout.write(JSON.stringify(stages));
}
