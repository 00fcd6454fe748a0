import type { CatalogChain } from '../catalog/Catalog.ts';
import type { SnapshotContext } from './PoolProtocol.ts';
import { chainAllowedHooks } from './uniswapV4/v4Fees.ts';

const contexts = new WeakMap<CatalogChain, SnapshotContext>();

/**
 * What the catalogue says about a chain that its pools' pricing depends on (SnapshotContext: the v4 hooks it lists),
 * as every reader of pool state passes it to the protocols (fromSnapshot, describe, rereadEachBlock): quotes, the
 * follower, USD prices, GET /blockchains/pools. One object per catalogue chain, so caches may be keyed by it.
 */
export function chainContext(chain: CatalogChain): SnapshotContext {
  let context = contexts.get(chain);
  if (!context) {
    context = Object.freeze({ allowedHooks: chainAllowedHooks(chain) });
    contexts.set(chain, context);
  }
  return context;
}
