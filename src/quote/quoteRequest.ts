import { Ajv, type ErrorObject, type JSONSchemaType } from 'ajv';
import { getAddress, isAddress } from 'viem';
import type { Catalog, CatalogChain, CatalogToken } from '../catalog/loadCatalog.ts';
import { ValidationError } from '../errors/BaseError.ts';

/** Body of POST /quotes and POST /quotes/routes (SPEC section 2, Quote request). */
export interface QuoteRequestBody {
  originChainId: number;
  destinationChainId: number;
  tokenIn: string;
  tokenOut: string;
  amount: string;
  recipientAddress: string;
  slippageBps?: number;
  walletAddress?: string;
  /** Routing extensions (README, "Routing"). */
  maxHops?: number;
  maxSplits?: number;
  gasPriceWei?: string;
  includeDexes?: string[];
  excludeDexes?: string[];
}

/** Defaults of the routing extensions. */
export const DEFAULT_MAX_HOPS = 3;
export const DEFAULT_MAX_SPLITS = 5;

/** The one schema of the quote request: the source of validation; QuoteRequestBody mirrors it. */
export const quoteRequestSchema: JSONSchemaType<QuoteRequestBody> = {
  type: 'object',
  required: ['originChainId', 'destinationChainId', 'tokenIn', 'tokenOut', 'amount', 'recipientAddress'],
  properties: {
    originChainId: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
    destinationChainId: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
    tokenIn: { type: 'string', maxLength: 128 },
    tokenOut: { type: 'string', maxLength: 128 },
    amount: { type: 'string', maxLength: 100 },
    recipientAddress: { type: 'string', maxLength: 128 },
    slippageBps: { type: 'integer', minimum: 0, maximum: 5000, nullable: true },
    walletAddress: { type: 'string', maxLength: 128, nullable: true },
    maxHops: { type: 'integer', minimum: 1, maximum: 3, nullable: true },
    maxSplits: { type: 'integer', minimum: 1, maximum: 7, nullable: true },
    gasPriceWei: { type: 'string', maxLength: 78, pattern: '^(0|[1-9][0-9]*)$', nullable: true },
    includeDexes: { type: 'array', items: { type: 'string', maxLength: 64 }, maxItems: 32, nullable: true },
    excludeDexes: { type: 'array', items: { type: 'string', maxLength: 64 }, maxItems: 32, nullable: true },
  },
  additionalProperties: true,
};

const validateShape = new Ajv({ allErrors: true, strict: false }).compile(quoteRequestSchema);

/** A validated quote request with its catalogue objects and integer amount. */
export interface QuoteRequest {
  readonly originChain: CatalogChain;
  readonly destinationChain: CatalogChain;
  readonly tokenIn: CatalogToken;
  readonly tokenOut: CatalogToken;
  /** Input amount in tokenIn's smallest unit. */
  readonly amountIn: bigint;
  readonly slippageBps: number;
  readonly recipientAddress: string;
  /** Sender of the steps; defaults to recipientAddress. */
  readonly walletAddress: string;
  readonly maxHops: number;
  readonly maxSplits: number;
  /** Gas price to rank by; undefined: the one recorded with the chain's pool state. */
  readonly gasPriceWei: bigint | undefined;
  /** DEX deployments (`slug/version`) of the origin chain whose pools may be used, after include/exclude. */
  readonly deployments: readonly string[];
}

const AMOUNT = /^(0|[1-9]\d*)(\.\d+)?$/;

/** Range messages of the bounded integer fields. */
const RANGES: Record<string, string> = {
  slippageBps: 'must be between 0 and 5000',
  maxHops: 'must be between 1 and 3',
  maxSplits: 'must be between 1 and 7',
};

function shapeMessage(error: ErrorObject): [string, string] {
  if (error.keyword === 'required') return [String(error.params.missingProperty), 'is required'];
  // An array item's problem is reported on the array field.
  const field = error.instancePath.slice(1).replace(/\/.*$/, '') || 'body';
  switch (error.keyword) {
    case 'type':
      return [field, error.params.type === 'integer' ? 'must be an integer' : error.params.type === 'array' ? 'must be an array' : `must be a ${String(error.params.type)}`];
    case 'minimum':
    case 'maximum':
      if (field in RANGES) return [field, RANGES[field]!];
      return [field, 'must be a positive integer'];
    case 'maxLength':
      return [field, `must be at most ${String(error.params.limit)} characters`];
    case 'maxItems':
      return [field, `must list at most ${String(error.params.limit)} DEX slugs`];
    case 'pattern':
      return [field, 'must be a non-negative integer string of wei, such as "1000000000"'];
    default:
      return [field, error.message ?? 'is invalid'];
  }
}

