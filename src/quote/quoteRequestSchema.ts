/**
 * The shape of POST /quotes and POST /quotes/routes bodies: their TypeScript type, the JSON schema the request is
 * validated against (src/quote/quoteRequest.ts) and the OpenAPI document shows, and the values of its enumerated fields.
 */
import type { JSONSchemaType } from 'ajv';
import { CHAIN_ID_SCHEMA, DECIMAL_AMOUNT_PATTERN, EVM_ADDRESS_PATTERN, INTEGER_STRING_PATTERN, TOKEN_PATTERN } from '../http/formats.ts';
import type { TradeType } from '../protocols/PoolProtocol.ts';
import { HOOKS_OPTIONS, type HooksOption } from '../protocols/uniswapV4/v4Fees.ts';
import type { ApprovalMode } from '../routing/RoutingLimits.ts';
import { ROUTING_BOUNDS } from '../routing/RoutingLimits.ts';

/** Body of POST /quotes and POST /quotes/routes (SPEC section 2, Quote request). */
export interface QuoteRequestBody {
  originChainId: number;
  destinationChainId: number;
  tokenIn: string;
  tokenOut: string;
  amount: string;
  recipientAddress: string;
  /** Basis points, or "auto" (src/quote/autoSlippage.ts: the bound from the trade itself). */
  slippageBps?: number | 'auto';
  walletAddress?: string;
  /** The wallet that will send the steps, whose current allowances shape the approval steps (quoteAllowances.ts). */
  sender?: string;
  /** Routing extensions (README, "Routing"). */
  maxHops?: number;
  maxSplits?: number;
  gasPriceWei?: string;
  includeDexes?: string[];
  excludeDexes?: string[];
  /** Which Uniswap v4 pools with hooks may be used (README, "Routing"): "safe" (default) or "none". */
  hooks?: HooksOption;
  /** Which amount is fixed (README, "Exact output"): `amount` of tokenIn (exactIn) or of tokenOut (exactOut). */
  tradeType?: TradeType;
  /** Largest price impact accepted, basis points (README, "Price impact"). */
  maxPriceImpactBps?: number;
  /** POST /quotes: run the steps from `sender` before answering (src/quote/quoteSimulation.ts). */
  simulate?: boolean;
  /** How a Universal Router route's Permit2 allowance is given (docs/api.md, approvalMode); default "approve". */
  approvalMode?: ApprovalMode;
}

/** Default of `maxPriceImpactBps`: a quote moving the price more than 15% is refused unless the request allows it. */
export const DEFAULT_MAX_PRICE_IMPACT_BPS = 1500;

/** The values of `tradeType`; the first is the default. */
export const TRADE_TYPES: readonly TradeType[] = ['exactIn', 'exactOut'];

/** The values of `approvalMode`; the first is the default. */
export const APPROVAL_MODES: readonly ApprovalMode[] = ['approve', 'permit2'];

const address = (description: string) => ({ type: 'string', pattern: EVM_ADDRESS_PATTERN, description }) as const;
const token = (description: string) => ({ type: 'string', pattern: TOKEN_PATTERN, description }) as const;
const dexSlugs = (description: string) =>
  ({ type: 'array', items: { type: 'string', maxLength: 64 }, maxItems: 32, nullable: true, description }) as const;

/**
 * The one schema of the quote request: the source of validation, of QuoteRequestBody (JSONSchemaType keeps the two
 * equal) and of the OpenAPI document's QuoteRequest (openApiDocument.ts drops `nullable`, which only serves the
 * type: a null is refused). Unknown fields are refused, naming each.
 */
