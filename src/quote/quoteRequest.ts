import type { ErrorObject, ValidateFunction } from 'ajv';
import { newAjv } from '../ajv.ts';
import { type Catalog, type CatalogChain, type CatalogToken, type DeploymentId, deploymentId } from '../catalog/Catalog.ts';
import { ValidationError } from '../errors/BaseError.ts';
import { DECIMAL_AMOUNT_PATTERN, EVM_ADDRESS_PATTERN, hasValidChecksum, TOKEN_PATTERN } from '../http/formats.ts';
import type { TradeType } from '../protocols/PoolProtocol.ts';
import { HOOKS_OPTIONS } from '../protocols/uniswapV4/v4Fees.ts';
import type { ApprovalMode } from '../routing/RoutingLimits.ts';
import { type RequestedLimits, ROUTING_BOUNDS } from '../routing/RoutingLimits.ts';
import { checksumAddress } from '../tx/checksumAddress.ts';
import { editDistance } from './editDistance.ts';

import {
  APPROVAL_MODES,
  DEFAULT_MAX_PRICE_IMPACT_BPS,
  type QuoteRequestBody,
  quoteRequestSchema,
  TRADE_TYPES,
} from './quoteRequestSchema.ts';

let shapeValidator: ValidateFunction<QuoteRequestBody> | undefined;

/** The request body schema, compiled on the first request (a process that never parses one never compiles it). */
function validateShape(): ValidateFunction<QuoteRequestBody> {
  shapeValidator ??= newAjv(true).compile(quoteRequestSchema);
  return shapeValidator;
}

/** A validated quote request with its catalogue objects and integer amount. */
export interface QuoteRequest {
  readonly originChain: CatalogChain;
  readonly destinationChain: CatalogChain;
  readonly tokenIn: CatalogToken;
  readonly tokenOut: CatalogToken;
  /** exactIn: tokenIn is sold for as much tokenOut as it buys; exactOut: exactly `amount` of tokenOut is bought. */
  readonly tradeType: TradeType;
  /** The fixed amount in smallest units: tokenIn's for exactIn, tokenOut's for exactOut. */
  readonly amount: bigint;
  /** Basis points, or "auto" (same-chain only): chosen per trade by src/quote/autoSlippage.ts. */
  readonly slippageBps: number | 'auto';
  readonly recipientAddress: string;
  /** Sender of the steps; defaults to `sender`, then recipientAddress. */
  readonly walletAddress: string;
  /** The request's `sender` (checksummed): its allowances are read. */
  readonly sender?: string;
  /** `simulate: true`: the steps are simulated from `sender` before the quote is answered. */
  readonly simulate: boolean;
  /** How the Universal Router's Permit2 allowance is given (default "approve"). */
  readonly approvalMode: ApprovalMode;
  /**
   * Routing limits on the origin chain: its DEX deployments after include/exclude; the gas price undefined when the
   * body states none (the one recorded with the chain's pool state).
   */
  readonly limits: RequestedLimits;
  /** Largest price impact accepted, basis points (default DEFAULT_MAX_PRICE_IMPACT_BPS). */
  readonly maxPriceImpactBps: number;
  /** The body as validated: saved with the quote so that POST /quotes/{id}/refresh prices the same request again. */
  readonly body: QuoteRequestBody;
}

const AMOUNT = new RegExp(DECIMAL_AMOUNT_PATTERN);
const ADDRESS = new RegExp(EVM_ADDRESS_PATTERN);
const ADDRESS_PROBLEM = 'must be a valid EVM address (0x followed by 40 hex digits)';
const TOKEN_PROBLEM = 'must be a token address (0x followed by 40 hex digits) or a token symbol (1 to 32 characters, no spaces)';
const AMOUNT_FORM_PROBLEM = 'must be a positive decimal string such as "1.5" (no sign, exponent or spaces)';

/** Range messages of the bounded integer fields. */
const RANGES: Record<string, string> = {
  slippageBps: 'must be between 0 and 5000',
  maxHops: `must be between ${ROUTING_BOUNDS.maxHops.minimum} and ${ROUTING_BOUNDS.maxHops.maximum}`,
  maxSplits: `must be between ${ROUTING_BOUNDS.maxSplits.minimum} and ${ROUTING_BOUNDS.maxSplits.maximum}`,
  maxPriceImpactBps: 'must be between 0 and 10000',
};

