/**
 * What the quote playground shows, computed from API responses without touching the page: token amounts in
 * display units, fee tiers, and the best route as paths of hops. Runs in the browser (served as
 * /assets/routeView.js) and in tests (imported directly); plain TypeScript, no imports.
 */

/** A catalogue token as GET /blockchains returns it (the fields used here). */
export interface TokenInfo {
  address: string;
  symbol: string;
  decimals: number;
}

/** One hop of a path (POST /quotes/routes, routing extension `paths[].hops[]`). */
export interface ApiHop {
  dex: string;
  version: string;
  pool: string;
  fee: number;
  tokenIn: string;
  tokenOut: string;
  amountIn: string;
  amountOut: string;
}

/** One split (routing extension `paths[]`). */
export interface ApiPath {
  percent: number;
  amountIn: string;
  amountOut: string;
  hops: ApiHop[];
}

/** One element of POST /quotes/routes' data (the fields used here; the routing extensions are optional). */
export interface ApiRouteQuote {
  amountIn: string;
  amountOut: string;
  amountOutMinimum: string;
  /** Exact output: the most the steps may spend (routing extension). */
  amountInMaximum?: string;
  tradeType?: 'exactIn' | 'exactOut';
  slippageBps: number;
  route: { dex: string; name: string; version: string; poolFee: number; fees: string };
  tokenIn: TokenInfo;
  tokenOut: TokenInfo;
  pairAddress: string;
  snapshot: { blockNumber: number; blockTimestamp: number; ageSeconds: number } | null;
  paths?: ApiPath[];
  gasEstimate?: string;
  gasPriceWei?: string;
  networkFee?: { wei: string; inTokenOut: string | null };
  priceImpactBps?: number;
  /** What to show beside the route (e.g. HIGH_PRICE_IMPACT); empty when nothing. */
  warnings: { code: string; message: string }[];
}

/** A hop as drawn: token symbols, DEX name, fee tier and amounts (raw and in display units). */
export interface HopDrawing {
  dex: string;
  dexName: string;
  version: string;
  pool: string;
  fee: number;
  feeLabel: string;
  tokenIn: string;
  tokenOut: string;
  tokenInSymbol: string;
  tokenOutSymbol: string;
  amountIn: string;
  amountOut: string;
  amountInLabel: string;
  amountOutLabel: string;
}

/** A split as drawn. */
export interface PathDrawing {
  percent: number;
  amountIn: string;
  amountOut: string;
  amountInLabel: string;
  amountOutLabel: string;
  hops: HopDrawing[];
}

/** Looks a token up by address (any letter case) on the quoted chain. */
export type TokenLookup = (address: string) => TokenInfo | undefined;
/** The catalogue name of a DEX deployment ("Uniswap V3"). */
export type DexNames = (slug: string, version: string) => string;

/** An integer string in smallest units as a display decimal ("1500000", 6 → "1.5"): exact, trailing zeros dropped. */
export function formatUnits(value: string | bigint, decimals: number): string {
  const raw = BigInt(value);
  const negative = raw < 0n;
  const digits = (negative ? -raw : raw).toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** A pool fee in pips as a percentage ("3000" → "0.3%"); a wrap has no fee. */
export function feeLabel(pips: number): string {
  return `${formatUnits(BigInt(pips), 4)}%`;
}

/** Basis points as a percentage (12 → "0.12%"). */
export function bpsLabel(bps: number): string {
  return `${formatUnits(BigInt(bps), 2)}%`;
}

/** Separates thousands of a display decimal's whole part ("1234567.5" → "1,234,567.5"). */
export function groupThousands(display: string): string {
  const [whole, fraction] = display.split('.');
  const grouped = whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return fraction === undefined ? grouped : `${grouped}.${fraction}`;
}

/** An amount with its token symbol, for labels ("1,234.5 USDC"). */
export function amountLabel(amount: string, token: TokenInfo | undefined): string {
  return token ? `${groupThousands(formatUnits(amount, token.decimals))} ${token.symbol}` : `${amount} (smallest units)`;
}

/** A split's share of the input (up to four decimals) as a percentage (33.3333 → "33.3333%", 50 → "50%"). */
export function percentLabel(percent: number): string {
  return `${Number(percent.toFixed(4))}%`;
}

/**
 * What a route pays liquidity providers: the total LP fee in tokenIn (`route.fees`) and the pool fee tiers it goes
 * through, per path in hop order ("0.0075 WETH (0.3% → 0.05%)"); splits name their share ("… (60%: 0.3%; 40%: 0.05%)").
 * Wraps take no fee and are left out; a route of wraps only is "no fee".
 */
export function feesLabel(quote: ApiRouteQuote, paths: readonly PathDrawing[]): string {
  const tiers = paths
    .map((path) => ({ path, hops: path.hops.filter((hop) => hop.dex !== 'wrap').map((hop) => hop.feeLabel) }))
    .filter(({ hops }) => hops.length > 0)
    .map(({ path, hops }) => (paths.length > 1 ? `${percentLabel(path.percent)}: ` : '') + hops.join(' → '));
  if (tiers.length === 0) return 'no fee';
  return `${amountLabel(quote.route.fees, quote.tokenIn)} (${tiers.join('; ')})`;
}

/**
 * The best route as paths of hops. With the routing extension `paths` the drawing is exactly those paths; a
 * response without it (a single pool per DEX) is one path through `pairAddress`.
 */
export function drawRoute(quote: ApiRouteQuote, token: TokenLookup, dexName: DexNames): PathDrawing[] {
  const paths: ApiPath[] = quote.paths ?? [
    {
      percent: 100,
      amountIn: quote.amountIn,
      amountOut: quote.amountOut,
      hops: [
        {
          dex: quote.route.dex,
          version: quote.route.version,
          pool: quote.pairAddress,
          fee: quote.route.poolFee,
          tokenIn: quote.tokenIn.address,
          tokenOut: quote.tokenOut.address,
          amountIn: quote.amountIn,
          amountOut: quote.amountOut,
        },
      ],
    },
  ];
  return paths.map((path) => ({
    percent: path.percent,
    amountIn: path.amountIn,
    amountOut: path.amountOut,
    amountInLabel: amountLabel(path.amountIn, quote.tokenIn),
    amountOutLabel: amountLabel(path.amountOut, quote.tokenOut),
    hops: path.hops.map((hop) => {
      const tokenIn = token(hop.tokenIn);
      const tokenOut = token(hop.tokenOut);
      return {
        dex: hop.dex,
        dexName: hop.dex === 'wrap' ? 'Wrap' : dexName(hop.dex, hop.version),
        version: hop.version,
        pool: hop.pool,
        fee: hop.fee,
        feeLabel: hop.dex === 'wrap' ? 'no fee' : feeLabel(hop.fee),
        tokenIn: hop.tokenIn,
        tokenOut: hop.tokenOut,
        tokenInSymbol: tokenIn?.symbol ?? hop.tokenIn,
        tokenOutSymbol: tokenOut?.symbol ?? hop.tokenOut,
        amountIn: hop.amountIn,
        amountOut: hop.amountOut,
        amountInLabel: amountLabel(hop.amountIn, tokenIn),
        amountOutLabel: amountLabel(hop.amountOut, tokenOut),
      };
    }),
  }));
}