export const quoteRequestSchema: JSONSchemaType<QuoteRequestBody> = {
  type: 'object',
  required: ['originChainId', 'destinationChainId', 'tokenIn', 'tokenOut', 'amount', 'recipientAddress'],
  properties: {
    originChainId: { ...CHAIN_ID_SCHEMA, description: 'Chain of tokenIn.' },
    destinationChainId: {
      ...CHAIN_ID_SCHEMA,
      description: 'Chain of tokenOut. POST /quotes: a different chain gets a bridge quote; POST /quotes/routes: must equal originChainId.',
    },
    tokenIn: token(
      'Token of the origin chain: its address in any letter case (mixed case must be its EIP-55 checksum; 0xEeee…EEeE is the native asset), or its symbol where unique on the chain, in any letter case ("USDC"; the native symbol, e.g. "ETH", is the native asset).',
    ),
    tokenOut: token('Token of the destination chain: its address or its symbol, as tokenIn.'),
    amount: {
      type: 'string',
      maxLength: 100,
      pattern: DECIMAL_AMOUNT_PATTERN,
      description:
        'Positive decimal in display units ("1.5") of tokenIn, or of tokenOut with tradeType "exactOut": no sign, exponent, spaces or more decimals than that token has.',
    },
    recipientAddress: address('EVM address receiving tokenOut; mixed case must be its EIP-55 checksum.'),
    slippageBps: {
      anyOf: [
        { type: 'integer', minimum: 0, maximum: 5000 },
        { type: 'string', const: 'auto' },
      ],
      description:
        'Basis points from 0 to 5000, default DEFAULT_SLIPPAGE_BPS (50); or "auto" (same-chain only): the network fee in the output token over the output (exactOut: in the input token over the input), at least the route\'s price impact, clamped to 50–550 (0.5%–5.5%). The quote names the value chosen and slippageSource.',
    } as unknown as JSONSchemaType<QuoteRequestBody>['properties']['slippageBps'],
    walletAddress: {
      ...address('Extension: sender of the steps; defaults to recipientAddress. Mixed case must be its EIP-55 checksum.'),
      nullable: true,
    },
    sender: {
      ...address(
        'Extension: the wallet that will send the steps (walletAddress defaults to it; when both are sent they must be equal). With an RPC URL for the chain (RPC_URL_<chainId>), a quote reads its current allowance for each approval it gives (tokenIn for each router; across chains also the bridged token for the SpokePool and the destination router): no approval step when it covers the amount, and a reset to 0 only for a token that needs one (approvalReset) while the allowance is not zero. Otherwise the steps are those without a sender, and warning ALLOWANCE_NOT_READ says why. Mixed case must be its EIP-55 checksum.',
      ),
      nullable: true,
    },
    // Defaults are stated in the descriptions, not as `default`: generated clients would make such fields required.
    maxHops: {
      type: 'integer',
      minimum: ROUTING_BOUNDS.maxHops.minimum,
      maximum: ROUTING_BOUNDS.maxHops.maximum,
      nullable: true,
      description: `Routing: most pools a path may go through; default ${ROUTING_BOUNDS.maxHops.default}.`,
    },
    maxSplits: {
      type: 'integer',
      minimum: ROUTING_BOUNDS.maxSplits.minimum,
      maximum: ROUTING_BOUNDS.maxSplits.maximum,
      nullable: true,
      description: `Routing: most paths the amount may be split over; default ${ROUTING_BOUNDS.maxSplits.default}.`,
    },
    gasPriceWei: {
      type: 'string',
      maxLength: 78,
      pattern: INTEGER_STRING_PATTERN,
      nullable: true,
      description:
        'Routing: gas price to rank routes by, integer wei; default the gas price recorded in the chain\'s snapshot; "0" ranks by gross output.',
    },
    includeDexes: dexSlugs('Routing: only these DEX slugs of the origin chain (a slug covers every version of that DEX).'),
    excludeDexes: dexSlugs('Routing: never these DEX slugs of the origin chain.'),
    hooks: {
      type: 'string',
      enum: HOOKS_OPTIONS,
      nullable: true,
      description:
        'Routing: which Uniswap v4 pools with a hook may be used. "safe" (default): hookless pools, pools whose hook cannot change swap amounts (no before/after-swap or *ReturnDelta permission) on a static fee, and the hooks the chain\'s catalogue allows; "none": hookless pools only. Pools whose hook can change swap amounts are never priced as if the hook were absent; a dynamic-fee pool is priced only when the catalogue allows its hook and the hook has no beforeSwap permission (its fee is slot0.lpFee, re-read every block).',
    },
    tradeType: {
      type: 'string',
      enum: TRADE_TYPES,
      nullable: true,
      description:
        'Which amount is fixed: "exactIn" (default): `amount` of tokenIn is sold; "exactOut": `amount` of tokenOut is bought, the input it needs is quoted, same-chain only.',
    },
    maxPriceImpactBps: {
      type: 'integer',
      minimum: 0,
      maximum: 10000,
      nullable: true,
      description: `Largest price impact accepted, basis points (100 = 1%); default ${DEFAULT_MAX_PRICE_IMPACT_BPS}. A quote above it is refused (400); POST /quotes/routes leaves out the routes above it; a bridge quote applies it to each of its swaps.`,
    },
    simulate: {
      type: 'boolean',
      nullable: true,
      description:
        "Extension, POST /quotes only: run the steps before answering (as POST /quotes/{quoteId}/simulate does) from `sender`, which is then required; the quote carries `simulation` and each step that succeeded its gasLimit from it. Same-chain only; needs the origin chain's RPC_URL_<chainId>.",
    },
    approvalMode: {
      type: 'string',
      enum: APPROVAL_MODES,
      nullable: true,
      description:
        "Extension, POST /quotes: how a Universal Router route's Permit2 allowance is given. \"approve\" (default): plain transactions (the token's approval of Permit2, then Permit2.approve of the router until the deadline) that any wallet, a Safe included, can send; with `sender` and the chain's RPC_URL_<chainId>, each is left out when the allowance read on chain already covers it (Permit2's: amount and expiration at or after the deadline). \"permit2\": the quote carries `permitData`, the EIP-712 PermitSingle (exactly amountIn, exact output amountInMaximum, for the Universal Router, expiring at the deadline, with the sender's Permit2 nonce read on chain) for `sender` (then required) to sign; its steps stop before the swap (only the token's approval of Permit2, when short), and POST /quotes/{quoteId}/swap with the signature returns the swap. Needs the chain's RPC_URL_<chainId>; refused (400) across chains, for a native tokenIn and for a route through another router. POST /quotes/routes validates it and otherwise ignores it.",
    },
  },
  additionalProperties: false,
};
