/**
 * `npm run ts -- bench/followBook.ts`: what the live follower's book costs per block on a 100,000-pool chain beyond the
 * block's logs (bench/lib/bookStages.ts, a child process per run: PoolBook.applyBlock of an empty block, with the
 * generated graph's pools and BENCH_V4_POOLS v4 pools recording protocol fees): the pools re-read at every block and
 * v4's protocolFeesAccrued read, found by a walk over every pool before FollowedPools kept them; and (issue 26) a block
 * whose v4 shared state moves both ways (bookStages' `spread`: a protocol-fee Swap on each of the pools recording an
 * accrual spreads it to every pool of its currency, and the block's reads, answered zero, clear it on all of them).
 *
 * Environment: BENCH_SCALE_POOLS (default 100000), BENCH_BLOCKS (default 200), BENCH_ROUNDS (default 3),
 * BENCH_V4_POOLS (default 1000), BENCH_BEFORE=<git ref>: that commit is checked out beside this one and run in
 * alternating rounds (bookStages.ts copied into its checkout).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeCheckout, removeCheckout } from './lib/beforeCheckout.ts';
import { type BenchRow, ms, reportRows } from './lib/benchRows.ts';
import type { BookStages } from './lib/bookStages.ts';
import { DEFAULT_SCALE, generateScale } from './lib/generateScale.ts';
import { alternatingRounds, runStage } from './lib/stageRounds.ts';
import { median } from './lib/timing.ts';

const POOLS = Number(process.env.BENCH_SCALE_POOLS ?? DEFAULT_SCALE.pools);
const BLOCKS = Number(process.env.BENCH_BLOCKS ?? 200);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const V4_POOLS = Number(process.env.BENCH_V4_POOLS ?? 1000);
const BEFORE = process.env.BENCH_BEFORE;

/** The two kinds of block measured: empty, and one where v4's shared state spreads (bookStages' `spread`). */
const MODES = ['empty', 'spread'] as const;
type Mode = (typeof MODES)[number];

function stages(root: string, folders: { catalogDir: string; snapshotDir: string }, mode: Mode): BookStages {
  return runStage<BookStages>(root, 'bench/lib/bookStages.ts', [
    folders.catalogDir,
    folders.snapshotDir,
    '31337',
    String(BLOCKS),
    String(V4_POOLS),
    mode,
  ]);
}

/** Median and p99 of a figure over every block after the first 10 of every run (warm-up left out). */
function summary(runs: readonly BookStages[], pick: (b: BookStages['blocks'][number]) => number): string {
  const values = runs.flatMap((r) => r.blocks.slice(10).map(pick)).sort((a, b) => a - b);
  return `p50 ${ms(median(values))}, p99 ${ms(values[Math.min(values.length - 1, Math.floor(values.length * 0.99))])}`;
}

const dir = mkdtempSync(join(tmpdir(), 'bench-book-'));
const beforeRoot = BEFORE ? beforeCheckout(BEFORE) : undefined;
try {
  const fixture = generateScale(dir, { ...DEFAULT_SCALE, pools: POOLS });
  const runs = alternatingRounds(ROUNDS, beforeRoot, (root) => MODES.map((mode) => stages(root, fixture, mode)));
  const figures: [string, (b: BookStages['blocks'][number]) => number][] = [
    ['wall', (b) => b.wall],
    ['CPU', (b) => b.cpu],
  ];
  const rows: BenchRow[] = MODES.flatMap((mode, m) => {
    const after = runs.after.map((r) => r[m]);
    const before = runs.before.map((r) => r[m]);
    const s0 = after[0];
    const block =
      mode === 'empty'
        ? `empty block applied (PoolBook.applyBlock)`
        : `block of ${s0.logs} protocol-fee v4 Swaps whose accrual spreads and is read back as zero (${Math.round(s0.changed).toLocaleString('en-US')} pools changed a block)`;
    return figures.map(([name, pick]) => ({
      part: 'follow book',
      case: `${block}, ${name}, ${s0.pools.toLocaleString('en-US')} pools (${V4_POOLS} v4), ${s0.reads} protocolFeesAccrued reads a block, ${BLOCKS} blocks x ${ROUNDS} runs`,
      result: summary(after, pick),
      ratio: before.length > 0 ? `before (${BEFORE}): ${summary(before, pick)}` : '',
      target: '',
      met: null,
    }));
  });
  const { load } = runs;
  reportRows(rows);
  process.stdout.write(`load average (1 min) per round: ${load.map((l) => l.toFixed(1)).join(', ')}\n`);
} finally {
  if (beforeRoot) removeCheckout(beforeRoot);
  rmSync(dir, { recursive: true, force: true });
}
