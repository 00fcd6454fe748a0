import type { ChainSeedReport, SeedReport } from './SeedOptions.ts';

/** Formats the end-of-run report: a totals line, then one line per chain (seeded, FAILED or skipped, and why). */
export function formatReport(r: SeedReport): string {
  const lines = [
    `seeding done: ${r.seeded} chain(s) seeded, ${r.failed} failed, ${r.skipped} skipped, ${r.pools} pools, ${r.rpcRequests} RPC requests, ${r.seconds.toFixed(2)} s`,
  ];
  for (const c of r.chains) {
    lines.push(
      c.status === 'seeded'
        ? `  ${c.slug} (${c.chainId}): seeded, block ${c.blockNumber}, ${c.pools} pools (${c.v2Pools} v2, ${c.v3Pools} v3), ${c.ticks} ticks, ${c.excludedTokens.length} tokens left out, ${c.rpcRequests} requests, found by ${foundBy(c)} -> ${c.file ?? '(not written)'}`
        : `  ${c.slug} (${c.chainId}): ${c.status === 'failed' ? 'FAILED' : 'skipped'}, ${c.reason}`,
    );
  }
  return lines.join('\n');
}

/** Which DEXes' pools were found by creation logs and which by pair lookups: 'logs (uniswap v2, uniswap v3), pair lookups (sushiswap v2)'. */
function foundBy(c: ChainSeedReport): string {
  const of = (method: 'logs' | 'pairs'): string[] => c.discovery.filter((d) => d.method === method).map((d) => `${d.dex} ${d.version}`);
  const parts: string[] = [];
  if (of('logs').length > 0) parts.push(`creation logs (${of('logs').join(', ')})`);
  if (of('pairs').length > 0) parts.push(`pair lookups (${of('pairs').join(', ')})`);
  return parts.join(', ') || 'no DEX';
}

/**
 * Why a seeding run failed as a whole, or undefined when it succeeded: a chain that was tried (or named) and not
 * seeded fails the run, and so does a run that seeded nothing. `npm run seed` exits 1 with this message.
 */
export function seedRunFailure(r: SeedReport): string | undefined {
  const failed = r.chains.filter((c) => c.status === 'failed');
  if (failed.length > 0)
    return `${failed.length} of ${r.seeded + failed.length} chain(s) failed: ${failed.map((c) => `${c.slug} (${c.chainId})`).join(', ')}`;
  if (r.seeded === 0) return 'no chain seeded: set RPC_URL_<chainId> for each chain to seed, or name chains with --chain';
  return undefined;
}
