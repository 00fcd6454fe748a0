import type { QuoteBridgeDetails, QuoteFeeBreakdown } from '../bridge/describeBridgeRoute.ts';
import type { CatalogToken } from '../catalog/Catalog.ts';
import type { TradeType } from '../protocols/PoolProtocol.ts';
import type { RouteSummary, TradeView } from '../routing/describeTrade.ts';
import type { Step } from '../tx/Step.ts';
import type { SlippageSource } from './autoSlippage.ts';
import type { QuoteChanges, QuoteStatus } from './quoteLifecycle.ts';
import type { PermitData } from './quotePermit2.ts';
import type { QuoteSimulation } from './quoteSimulation.ts';
import type { QuoteWarning } from './quoteWarnings.ts';

/** Seconds a quote stays valid (SPEC section 8). */
export const QUOTE_VALIDITY_SECONDS = 300;

/** Freshness of the pool state a price came from (extension field). */
export interface SnapshotInfo {
  blockNumber: number;
  blockTimestamp: number;
  ageSeconds: number;
}

/** The saved quote (SPEC section 2, Quote) plus the routing extensions and the snapshot it was priced on. */
export interface Quote extends Partial<Omit<TradeView, 'route' | 'pairAddress'>> {
  quoteId: string;
  /** "pending" until `deadline`, "expired" from then on (GET /quotes/{id} answers as of the time asked). */
  status: QuoteStatus;
  tradeType: TradeType;
  amountIn: string;
  amountInFloat: string;
  amountInMaximum: string;
  amountOut: string;
  amountOutFloat: string;
  amountOutMinimum: string;
  slippageBps: number;
  slippageSource: SlippageSource;
  deadline: number;
  /** `deadline` as ISO 8601: the calldata deadline, after which the steps revert and the quote is "expired". */
  expiresAt: string;
  originChain: string;
  originChainId: number;
  destinationChain: string;
  destinationChainId: number;
  tokenIn: CatalogToken;
  tokenOut: CatalogToken;
  recipientAddress: string;
  walletAddress: string;
  pairAddress: string;
  hash: string;
  explorerUrl: string;
  createdAt: string;
  updatedAt: string;
  route: RouteSummary;
  steps: Step[];
  snapshot: SnapshotInfo | null;
  /** Cross-chain quotes only (extension): expected seconds from the deposit to the fill. */
  expectedFillTimeSeconds?: number;
  /** Cross-chain quotes only (extension): the bridge transfer and the swap legs around it. */
  bridge?: QuoteBridgeDetails;
  /** Cross-chain quotes only (extension): bridge fee and swap fees. */
  fees?: QuoteFeeBreakdown;
  /** What a client should show beside the quote (empty when nothing). */
  warnings: QuoteWarning[];
  /** Quotes made by POST /quotes/{id}/refresh only: the quote refreshed. */
  refreshedFrom?: string;
  /** Quotes made by POST /quotes/{id}/refresh only: this quote's amounts less the refreshed quote's. */
  changes?: QuoteChanges;
  /** Requests with `simulate: true` only: the steps run from `sender` before the quote was answered. */
  simulation?: QuoteSimulation;
  /**
   * approvalMode "permit2" only: the PermitSingle the sender signs (EIP-712 typed data); `steps` then end before the
   * swap, which POST /quotes/{quoteId}/swap returns with the signature.
   */
  permitData?: PermitData;
}

/** POST /quotes/{quoteId}/swap: the swap step of a permit2 quote, its signed permit first. */
export interface QuoteSwap {
  quoteId: string;
  steps: Step[];
}

/** A saved quote and its JSON text as saved (the response sends the same text: the quote is serialized once). */
export interface SavedQuote {
  /** The quote without its extension fields (a trade's paths, gas and fee; a bridge route's): those are in `json` only. */
  readonly quote: Quote;
  readonly json: string;
}
