// Another trader's swap through chosen pools, for tests that move a price before sending a quote's steps.
import type { CatalogChain, CatalogToken } from '../../src/catalog/Catalog.ts';
import type { ChainPoolIndex, PoolEntry } from '../../src/graph/ChainPoolIndex.ts';
import { bestTrade } from '../../src/routing/bestTrade.ts';
import { buildTradeSteps } from '../../src/tx/buildTradeSteps.ts';
import type { Step } from '../../src/tx/Step.ts';

/**
 * The steps of the best one-pool swap of `amountIn` through the pools `pools` allows (a native end wrapped or
 * unwrapped by the router), priced on `index`, paying `account` with no minimum. Throws when no such pool can take the amount.
 */
export function poolSwapSteps(
  index: ChainPoolIndex,
  pools: (entry: PoolEntry) => boolean,
  p: { chain: CatalogChain; tokenIn: CatalogToken; tokenOut: CatalogToken; amountIn: bigint; account: string; deadline: number },
): Step[] {
  const outcome = bestTrade(index, {
    tokenIn: p.tokenIn.address.toLowerCase(),
    tokenOut: p.tokenOut.address.toLowerCase(),
    tradeType: 'exactIn',
    amount: p.amountIn,
    maxHops: 1,
    maxSplits: 1,
    gasPriceWei: 0n,
    allow: pools,
  });
  if (!outcome.ok)
    throw new Error(`no swap of ${p.amountIn} ${p.tokenIn.symbol} -> ${p.tokenOut.symbol} through the chosen pools: ${outcome.code}`);
  return buildTradeSteps({
    chain: p.chain,
    trade: outcome.trade,
    tokenIn: p.tokenIn,
    tokenOut: p.tokenOut,
    amountOutMinimum: 0n,
    recipient: p.account,
    wallet: p.account,
    deadline: p.deadline,
  });
}
