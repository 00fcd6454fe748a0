import type { CatalogChain, CatalogToken } from '../catalog/Catalog.ts';
import { type SnapshotPool, snapshotProtocol } from '../protocols/registry.ts';

/** Symbols valued at exactly one US dollar for display figures. */
export const USD_STABLECOINS: ReadonlySet<string> = new Set(['USDC', 'USDT', 'DAI', 'USDC.E', 'USDBC', 'BUSD', 'FDUSD', 'USDT0']);

const E18 = 10n ** 18n;

/** Spot price of one whole token0 in whole token1, as an 18-decimal fixed-point integer. */
export function spotPrice0In1E18(pool: SnapshotPool, decimals0: number, decimals1: number): bigint {
  const scale = 10n ** BigInt(decimals0);
  const unscale = 10n ** BigInt(decimals1);
  const { num, den } = snapshotProtocol(pool.version).snapshotMidPrice(pool);
  if (den === 0n) return 0n;
  return (num * scale * E18) / (den * unscale);
}

/**
 * USD price (18-decimal fixed point) per token address (lower case) for display figures only:
 * stablecoins are $1; any other token takes its spot price in the stablecoin pool that holds the
 * most stablecoin. Tokens with no such pool have no price.
 */
export function usdPrices(
  chain: CatalogChain,
  pools: readonly SnapshotPool[],
  token: (address: string) => CatalogToken | undefined,
): Map<string, bigint> {
  const prices = new Map<string, bigint>();
  for (const t of chain.tokens) if (USD_STABLECOINS.has(t.symbol.toUpperCase())) prices.set(t.address.toLowerCase(), E18);
  const depth = new Map<string, bigint>();
  for (const pool of pools) {
    const t0 = token(pool.token0);
    const t1 = token(pool.token1);
    if (!t0 || !t1) continue;
    const stable0 = USD_STABLECOINS.has(t0.symbol.toUpperCase());
    const stable1 = USD_STABLECOINS.has(t1.symbol.toUpperCase());
    if (stable0 === stable1) continue;
    const [other, stableBalance] = stable1
      ? [t0, BigInt(pool.balance1) * 10n ** BigInt(18 - Math.min(18, t1.decimals))]
      : [t1, BigInt(pool.balance0) * 10n ** BigInt(18 - Math.min(18, t0.decimals))];
    const key = other.address.toLowerCase();
    if ((depth.get(key) ?? -1n) >= stableBalance) continue;
    const p01 = spotPrice0In1E18(pool, t0.decimals, t1.decimals);
    const price = stable1 ? p01 : p01 === 0n ? 0n : (E18 * E18) / p01;
    if (price === 0n) continue;
    depth.set(key, stableBalance);
    prices.set(key, price);
  }
  return prices;
}

/** USD value of a smallest-unit balance as a 2-decimal string, or '' when the token has no price. */
export function usdValue(balance: bigint, decimals: number, priceE18: bigint | undefined): string {
  if (priceE18 === undefined) return '';
  const cents = (balance * priceE18 * 100n) / (10n ** BigInt(decimals) * E18);
  return formatCents(cents);
}

/** Formats an integer number of cents as `d.cc`. */
export function formatCents(cents: bigint): string {
  const whole = cents / 100n;
  const frac = (cents % 100n).toString().padStart(2, '0');
  return `${whole}.${frac}`;
}
