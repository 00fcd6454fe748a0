/**
 * `npm run seed [-- --chain <slug|chainId> ...] [--tick-window N] [--batch-size N]`
 * Seeds the catalogue's chains over RPC (RPC_URL_<chainId>) and writes <slug>.json snapshots to SNAPSHOT_DIR.
 */
import { parseArgs } from 'node:util';
import { loadCatalog, type CatalogChain } from '../src/catalog/loadCatalog.ts';
import { loadConfig } from '../src/config.ts';
import { seedChains, type SeedReport } from './seedChains.ts';

/** Picks catalogue chains by slug or chain id (all when `wanted` is empty); throws on an unknown name. */
export function selectChains(all: readonly CatalogChain[], wanted: readonly string[]): CatalogChain[] {
  if (wanted.length === 0) return [...all];
  return wanted.map((w) => {
    const chain = all.find((c) => c.slug === w || String(c.chainId) === w);
    if (!chain) throw new Error(`unknown chain "${w}" (known: ${all.map((c) => `${c.slug}/${c.chainId}`).join(', ')})`);
    return chain;
  });
}

/** Formats the end-of-run report. */
export function formatReport(r: SeedReport): string {
  const lines = [
    `seeding done: ${r.seeded} chain(s) seeded, ${r.skipped} skipped, ${r.pools} pools, ${r.rpcRequests} RPC requests, ${r.seconds.toFixed(2)} s`,
  ];
  for (const c of r.chains) {
    lines.push(
      c.status === 'seeded'
        ? `  ${c.slug} (${c.chainId}): block ${c.blockNumber}, ${c.pools} pools (${c.v2Pools} v2, ${c.v3Pools} v3), ${c.ticks} ticks, ${c.rpcRequests} requests -> ${c.file ?? '(not written)'}`
        : `  ${c.slug} (${c.chainId}): skipped, ${c.reason}`,
    );
  }
  return lines.join('\n');
}

const isMain = process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/').split('/').pop() ?? '');
if (isMain) {
  const { values } = parseArgs({
    options: {
      chain: { type: 'string', multiple: true },
      'tick-window': { type: 'string' },
      'batch-size': { type: 'string' },
      progress: { type: 'string' },
    },
  });
  const int = (text: string | undefined, name: string): number | undefined => {
    if (text === undefined) return undefined;
    if (!/^\d+$/.test(text)) throw new Error(`--${name} must be a non-negative integer`);
    return Number(text);
  };
  const progress = values.progress;
  if (progress !== undefined && !['auto', 'bar', 'lines', 'none'].includes(progress)) throw new Error('--progress must be auto, bar, lines or none');
  const config = loadConfig();
  const catalog = loadCatalog(config.catalogDir);
  const wanted = (values.chain ?? []).flatMap((c) => c.split(',')).map((c) => c.trim()).filter(Boolean);
  const report = await seedChains({
    chains: selectChains(catalog.chains, wanted),
    rpcUrls: config.rpcUrls,
    snapshotDir: config.snapshotDir,
    tickWindowWords: int(values['tick-window'], 'tick-window'),
    batchSize: int(values['batch-size'], 'batch-size'),
    progress: progress as 'auto' | 'bar' | 'lines' | 'none' | undefined,
  });
  console.log(formatReport(report));
}
