import type { CatalogToken } from '../catalog/Catalog.ts';
import { QuoteUnavailableError } from '../errors/BaseError.ts';
import type { TradeType } from '../protocols/PoolProtocol.ts';
import type { Trade } from '../routing/Trade.ts';
import { displayAmount } from '../tx/Step.ts';

/** What a client should show beside a quote; `code` is stable, `message` is for people. */
export interface QuoteWarning {
  code: QuoteWarningCode;
  message: string;
}

/** The codes of quote warnings (more to come: stale pool state, approval resets). */
export type QuoteWarningCode = 'HIGH_PRICE_IMPACT' | 'PRICE_MOVED' | 'ALLOWANCE_NOT_READ';

/** Price impact above which a quote warns (5%), in basis points. */
export const HIGH_PRICE_IMPACT_BPS = 500;

/** One priced swap of a quote: the trade, and where it runs when the quote has more than one (a bridge route's legs). */
export interface QuotedSwap {
  readonly trade: Pick<Trade, 'priceImpactBps'>;
  /** e.g. "the swap before the bridge (devnet)"; undefined for a same-chain quote's only trade. */
  readonly where?: string;
}

/** A refreshed quote (POST /quotes/{id}/refresh): the quote it replaces and its own amounts. */
export interface RefreshedAmounts {
  readonly previous: { readonly tradeType: TradeType; readonly amountOutMinimum: string; readonly amountInMaximum: string };
  readonly amountIn: bigint;
  readonly amountOut: bigint;
  readonly tokenIn: Pick<CatalogToken, 'symbol' | 'decimals'>;
  readonly tokenOut: Pick<CatalogToken, 'symbol' | 'decimals'>;
}

/** What the warning rules read of a quote. */
export interface WarningSubject {
  readonly swaps: readonly QuotedSwap[];
  /** Refreshed quotes only. */
  readonly refresh?: RefreshedAmounts;
  /** Requests naming a `sender` whose allowances were not read: why (src/quote/quoteAllowances.ts). */
  readonly allowanceUnread?: string;
}

/** One rule: the warnings it finds in a quote (none most of the time). */
type WarningRule = (subject: WarningSubject) => QuoteWarning[];

/** Swaps that move the price more than HIGH_PRICE_IMPACT_BPS (and at most the request's bound, or they were refused). */
const highPriceImpact: WarningRule = ({ swaps }) =>
  swaps
    .filter((s) => s.trade.priceImpactBps > HIGH_PRICE_IMPACT_BPS)
    .map((s) => ({
      code: 'HIGH_PRICE_IMPACT',
      message: `price impact ${formatBps(s.trade.priceImpactBps)}${s.where ? ` on ${s.where}` : ''} is above ${formatBps(HIGH_PRICE_IMPACT_BPS)}: you receive noticeably less than the market price; a smaller amount moves the price less`,
    }));

const amountText = (amount: bigint, token: Pick<CatalogToken, 'symbol' | 'decimals'>) => `${displayAmount(amount, token)} ${token.symbol}`;

/**
 * A refreshed quote outside the bound the previous quote's transaction carries: exactIn a new amountOut below the
 * previous amountOutMinimum, exactOut a new amountIn above the previous amountInMaximum. That transaction would revert
 * now, so the user should be asked again with the new amounts.
 */
const priceMoved: WarningRule = ({ refresh }) => {
  if (!refresh) return [];
  const { previous } = refresh;
  const advice = "the previous quote's transaction would revert at this price: ask the user to confirm the new amounts";
  if (previous.tradeType === 'exactOut') {
    const limit = BigInt(previous.amountInMaximum);
    if (refresh.amountIn <= limit) return [];
    const [now, then] = [amountText(refresh.amountIn, refresh.tokenIn), amountText(limit, refresh.tokenIn)];
    return [{ code: 'PRICE_MOVED', message: `the price moved: amountIn ${now} is above the previous amountInMaximum ${then}; ${advice}` }];
  }
  const limit = BigInt(previous.amountOutMinimum);
  if (refresh.amountOut >= limit) return [];
  const [now, then] = [amountText(refresh.amountOut, refresh.tokenOut), amountText(limit, refresh.tokenOut)];
  return [{ code: 'PRICE_MOVED', message: `the price moved: amountOut ${now} is below the previous amountOutMinimum ${then}; ${advice}` }];
};

/** A sender's allowances that were not read: its steps approve as without a sender (a reset or approval may be spare). */
const allowanceNotRead: WarningRule = ({ allowanceUnread }) =>
  allowanceUnread ? [{ code: 'ALLOWANCE_NOT_READ', message: allowanceUnread }] : [];

/** Every rule, in the order their warnings are listed. */
const RULES: readonly WarningRule[] = [priceMoved, highPriceImpact, allowanceNotRead];

/** The warnings of a quote (POST /quotes, each route of POST /quotes/routes): empty when there is nothing to show. */
export function quoteWarnings(subject: WarningSubject): QuoteWarning[] {
  const warnings: QuoteWarning[] = [];
  for (const rule of RULES) for (const warning of rule(subject)) warnings.push(warning);
  return warnings;
}

/**
 * Basis points as a percent for messages: bps / 100 with at most two decimals, trailing zeros trimmed
 * (9977 → "99.77%", 1500 → "15%", 1550 → "15.5%", 5 → "0.05%"). Exact: basis points are hundredths of a percent.
 */
export function formatBps(bps: number): string {
  const sign = bps < 0 ? '-' : '';
  const abs = Math.abs(bps);
  const fraction = String(abs % 100)
    .padStart(2, '0')
    .replace(/0+$/, '');
  return `${sign}${Math.floor(abs / 100)}${fraction ? `.${fraction}` : ''}%`;
}

/** The 400 for a swap whose price impact exceeds the request's maxPriceImpactBps; undefined when within it. */
export function priceImpactRefusal(swap: QuotedSwap, maxPriceImpactBps: number): QuoteUnavailableError | undefined {
  const impact = swap.trade.priceImpactBps;
  if (impact <= maxPriceImpactBps) return undefined;
  return new QuoteUnavailableError(
    'PRICE_IMPACT_TOO_HIGH',
    `quote unavailable: price impact ${formatBps(impact)}${swap.where ? ` on ${swap.where}` : ''} exceeds maxPriceImpactBps ${formatBps(maxPriceImpactBps)}`,
  );
}