/** What a field that breaks its schema pattern is told. */
const PATTERN_PROBLEMS: Record<string, string> = {
  tokenIn: TOKEN_PROBLEM,
  tokenOut: TOKEN_PROBLEM,
  recipientAddress: ADDRESS_PROBLEM,
  walletAddress: ADDRESS_PROBLEM,
  sender: ADDRESS_PROBLEM,
  amount: AMOUNT_FORM_PROBLEM,
  gasPriceWei: 'must be a non-negative integer string of wei, such as "1000000000"',
};

const FIELDS = Object.keys(quoteRequestSchema.properties ?? {});
/** The fields holding an EVM address (token fields: or a symbol), read from the schema: each passes hasValidChecksum. */
const ADDRESS_FIELDS = Object.entries(quoteRequestSchema.properties as Record<string, { pattern?: string }>)
  .filter(([, schema]) => schema.pattern === EVM_ADDRESS_PATTERN || schema.pattern === TOKEN_PATTERN)
  .map(([field]) => field as 'tokenIn' | 'tokenOut' | 'recipientAddress' | 'walletAddress' | 'sender');
/** Unknown fields named one by one, at most this many; the rest are counted under `body`. */
const MAX_UNKNOWN_NAMED = 10;

/** The problem of an unknown field, with the known field it most likely misspells. */
function unknownFieldProblem(name: string): string {
  const guess = FIELDS.find((f) => f.toLowerCase() === name.toLowerCase()) ?? FIELDS.find((f) => editDistance(f, name) <= 2);
  return `is not a field of the quote request${guess ? ` (did you mean ${guess}?)` : ''}`;
}

const SLIPPAGE_PROBLEM = 'must be an integer (basis points) or "auto"';
const TRADE_TYPE_PROBLEM = `must be ${TRADE_TYPES.map((x) => JSON.stringify(x)).join(' or ')}`;
const APPROVAL_MODE_PROBLEM = `must be ${APPROVAL_MODES.map((x) => JSON.stringify(x)).join(' or ')}`;
const HOOKS_PROBLEM = `must be ${HOOKS_OPTIONS.map((x) => JSON.stringify(x)).join(' or ')}`;

function shapeMessage(error: ErrorObject): [string, string] {
  if (error.keyword === 'required') return [String(error.params.missingProperty), 'is required'];
  if (error.keyword === 'additionalProperties') {
    const name = String(error.params.additionalProperty);
    return [name.length > 64 ? `${name.slice(0, 64)}…` : name, unknownFieldProblem(name)];
  }
  // An array item's problem is reported on the array field.
  const field = error.instancePath.slice(1).replace(/\/.*$/, '') || 'body';
  // Whatever is wrong with it (type or value), tradeType is told its two values.
  if (field === 'tradeType') return [field, TRADE_TYPE_PROBLEM];
  if (field === 'approvalMode') return [field, APPROVAL_MODE_PROBLEM];
  if (field === 'hooks') return [field, HOOKS_PROBLEM];
  // slippageBps: out of range is told the range, anything else its two forms.
  if (field === 'slippageBps' && error.keyword !== 'minimum' && error.keyword !== 'maximum') return [field, SLIPPAGE_PROBLEM];
  switch (error.keyword) {
    case 'type': {
      const type = String(error.params.type);
      return [field, `must be ${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`];
    }
    case 'minimum':
    case 'maximum':
      if (field in RANGES) return [field, RANGES[field]];
      return [field, 'must be a positive integer'];
    case 'maxLength':
      return [field, `must be at most ${String(error.params.limit)} characters`];
    case 'maxItems':
      return [field, `must list at most ${String(error.params.limit)} DEX slugs`];
    case 'pattern':
      return [field, PATTERN_PROBLEMS[field] ?? `must match ${String(error.params.pattern)}`];
    default:
      return [field, error.message ?? 'is invalid'];
  }
}

/** Checks the form of a display amount (positive decimal, no sign, exponent or spaces); undefined when fine. */
export function amountFormProblem(amount: string): string | undefined {
  if (!AMOUNT.test(amount)) return AMOUNT_FORM_PROBLEM;
  if (!/[1-9]/.test(amount)) return 'must be greater than zero';
  return undefined;
}

/** Parses a positive decimal display amount into smallest units; returns a problem text instead when invalid. */
export function parseAmount(amount: string, decimals: number): bigint | string {
  const form = amountFormProblem(amount);
  if (form) return form;
  const [whole, fraction = ''] = amount.split('.');
  if (fraction.length > decimals) return `has ${fraction.length} decimal places; the token has ${decimals}`;
  const value = BigInt(whole + fraction.padEnd(decimals, '0'));
  if (value >= 1n << 256n) return 'is too large';
  return value;
}

