import type { Catalog, CatalogChain, CatalogToken } from './Catalog.ts';

/**
 * A chain's token by lower-case address (trades name tokens by their lower-case addresses). Each address is looked up
 * in the catalogue once per function made: a quote's trades name the same few tokens on every hop, as the same
 * strings (tradeCodec), so the repeats are one Map lookup without the catalogue's lower-casing.
 */
export function chainTokenLookup(catalog: Catalog, chain: CatalogChain): (address: string) => CatalogToken {
  const found = new Map<string, CatalogToken>();
  return (address) => {
    let token = found.get(address);
    if (token === undefined) {
      token = catalog.token(chain.chainId, address)!;
      found.set(address, token);
    }
    return token;
  };
}
