import type { CatalogChain } from './Catalog.ts';

/** Picks catalogue chains by slug or chain id (all when `wanted` is empty); throws on an unknown name. */
export function selectChains(all: readonly CatalogChain[], wanted: readonly string[]): CatalogChain[] {
  if (wanted.length === 0) return [...all];
  return wanted.map((w) => {
    const chain = all.find((c) => c.slug === w || String(c.chainId) === w);
    if (!chain) throw new Error(`unknown chain "${w}" (known: ${all.map((c) => `${c.slug}/${c.chainId}`).join(', ')})`);
    return chain;
  });
}