function chainProblem(chain: CatalogChain | undefined, id: number): string | undefined {
  if (!chain) return `unknown chain ${id}`;
  if (chain.ecosystem !== 'evm' || chain.dexes.length === 0)
    return `chain ${chain.slug} (${chain.chainId}) has no DEX and cannot be quoted`;
  return undefined;
}

/** Whether a field was sent and has no problem yet. */
function present(problems: ReadonlyMap<string, string>, b: Partial<QuoteRequestBody>, field: keyof QuoteRequestBody): boolean {
  return !problems.has(field) && b[field] !== undefined;
}

/**
 * The address rules the schema's patterns cannot state, for every address field: a mixed-case address must be its
 * EIP-55 checksum (a typo in a checksummed address is refused, never "corrected"), and a token field that starts with
 * 0x but is no address is told the address form rather than the symbol form.
 */
function addressProblems(problems: Map<string, string>, b: Partial<QuoteRequestBody>): void {
  for (const field of ADDRESS_FIELDS) {
    const value = b[field];
    if (typeof value !== 'string') continue;
    if (problems.get(field) === TOKEN_PROBLEM && /^0x/i.test(value)) problems.set(field, ADDRESS_PROBLEM);
    else if (!problems.has(field) && ADDRESS.test(value) && !hasValidChecksum(value)) {
      problems.set(field, `${value} fails its EIP-55 checksum: check the address for a typo`);
    }
  }
}

/** What every request on a chain routes through unless it says otherwise: its DEX slugs, deployments, allowed hooks. */
interface ChainRouting {
  readonly slugs: ReadonlySet<string>;
  /** Every DEX deployment of the chain, in catalogue order (no includeDexes or excludeDexes). */
  readonly deployments: readonly DeploymentId[];
  /** The hooks the chain's catalogue allows, lower case. */
  readonly allowedHooks: readonly string[];
}

const routingByChain = new WeakMap<CatalogChain, ChainRouting>();

/** A chain's ChainRouting, made on its first request (the same for every request: catalogue data). */
function chainRouting(chain: CatalogChain): ChainRouting {
  let routing = routingByChain.get(chain);
  if (!routing) {
    routing = {
      slugs: new Set(chain.dexes.map((d) => d.slug)),
      deployments: Object.freeze(chain.dexes.map((d) => deploymentId(d.slug, d.version))),
      allowedHooks: Object.freeze(chain.dexes.flatMap((d) => d.allowedHooks.map((h) => h.toLowerCase()))),
    };
    routingByChain.set(chain, routing);
  }
  return routing;
}

/** Most tokens a "did you mean" names. */
const MAX_SUGGESTIONS = 5;

/** `SYMBOL (address)`: how a message names a candidate token (the full address: the one to send). */
const tokenName = (token: CatalogToken) => `${token.symbol} (${token.address})`;

/** The chain's tokens whose symbol is closest to an unknown one (any letter case, at most 1 edit for 1-3 characters, 2 beyond). */
function similarTokens(chain: CatalogChain, symbol: string): CatalogToken[] {
  const wanted = symbol.toUpperCase();
  let best = wanted.length <= 3 ? 1 : 2;
  let near: CatalogToken[] = [];
  for (const token of chain.tokens) {
    const distance = editDistance(token.symbol.toUpperCase(), wanted);
    if (distance > best) continue;
    if (distance < best) [best, near] = [distance, []];
    near.push(token);
  }
  return near.slice(0, MAX_SUGGESTIONS);
}

/**
 * The catalogue token a token field names on its (valid) chain, by address or by symbol (Catalog.tokensBySymbol); a
 * problem for the field when the chain has no such token (with the closest symbols) or several with that symbol.
 */
function requestToken(
  catalog: Catalog,
  problems: Map<string, string>,
  b: Partial<QuoteRequestBody>,
  field: 'tokenIn' | 'tokenOut',
  chain: CatalogChain | undefined,
): CatalogToken | undefined {
  if (!present(problems, b, field) || !chain) return undefined;
  const value = b[field] as string;
  const where = `chain ${chain.slug} (${chain.chainId})`;
  if (ADDRESS.test(value)) {
    const found = catalog.token(chain.chainId, value);
    if (!found) problems.set(field, `${value} is not a token of ${where}`);
    return found;
  }
  const named = catalog.tokensBySymbol(chain.chainId, value);
  if (named.length === 1) return named[0];
  const symbol = JSON.stringify(value);
  if (named.length > 1) {
    problems.set(
      field,
      `${symbol} is the symbol of ${named.length} tokens of ${where}: ${named.map(tokenName).join(', ')}; send the address of the one you mean`,
    );
    return undefined;
  }
  const near = similarTokens(chain, value).map(tokenName);
  const guess =
    near.length === 0 ? '' : `: did you mean ${near.length === 1 ? near[0] : `${near.slice(0, -1).join(', ')} or ${near.at(-1)}`}?`;
  problems.set(field, `${symbol} is not a token of ${where}${guess}`);
  return undefined;
}

