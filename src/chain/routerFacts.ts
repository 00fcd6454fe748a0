import { type Address, getAddress, parseAbi } from 'viem';
import { type CatalogChain, type CatalogDex, swapsV2Pairs } from '../catalog/Catalog.ts';
import type { SnapshotRouter } from '../graph/snapshot.ts';
import { type ReadCall, viewCall } from '../protocols/PoolSource.ts';

/** What a v3 router tells of itself (PeripheryImmutableState; SwapRouter02's and the SmartRouter's ImmutableState add factoryV2). */
const v3RouterAbi = parseAbi([
  'function factory() view returns (address)',
  'function WETH9() view returns (address)',
  'function factoryV2() view returns (address)',
]);

/** A v3 DEX of the catalogue with a router whose facts are read. */
type RoutedDex = CatalogDex & { readonly v3RouterKind: Exclude<CatalogDex['v3RouterKind'], ''> };

function routedDexes(chain: CatalogChain): RoutedDex[] {
  return chain.dexes.filter((d): d is RoutedDex => d.v3RouterKind !== '' && d.v3RouterAddress !== '');
}

/** Reads per router, in order: factory(), WETH9(), and for a router that swaps v2 pairs factoryV2(). */
const readsOf = (dex: RoutedDex): number => (swapsV2Pairs(dex.v3RouterKind) ? 3 : 2);

/** The reads of every v3 router of the chain's catalogue, in catalogue order (routerFacts takes their results). */
export function routerFactCalls(chain: CatalogChain): ReadCall<Address>[] {
  return routedDexes(chain).flatMap((dex) => {
    const router = getAddress(dex.v3RouterAddress);
    const calls = [viewCall<Address>(router, v3RouterAbi, 'factory'), viewCall<Address>(router, v3RouterAbi, 'WETH9')];
    if (swapsV2Pairs(dex.v3RouterKind)) calls.push(viewCall<Address>(router, v3RouterAbi, 'factoryV2'));
    return calls;
  });
}

/** The routers' facts as the snapshot records them, where they contradict the catalogue, and notes for the log. */
export interface RouterFactsFound {
  readonly routers: SnapshotRouter[];
  /** Each a contradiction between the catalogue and a router (or a router that does not answer): the chain is refused. */
  readonly mismatches: string[];
  /** What is worth a log line and refuses nothing (a SwapRouter02 without factoryV2(): the catalogue's override, if any, stands). */
  readonly notes: string[];
}

const same = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

/**
 * The facts of routerFactCalls' results: each router's factory() and WETH9() must be the catalogue's
 * v3FactoryAddress and wrappedNativeToken (a router built on another factory computes other pool addresses, one on
 * another WETH9 wraps into another token: its swaps would revert or miss the quoted pools), and a SwapRouter02's
 * factoryV2() the catalogue's v3RouterV2FactoryAddress where the file names one (the override exists for a router
 * that does not answer factoryV2(), not to contradict one that does). Each contradiction is a mismatch.
 */
export function routerFacts(chain: CatalogChain, results: readonly (Address | undefined)[]): RouterFactsFound {
  const found: RouterFactsFound = { routers: [], mismatches: [], notes: [] };
  let k = 0;
  for (const dex of routedDexes(chain)) {
    const [factory, weth9, factoryV2] = results.slice(k, k + readsOf(dex));
    k += readsOf(dex);
    const name = `${dex.slug} ${dex.version} ${dex.v3RouterKind} ${getAddress(dex.v3RouterAddress)}`;
    const unanswered = (fn: string) => `${name} does not answer ${fn}: no ${dex.v3RouterKind} at that address`;
    if (factory === undefined) found.mismatches.push(unanswered('factory()'));
    else if (!same(factory, dex.v3FactoryAddress))
      found.mismatches.push(`${name}: factory() is ${factory}, the catalogue's v3FactoryAddress is ${dex.v3FactoryAddress}`);
    if (weth9 === undefined) found.mismatches.push(unanswered('WETH9()'));
    else if (!same(weth9, chain.wrappedNativeToken))
      found.mismatches.push(`${name}: WETH9() is ${weth9}, the catalogue's wrappedNativeToken is ${chain.wrappedNativeToken}`);
    if (factory === undefined || weth9 === undefined) continue;
    if (swapsV2Pairs(dex.v3RouterKind)) {
      if (factoryV2 === undefined)
        found.notes.push(
          `${name} does not answer factoryV2(): ${dex.v3RouterV2FactoryAddress ? `the catalogue's v3RouterV2FactoryAddress ${dex.v3RouterV2FactoryAddress} stands` : 'no v2 pairs through it'}`,
        );
      else if (dex.v3RouterV2FactoryAddress && !same(factoryV2, dex.v3RouterV2FactoryAddress))
        found.mismatches.push(
          `${name}: factoryV2() is ${factoryV2}, the catalogue's v3RouterV2FactoryAddress is ${dex.v3RouterV2FactoryAddress}`,
        );
    }
    found.routers.push({
      dex: dex.slug,
      version: 'v3',
      kind: dex.v3RouterKind,
      address: getAddress(dex.v3RouterAddress),
      factory: getAddress(factory),
      weth9: getAddress(weth9),
      ...(factoryV2 !== undefined ? { factoryV2: getAddress(factoryV2) } : {}),
    });
  }
  return found;
}
