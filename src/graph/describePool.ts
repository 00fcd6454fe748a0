import { formatUnits } from 'viem';
import type { CatalogChain, CatalogToken } from '../catalog/Catalog.ts';
import type { SnapshotContext } from '../protocols/PoolProtocol.ts';
import { type SnapshotPool, snapshotProtocol } from '../protocols/registry.ts';
import { formatCents, type UsdPrice, usdCents, usdValue } from './usdPrices.ts';

/** A pool as `GET /blockchains/pools` returns it (SPEC section 2, Pool). */
export interface PoolView {
  name: string;
  symbol: string;
  dexName: string;
  dexSlug: string;
  version: SnapshotPool['version'];
  /** The pool contract; for a v4 pool (no contract of its own) its poolId, 32 bytes of lower-case hex. */
  pairAddress: string;
  poolType: SnapshotPool['version'];
  poolFee: number;
  tickSpacing: number;
  isActivePool: boolean;
  marketCap: string;
  baseToken: CatalogToken;
  baseTokenAddress: string;
  baseTokenBalance: string;
  quoteToken: CatalogToken;
  quoteTokenAddress: string;
  quoteTokenBalance: string;
  liquidity: { baseTokenBalance: string; quoteTokenBalance: string };
  liquidityInUsd: { baseTokenBalance: string; quoteTokenBalance: string; totalPoolBalance: string };
}

/** Formats a fee in pips as a percentage, e.g. 3000 -> "0.3%". */
export function feePercent(pips: number): string {
  return `${formatUnits(BigInt(pips), 4)}%`;
}

/**
 * Describes one snapshot pool for the API: base = token0, quote = token1; balances in smallest units at the top
 * level and in display units under `liquidity`; USD figures (usdPrices.ts: `prices` by lower-case address) or ''
 * where a price is unknown: each balance's value, their sum, and `marketCap`, the base token's fully diluted market
 * capitalisation (its totalSupply() in `supplies`, times its price). `context` is the chain's (fromSnapshot's: the
 * catalogue's allowed v4 hooks): a pool is described active where the service prices it.
 */
export function describePool(
  pool: SnapshotPool,
  chain: CatalogChain,
  base: CatalogToken,
  quote: CatalogToken,
  prices: ReadonlyMap<string, UsdPrice>,
  supplies: ReadonlyMap<string, bigint>,
  context?: SnapshotContext,
): PoolView {
  const dex = chain.dexes.find((d) => d.slug === pool.dex && d.version === pool.version);
  const balance0 = BigInt(pool.balance0);
  const balance1 = BigInt(pool.balance1);
  const price0 = prices.get(base.address.toLowerCase());
  const price1 = prices.get(quote.address.toLowerCase());
  const usd0 = usdValue(balance0, price0);
  const usd1 = usdValue(balance1, price1);
  const total = price0 && price1 ? formatCents(usdCents(balance0, price0) + usdCents(balance1, price1)) : '';
  const { isActive, tickSpacing } = snapshotProtocol(pool.version).describe(pool, context);
  return {
    name: `${dex?.name ?? pool.dex} ${base.symbol}/${quote.symbol} ${feePercent(pool.fee)}`,
    symbol: `${base.symbol}/${quote.symbol}`,
    dexName: dex?.name ?? pool.dex,
    dexSlug: pool.dex,
    version: pool.version,
    pairAddress: pool.address,
    poolType: pool.version,
    poolFee: pool.fee,
    tickSpacing,
    isActivePool: isActive,
    marketCap: usdValue(supplies.get(base.address.toLowerCase()), price0),
    baseToken: base,
    baseTokenAddress: base.address,
    baseTokenBalance: balance0.toString(),
    quoteToken: quote,
    quoteTokenAddress: quote.address,
    quoteTokenBalance: balance1.toString(),
    liquidity: { baseTokenBalance: formatUnits(balance0, base.decimals), quoteTokenBalance: formatUnits(balance1, quote.decimals) },
    liquidityInUsd: { baseTokenBalance: usd0, quoteTokenBalance: usd1, totalPoolBalance: total },
  };
}
