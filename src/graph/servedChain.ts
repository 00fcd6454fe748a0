import { type CatalogChain, type CatalogDex, swapsV2Pairs } from '../catalog/Catalog.ts';
import type { Snapshot, SnapshotRouter } from './snapshot.ts';
import { servedTokens, type TokenFacts, tokenFacts } from './tokenFacts.ts';

const NO_ROUTERS: readonly SnapshotRouter[] = [];
/** Served chains by catalogue chain, then findings, then the snapshot's routers array (shared by followed blocks). */
const known = new WeakMap<CatalogChain, WeakMap<TokenFacts, WeakMap<object, CatalogChain>>>();

/**
 * The v2 factory whose pairs a SwapRouter02 swaps (catalogue `v3RouterV2FactoryAddress`) as served, and where it
 * comes from: the catalogue's field where the file names one (an override, for a router that does not answer
 * factoryV2(): the seeding run refuses one that contradicts it), else the router's own factoryV2() as the seeding
 * run read it (snapshot `routers`); '' with neither.
 */
export function routerV2Factory(
  dex: CatalogDex,
  routers: readonly SnapshotRouter[] | undefined,
): { readonly address: string; readonly from: 'catalog' | 'router' | '' } {
  if (dex.v3RouterV2FactoryAddress) return { address: dex.v3RouterV2FactoryAddress, from: 'catalog' };
  const read = routers?.find(
    (r) => swapsV2Pairs(r.kind) && r.dex === dex.slug && r.address.toLowerCase() === dex.v3RouterAddress.toLowerCase(),
  )?.factoryV2;
  return read ? { address: read, from: 'router' } : { address: '', from: '' };
}

/**
 * A chain as served from its snapshot, the one chain both routing (PricingGraph: executorsFor) and a quote's steps
 * (applyTokenFacts: buildTradeSteps) use: its tokens as the seeding run found them (tokenFacts.ts), and each
 * SwapRouter02's `v3RouterV2FactoryAddress` as routerV2Factory serves it (so SwapRouter02 swaps that v2 DEX's pairs,
 * mixed with v3 pools, whether the catalogue names the factory or only the router does). The catalogue's chain
 * itself when the snapshot changes nothing; one object per catalogue chain, findings and routers (executors are
 * cached per chain object).
 */
export function servedChain(
  chain: CatalogChain,
  snapshot: Pick<Snapshot, 'excludedTokens' | 'approvalResetTokens' | 'routers'> | undefined,
): CatalogChain {
  const facts = tokenFacts(snapshot);
  const routers = snapshot?.routers?.length ? snapshot.routers : NO_ROUTERS;
  let byFacts = known.get(chain);
  if (!byFacts) {
    byFacts = new WeakMap();
    known.set(chain, byFacts);
  }
  let byRouters = byFacts.get(facts);
  if (!byRouters) {
    byRouters = new WeakMap();
    byFacts.set(facts, byRouters);
  }
  let served = byRouters.get(routers);
  if (!served) {
    const tokens = servedTokens(facts, chain);
    let dexesChanged = false;
    const dexes = chain.dexes.map((dex) => {
      if (!swapsV2Pairs(dex.v3RouterKind) || dex.v3RouterV2FactoryAddress) return dex;
      const factory = routerV2Factory(dex, routers);
      if (!factory.address) return dex;
      dexesChanged = true;
      return { ...dex, v3RouterV2FactoryAddress: factory.address };
    });
    served = tokens === chain.tokens && !dexesChanged ? chain : { ...chain, tokens, dexes };
    byRouters.set(routers, served);
  }
  return served;
}