/** Checks the form of a display amount (positive decimal, no sign, exponent or spaces); undefined when fine. */
export function amountFormProblem(amount: string): string | undefined {
  if (!AMOUNT.test(amount)) return 'must be a positive decimal string such as "1.5" (no sign, exponent or spaces)';
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
  if (chain.ecosystem !== 'evm' || chain.dexes.length === 0) return `chain ${chain.slug} (${chain.chainId}) has no DEX and cannot be quoted`;
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
  if (!validateShape(body)) {
    for (const error of validateShape.errors ?? []) {
      const [field, text] = shapeMessage(error);
      if (!problems.has(field)) problems.set(field, text);
    }
  }
  const b = body as Partial<QuoteRequestBody>;
  const ok = (field: keyof QuoteRequestBody): boolean => !problems.has(field) && b[field] !== undefined;

  const origin = ok('originChainId') ? catalog.chain(b.originChainId!) : undefined;
  const destination = ok('destinationChainId') ? catalog.chain(b.destinationChainId!) : undefined;
  if (ok('originChainId')) {
    const p = chainProblem(origin, b.originChainId!);
    if (p) problems.set('originChainId', p);
  }
  if (ok('destinationChainId')) {
    const p = chainProblem(destination, b.destinationChainId!);
    if (p) problems.set('destinationChainId', p);
  }
  const token = (field: 'tokenIn' | 'tokenOut', chain: CatalogChain | undefined, chainOk: boolean): CatalogToken | undefined => {
    if (!ok(field)) return undefined;
    const address = b[field]!;
    if (!isAddress(address, { strict: false })) {
      problems.set(field, 'must be a valid EVM address (0x followed by 40 hex digits)');
      return undefined;
    }
    if (!chain || !chainOk) return undefined;
    const found = catalog.token(chain.chainId, address);
    if (!found) problems.set(field, `${address} is not a token of chain ${chain.slug} (${chain.chainId})`);
    return found;
  };
  const tokenIn = token('tokenIn', origin, !problems.has('originChainId'));
  const tokenOut = token('tokenOut', destination, !problems.has('destinationChainId'));
  if (tokenIn && tokenOut && origin === destination && tokenIn.address === tokenOut.address) {
    problems.set('tokenOut', 'must differ from tokenIn');
  }
  for (const field of ['recipientAddress', 'walletAddress'] as const) {
    if (ok(field) && !isAddress(b[field]!, { strict: false })) {
      problems.set(field, 'must be a valid EVM address (0x followed by 40 hex digits)');
    }
  }
  if (Object.is(b.slippageBps, -0)) problems.set('slippageBps', 'must be between 0 and 5000 (negative zero is not accepted)');
  for (const [field, type] of [
    ['slippageBps', 'an integer'],
    ['walletAddress', 'a string'],
    ['maxHops', 'an integer'],
    ['maxSplits', 'an integer'],
    ['gasPriceWei', 'a string'],
    ['includeDexes', 'an array'],
    ['excludeDexes', 'an array'],
  ] as const) {
    if (b[field] === null) problems.set(field, `must be ${type}`);
  }
  let deployments: string[] = [];
  if (origin && !problems.has('originChainId')) {
    const slugs = new Set(origin.dexes.map((d) => d.slug));
    for (const field of ['includeDexes', 'excludeDexes'] as const) {
      if (!ok(field)) continue;
      const unknown = b[field]!.filter((slug) => !slugs.has(slug));
      if (unknown.length > 0) problems.set(field, `${unknown.map((u) => JSON.stringify(u)).join(', ')} ${unknown.length === 1 ? 'is not a DEX' : 'are not DEXes'} of ${origin.slug} (${origin.chainId})`);
    }
    const include = ok('includeDexes') ? new Set(b.includeDexes) : undefined;
    const exclude = new Set(ok('excludeDexes') ? b.excludeDexes : []);
    deployments = origin.dexes.filter((d) => (!include || include.has(d.slug)) && !exclude.has(d.slug)).map((d) => `${d.slug}/${d.version}`);
    if (deployments.length === 0 && !problems.has('includeDexes') && !problems.has('excludeDexes')) {
      problems.set(include ? 'includeDexes' : 'excludeDexes', `leaves no DEX of ${origin.slug} (${origin.chainId}) to route through`);
    }
  }
  let amountIn: bigint | undefined;
  if (ok('amount')) {
    // Without a known token only the form can be checked: the decimals are the token's.
    const parsed = tokenIn ? parseAmount(b.amount!, tokenIn.decimals) : amountFormProblem(b.amount!);
    if (typeof parsed === 'string') problems.set('amount', parsed);
    else if (typeof parsed === 'bigint') amountIn = parsed;
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
    amountIn: amountIn!,
    slippageBps: b.slippageBps ?? defaultSlippageBps,
    recipientAddress: checksum(recipient),
    walletAddress: checksum(b.walletAddress ?? recipient),
    maxHops: b.maxHops ?? DEFAULT_MAX_HOPS,
    maxSplits: b.maxSplits ?? DEFAULT_MAX_SPLITS,
    gasPriceWei: b.gasPriceWei === undefined ? undefined : BigInt(b.gasPriceWei),
    deployments,
  };
}

const checksummed = new Map<string, string>();
const CHECKSUM_CACHE_SIZE = 10_000;

/**
 * Checksums an address that isAddress accepted in any letter case. EIP-55 costs a keccak256 (about
 * 10 µs), and wallets send the same few addresses again and again, so results are cached (bounded).
 */
function checksum(address: string): string {
  const lower = address.toLowerCase();
  let result = checksummed.get(lower);
  if (result === undefined) {
    result = getAddress(lower);
    if (checksummed.size >= CHECKSUM_CACHE_SIZE) checksummed.clear();
    checksummed.set(lower, result);
  }
  return result;
}