/**
 * Validates a quote request body against the schema and the catalogue. Every problem is reported at
 * once: `<field>: <problem>` entries sorted by field name, joined by `; ` (SPEC section 7 rule 1).
 */
export function parseQuoteRequest(body: unknown, catalog: Catalog, defaultSlippageBps: number): QuoteRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ValidationError('request body must be a JSON object');
  }
  const problems = new Map<string, string>();
  const validate = validateShape();
  if (!validate(body)) {
    let unknown = 0;
    for (const error of validate.errors ?? []) {
      if (error.keyword === 'additionalProperties' && ++unknown > MAX_UNKNOWN_NAMED) continue;
      const [field, text] = shapeMessage(error);
      if (!problems.has(field)) problems.set(field, text);
    }
    if (unknown > MAX_UNKNOWN_NAMED) problems.set('body', `${unknown - MAX_UNKNOWN_NAMED} more unknown fields`);
  }
  const b = body as Partial<QuoteRequestBody>;
  addressProblems(problems, b);

  const origin = present(problems, b, 'originChainId') ? catalog.chain(b.originChainId!) : undefined;
  const destination = present(problems, b, 'destinationChainId') ? catalog.chain(b.destinationChainId!) : undefined;
  if (present(problems, b, 'originChainId')) {
    const p = chainProblem(origin, b.originChainId!);
    if (p) problems.set('originChainId', p);
  }
  if (present(problems, b, 'destinationChainId')) {
    const p = chainProblem(destination, b.destinationChainId!);
    if (p) problems.set('destinationChainId', p);
  }
  const tokenIn = requestToken(catalog, problems, b, 'tokenIn', problems.has('originChainId') ? undefined : origin);
  const tokenOut = requestToken(catalog, problems, b, 'tokenOut', problems.has('destinationChainId') ? undefined : destination);
  if (tokenIn && tokenOut && origin === destination && tokenIn.address === tokenOut.address) {
    problems.set('tokenOut', 'must differ from tokenIn');
  }
  if (Object.is(b.slippageBps, -0)) problems.set('slippageBps', 'must be between 0 and 5000 (negative zero is not accepted)');
  if (Object.is(b.maxPriceImpactBps, -0)) problems.set('maxPriceImpactBps', 'must be between 0 and 10000 (negative zero is not accepted)');
  for (const [field, type] of [
    ['walletAddress', 'a string'],
    ['sender', 'a string'],
    ['maxHops', 'an integer'],
    ['maxSplits', 'an integer'],
    ['gasPriceWei', 'a string'],
    ['includeDexes', 'an array'],
    ['excludeDexes', 'an array'],
    ['maxPriceImpactBps', 'an integer'],
    ['simulate', 'a boolean'],
  ] as const) {
    if (b[field] === null) problems.set(field, `must be ${type}`);
  }
  if (b.tradeType === null) problems.set('tradeType', TRADE_TYPE_PROBLEM);
  if (b.approvalMode === null) problems.set('approvalMode', APPROVAL_MODE_PROBLEM);
  // Options a cross-chain quote does not take: one message for each.
  const crossChain = origin !== undefined && destination !== undefined && origin.chainId !== destination.chainId;
  const sameChainOnly = (what?: string): string =>
    `${what ? `${what} ` : ''}is same-chain only: originChainId and destinationChainId must be equal`;
  if (b.approvalMode === 'permit2' && crossChain) problems.set('approvalMode', sameChainOnly('"permit2"'));
  if (b.hooks === null) problems.set('hooks', HOOKS_PROBLEM);
  if (b.slippageBps === null) problems.set('slippageBps', SLIPPAGE_PROBLEM);
  if (b.slippageBps === 'auto' && crossChain) problems.set('slippageBps', sameChainOnly('"auto"'));
  const tradeType: TradeType | undefined = present(problems, b, 'tradeType')
    ? b.tradeType!
    : problems.has('tradeType')
      ? undefined
      : 'exactIn';
  if (tradeType === 'exactOut' && crossChain) problems.set('tradeType', sameChainOnly('exact output ("exactOut")'));
  if (present(problems, b, 'sender') && present(problems, b, 'walletAddress') && b.sender!.toLowerCase() !== b.walletAddress!.toLowerCase())
    problems.set('sender', 'must equal walletAddress when both are sent (both name the wallet that sends the steps)');
  if (b.simulate === true && !present(problems, b, 'sender') && !problems.has('sender'))
    problems.set('sender', 'is required with simulate (the wallet the steps are simulated from)');
  if (b.approvalMode === 'permit2' && !problems.has('approvalMode') && !present(problems, b, 'sender') && !problems.has('sender'))
    problems.set('sender', 'is required with approvalMode "permit2" (the wallet that signs the permit and sends the swap)');
  if (b.simulate === true && crossChain) problems.set('simulate', sameChainOnly());
  let deployments: readonly DeploymentId[] = [];
  if (origin && !problems.has('originChainId')) {
    const { slugs } = chainRouting(origin);
    for (const field of ['includeDexes', 'excludeDexes'] as const) {
      if (!present(problems, b, field)) continue;
      const unknown = b[field]!.filter((slug) => !slugs.has(slug));
      if (unknown.length > 0)
        problems.set(
          field,
          `${unknown.map((u) => JSON.stringify(u)).join(', ')} ${unknown.length === 1 ? 'is not a DEX' : 'are not DEXes'} of ${origin.slug} (${origin.chainId})`,
        );
    }
    const include = present(problems, b, 'includeDexes') ? new Set(b.includeDexes) : undefined;
    const exclude = new Set(present(problems, b, 'excludeDexes') ? b.excludeDexes : []);
    deployments =
      !include && exclude.size === 0
        ? chainRouting(origin).deployments
        : origin.dexes.filter((d) => (!include || include.has(d.slug)) && !exclude.has(d.slug)).map((d) => deploymentId(d.slug, d.version));
    if (deployments.length === 0 && !problems.has('includeDexes') && !problems.has('excludeDexes')) {
      problems.set(include ? 'includeDexes' : 'excludeDexes', `leaves no DEX of ${origin.slug} (${origin.chainId}) to route through`);
    }
  }
  let amount: bigint | undefined;
  if (present(problems, b, 'amount')) {
    // The amount is tokenIn's (exactIn) or tokenOut's (exactOut). Without a known token (or trade type) only the form
    // can be checked: the decimals are the token's.
    const fixed = tradeType === 'exactIn' ? tokenIn : tradeType === 'exactOut' ? tokenOut : undefined;
    const parsed = fixed ? parseAmount(b.amount!, fixed.decimals) : amountFormProblem(b.amount!);
    if (typeof parsed === 'string') problems.set('amount', parsed);
    else if (typeof parsed === 'bigint') amount = parsed;
  }
  if (problems.size > 0) {
    const message = [...problems.entries()]
      .sort(([a], [z]) => (a < z ? -1 : a > z ? 1 : 0))
      .map(([field, text]) => `${field}: ${text}`)
      .join('; ');
    throw new ValidationError(message);
  }
  const recipient = b.recipientAddress!;
  return {
    originChain: origin!,
    destinationChain: destination!,
    tokenIn: tokenIn!,
    tokenOut: tokenOut!,
    tradeType: tradeType!,
    amount: amount!,
    slippageBps: b.slippageBps ?? defaultSlippageBps,
    recipientAddress: checksumAddress(recipient),
    walletAddress: checksumAddress(b.walletAddress ?? b.sender ?? recipient),
    ...(b.sender === undefined ? {} : { sender: checksumAddress(b.sender) }),
    limits: {
      maxHops: b.maxHops ?? ROUTING_BOUNDS.maxHops.default,
      maxSplits: b.maxSplits ?? ROUTING_BOUNDS.maxSplits.default,
      gasPriceWei: b.gasPriceWei === undefined ? undefined : BigInt(b.gasPriceWei),
      deployments,
      hooks: b.hooks ?? HOOKS_OPTIONS[0],
      allowedHooks: chainRouting(origin!).allowedHooks,
      // A path of consecutive steps (same chain, approvalMode "approve") hands over at the request's slippage ("auto" is
      // chosen from the trade: the default there).
      ...(crossChain || b.approvalMode === 'permit2'
        ? {}
        : { handoverSlippageBps: typeof b.slippageBps === 'number' ? b.slippageBps : defaultSlippageBps }),
    },
    maxPriceImpactBps: b.maxPriceImpactBps ?? DEFAULT_MAX_PRICE_IMPACT_BPS,
    simulate: b.simulate === true,
    approvalMode: b.approvalMode ?? 'approve',
    body: b as QuoteRequestBody,
  };
}
