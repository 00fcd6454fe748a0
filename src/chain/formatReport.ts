import type { SeedReport } from './seedChains.ts';

/** Formats the end-of-run report. */
export function formatReport(r: SeedReport): string {
  const lines = [
    `seeding done: ${r.seeded} chain(s) seeded, ${r.skipped} skipped, ${r.pools} pools, ${r.rpcRequests} RPC requests, ${r.seconds.toFixed(2)} s`,
  ];
  for (const c of r.chains) {
    lines.push(
      c.status === 'seeded'
        ? `  ${c.slug} (${c.chainId}): block ${c.blockNumber}, ${c.pools} pools (${c.v2Pools} v2, ${c.v3Pools} v3), ${c.ticks} ticks, ${c.excludedTokens.length} tokens left out, ${c.rpcRequests} requests -> ${c.file ?? '(not written)'}`
        : `  ${c.slug} (${c.chainId}): skipped, ${c.reason}`,
    );
  }
  return lines.join('\n');
}
