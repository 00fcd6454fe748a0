/**
 * Why a quote cannot be given: the one vocabulary of refusals, from a pool's answer for one amount (protocols/)
 * through the route search (routing/) and the bridge fee (bridge/) to the 400 answer (QuoteUnavailableError, whose
 * code is the `quote_outcomes_total` outcome label).
 *
 * - NO_ROUTE: no path of pools joins the two tokens within the hop limit (no pool at all included).
 * - NO_EXACT_OUTPUT_ROUTE: paths exist, but none a router can execute for an exact output (answered as NO_ROUTE).
 * - INSUFFICIENT_LIQUIDITY: paths exist, but their pools cannot serve the whole amount.
 * - AMOUNT_TOO_SMALL: the amount rounds to nothing (a pool's output, a bridge transfer after its fee).
 * - AMOUNT_TOO_LARGE: the amount is beyond what a pool's contract can take: its 256-bit arithmetic or its balances
 *   (a v2 pair's uint112 reserves, a v3 pool's uint256 balance check) would overflow, and the swap would revert.
 * - AMOUNT_OUT_OF_RANGE: the amount is outside a bridge's minimum and maximum.
 * - PRICE_IMPACT_TOO_HIGH: the best trade moves the price more than the request's maxPriceImpactBps allows.
 * - NO_POOL_STATE: the chain has no pool state at all (no snapshot loaded): nothing can be priced there.
 */
export type RefusalCode =
  | 'NO_ROUTE'
  | 'NO_EXACT_OUTPUT_ROUTE'
  | 'INSUFFICIENT_LIQUIDITY'
  | 'AMOUNT_TOO_SMALL'
  | 'AMOUNT_TOO_LARGE'
  | 'AMOUNT_OUT_OF_RANGE'
  | 'NO_POOL_STATE'
  | 'PRICE_IMPACT_TOO_HIGH';
