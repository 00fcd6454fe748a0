/** A saved quote's status: "pending" until its deadline, "expired" at and after it (SPEC section 3, validity by time). */
export type QuoteStatus = 'pending' | 'expired';

/** Whether a quote's deadline has passed at `nowMs`: stale once the Unix time is at or after `deadline` (SPEC section 3). */
export function isExpired(quote: { readonly deadline: number }, nowMs: number): boolean {
  return Math.floor(nowMs / 1000) >= quote.deadline;
}

/**
 * A saved quote as of `nowMs`: once expired its status is "expired" and updatedAt its expiresAt (when the status
 * changed), so a stale quote is never served as fresh. A pending quote is returned as saved.
 */
export function quoteAsOf<Q extends { deadline: number; expiresAt: string; status: QuoteStatus; updatedAt: string }>(
  quote: Q,
  nowMs: number,
): Q {
  if (!isExpired(quote, nowMs)) return quote;
  return { ...quote, status: 'expired', updatedAt: quote.expiresAt };
}

/** What a refreshed quote changed (POST /quotes/{id}/refresh): the new quote's figures less the old one's. */
export interface QuoteChanges {
  /** Signed integer string, tokenIn's smallest units (exactIn: "0"). */
  amountIn: string;
  /** Signed integer string, tokenOut's smallest units (exactOut: "0"). */
  amountOut: string;
  /** Signed integer string of wei: the network fee's change; null when either quote has none (bridge quotes). */
  networkFeeWei: string | null;
}

/** The figures of a quote QuoteChanges compares. */
interface ChangedFigures {
  readonly amountIn: string;
  readonly amountOut: string;
  readonly networkFee?: { readonly wei: string };
}

/** `fresh` less `previous`, field by field (see QuoteChanges). */
export function quoteChanges(previous: ChangedFigures, fresh: ChangedFigures): QuoteChanges {
  const fee = (q: ChangedFigures) => (q.networkFee ? BigInt(q.networkFee.wei) : undefined);
  const [before, after] = [fee(previous), fee(fresh)];
  return {
    amountIn: (BigInt(fresh.amountIn) - BigInt(previous.amountIn)).toString(),
    amountOut: (BigInt(fresh.amountOut) - BigInt(previous.amountOut)).toString(),
    networkFeeWei: before === undefined || after === undefined ? null : (after - before).toString(),
  };
}
