/**
 * `npm run ts -- bench/blocks.ts`: what a followed block costs on a 100,000-pool graph (bench/lib/generateScale.ts), in
 * a process as the API and each pricing worker hold it: per block, PoolGraph.withUpdate, the pricing index derived
 * for it, and the first quotes of 20 pairs on the new state (default routing), beside the same pairs' first and
 * repeated quotes on the loaded state (bench/lib/blockStages.ts, a child process per run: a chain of blocks of ~58
 * v2 pools each, a different set per block).
 *
 * Environment: BENCH_SCALE_POOLS (default 100000), BENCH_BLOCKS (default 20), BENCH_ROUNDS (default 2),
 * BENCH_BEFORE=<git ref>: that commit is checked out beside this one and run in alternating rounds (blockStages.ts
 * copied into its checkout).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCatalog } from '../src/catalog/loadCatalog.ts';
import { projectRoot as ROOT } from '../test/helpers/serverProcess.ts';
import { beforeCheckout, removeCheckout } from './lib/beforeCheckout.ts';
import { type BenchRow, ms, reportRows } from './lib/benchRows.ts';
import type { BlockStages } from './lib/blockStages.ts';
import { DEFAULT_SCALE, generateScale } from './lib/generateScale.ts';
import { DEVNET_TOKENS } from './lib/quoteMix.ts';
import { alternatingRounds, runStage } from './lib/stageRounds.ts';

const POOLS = Number(process.env.BENCH_SCALE_POOLS ?? DEFAULT_SCALE.pools);
const BLOCKS = Number(process.env.BENCH_BLOCKS ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const BEFORE = process.env.BENCH_BEFORE;

const tokens = ['WBTC', 'USDC', 'WETH', 'DAI', 'USDT'] as const;
const catalog = loadCatalog(join(ROOT, 'catalog'));
const pairs = tokens
  .flatMap((a) => tokens.filter((b) => b !== a).map((b) => [a, b] as const))
  .map(([a, b]) => [DEVNET_TOKENS[a], DEVNET_TOKENS[b], String(10n ** BigInt(catalog.token(31337, DEVNET_TOKENS[a])!.decimals))]);

function stages(root: string, folders: { catalogDir: string; snapshotDir: string }): BlockStages {
  return runStage<BlockStages>(root, 'bench/lib/blockStages.ts', [
    folders.catalogDir,
    folders.snapshotDir,
    '31337',
    String(BLOCKS),
    JSON.stringify(pairs),
  ]);
}

const sorted = (values: readonly number[]): number[] => [...values].sort((a, b) => a - b);
const median = (values: readonly number[]): number => {
  const s = sorted(values);
  return s.length % 2 ? s[s.length >> 1] : (s[(s.length >> 1) - 1] + s[s.length >> 1]) / 2;
};
/** Median and range of a figure over every block after the first of every run (the first block is shown apart). */
function summary(runs: readonly BlockStages[], pick: (b: BlockStages['blocks'][number]) => number): string {
  const later = runs.flatMap((r) => r.blocks.slice(1).map(pick));
  const firsts = runs.map((r) => pick(r.blocks[0]));
  const s = sorted(later);
  return `median ${ms(median(later))} (${ms(s[0])}-${ms(s[s.length - 1])}); first block ${firsts.map(ms).join(' / ')}`;
}

const dir = mkdtempSync(join(tmpdir(), 'bench-blocks-'));
const beforeRoot = BEFORE ? beforeCheckout(BEFORE) : undefined;
try {
  const fixture = generateScale(dir, { ...DEFAULT_SCALE, pools: POOLS });
  const { after, before, load } = alternatingRounds(ROUNDS, beforeRoot, (root) => stages(root, fixture));
  const figures: [string, (b: BlockStages['blocks'][number]) => number][] = [
    ['PoolGraph.withUpdate', (b) => b.graph],
    ['pricing index derived (derivePricingGraph)', (b) => b.index],
    [`${pairs.length} pairs' first default quotes after the block (sum)`, (b) => b.quotes],
  ];
  const rows: BenchRow[] = figures.map(([name, pick]) => ({
    part: 'blocks',
    case: `${name}, per block of ${after[0].blocks[1]?.pools ?? after[0].blocks[0].pools} pools, ${POOLS.toLocaleString('en-US')} pools, ${BLOCKS} blocks x ${ROUNDS} runs`,
    result: summary(after, pick),
    ratio: before.length > 0 ? `before (${BEFORE}): ${summary(before, pick)}` : '',
    target: '',
    met: null,
  }));
  const reference = (runs: BlockStages[]) =>
    `first ${runs.map((r) => ms(r.first)).join(' / ')}, again ${runs.map((r) => ms(r.again)).join(' / ')}`;
  rows.push({
    part: 'blocks',
    case: `the same ${pairs.length} pairs' quotes on the loaded state (sum)`,
    result: reference(after),
    ratio: before.length > 0 ? `before: ${reference(before)}` : '',
    target: '',
    met: null,
  });
  reportRows(rows);
  process.stdout.write(`load average (1 min) per round: ${load.map((l) => l.toFixed(1)).join(', ')}\n`);
} finally {
  if (beforeRoot) removeCheckout(beforeRoot);
  rmSync(dir, { recursive: true, force: true });
}
