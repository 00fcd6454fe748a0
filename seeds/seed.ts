/**
 * `npm run seed [-- --chain <slug|chainId> ...] [--tick-window N] [--batch-size N] [--rescan]`
 * Seeds the catalogue's chains over RPC (RPC_URL_<chainId>) and writes <slug>.json snapshots to SNAPSHOT_DIR (never
 * to the shipped seeds/snapshots); --rescan scans every factory's creation logs from its deployment block again
 * instead of only the blocks after the previous snapshot's. Prints one line per chain; exits 1 when a chain named with --chain (or, without
 * --chain, a chain with an RPC URL) was not seeded, or when nothing was seeded.
 */
import { parseArgs } from 'node:util';
import { loadCatalog } from '../src/catalog/loadCatalog.ts';
import { selectChains } from '../src/catalog/selectChains.ts';
import { formatReport, seedRunFailure } from '../src/chain/formatReport.ts';
import { seedChains } from '../src/chain/seedChains.ts';
import { loadConfig } from '../src/config.ts';

try {
  const { values } = parseArgs({
    options: {
      chain: { type: 'string', multiple: true },
      'tick-window': { type: 'string' },
      'batch-size': { type: 'string' },
      progress: { type: 'string' },
      rescan: { type: 'boolean' },
    },
  });
  const int = (text: string | undefined, name: string): number | undefined => {
    if (text === undefined) return undefined;
    if (!/^\d+$/.test(text)) throw new Error(`--${name} must be a non-negative integer`);
    return Number(text);
  };
  const progress = values.progress;
  if (progress !== undefined && !['auto', 'bar', 'lines', 'none'].includes(progress))
    throw new Error('--progress must be auto, bar, lines or none');
  const config = loadConfig();
  const catalog = loadCatalog(config.catalogDir);
  const wanted = (values.chain ?? [])
    .flatMap((c) => c.split(','))
    .map((c) => c.trim())
    .filter(Boolean);
  const report = await seedChains({
    chains: selectChains(catalog.chains, wanted),
    rpcUrls: config.rpcUrls,
    snapshotDir: config.snapshotDir,
    tickWindowWords: int(values['tick-window'], 'tick-window'),
    batchSize: int(values['batch-size'], 'batch-size'),
    progress: progress as 'auto' | 'bar' | 'lines' | 'none' | undefined,
    named: wanted.length > 0,
    rescan: values.rescan ?? false,
  });
  console.log(formatReport(report));
  const failure = seedRunFailure(report);
  if (failure) {
    console.error(`seed: ${failure}`);
    process.exitCode = 1;
  }
} catch (err) {
  console.error(`seed: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
}
