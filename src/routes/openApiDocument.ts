/**
 * The OpenAPI 3.1 description of the service as implemented (served at GET /openapi.json). Response
 * schemas are closed (`additionalProperties: false`), so test/routes/openapi.test.ts catches any field
 * a response has and this document lacks. Keep it beside the code: a change of a response shape
 * changes this file in the same commit.
 */

type Schema = Record<string, unknown>;

const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const str = (description?: string, extra: Schema = {}): Schema => ({ type: 'string', ...(description ? { description } : {}), ...extra });
const int = (description?: string, extra: Schema = {}): Schema => ({ type: 'integer', ...(description ? { description } : {}), ...extra });
const intString = (description: string): Schema => str(description, { pattern: '^[0-9]+$' });

/** A closed object: every listed property required unless named in `optional`. */
function object(properties: Record<string, Schema>, optional: readonly string[] = [], description?: string): Schema {
  return {
    type: 'object',
    ...(description ? { description } : {}),
    required: Object.keys(properties).filter((k) => !optional.includes(k)),
    properties,
    additionalProperties: false,
  };
}

/** The success envelope around `data`. */
function envelope(data: Schema, message: string): Schema {
  return object({ code: { const: 200 }, message: str(`"${message}"`), data });
}

function json(schema: Schema, description: string, headers?: Record<string, unknown>): Schema {
  return { description, ...(headers ? { headers } : {}), content: { 'application/json': { schema } } };
}

const REQUEST_ID = { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } };
const ok = (data: Schema, message: string, description: string) => json(envelope(data, message), description, REQUEST_ID);
const error = (description: string) => ({ $ref: `#/components/responses/${description}` });

const errors = {
  400: error('BadRequest'),
  401: error('Unauthorized'),
  404: error('NotFound'),
  413: error('PayloadTooLarge'),
  415: error('UnsupportedMediaType'),
  429: error('RateLimited'),
  500: error('InternalError'),
  503: error('ServiceUnavailable'),
};
const pick = (...codes: (keyof typeof errors)[]) => Object.fromEntries(codes.map((c) => [String(c), errors[c]]));

const chainIdQuery = (required: boolean, description: string) => ({
  name: 'chainId',
  in: 'query',
  required,
  description: `${description} A positive integer of at most 16 digits (no sign, exponent or leading zero); anything else is 400 "chainId: must be a positive integer".`,
  schema: { type: 'string', pattern: '^[1-9][0-9]{0,15}$' },
});

const quoteBody = {
  required: true,
  description: 'A JSON object (Content-Type: application/json, at most BODY_LIMIT_BYTES, default 65536). Unknown fields are ignored. Every problem is reported at once: `<field>: <problem>` sorted by field, joined by "; ".',
  content: { 'application/json': { schema: ref('QuoteRequest') } },
};

const schemas: Record<string, Schema> = {
  Error: object({ code: int('Equals the HTTP status.', { minimum: 400, maximum: 599 }), message: str('Why the request failed. Generic for 5xx except 503.') }, [], 'The error envelope: no `data`.'),
  Token: object({
    address: str('Contract address, checksummed on EVM chains; 0xEeee…EEeE for the native asset.'),
    symbol: str(),
    name: str(),
    slug: str(),
    decimals: int(undefined, { minimum: 0, maximum: 255 }),
    logo: str(),
    blockchainId: int('Chain id the token belongs to.'),
  }),
  Chain: object({
    name: str(),
    slug: str(),
    chainId: int(),
    symbol: str(),
    nativeToken: str(),
    ecosystem: { type: 'string', enum: ['evm', 'tvm', 'svm'] },
    blockExplorer: str(),
    rpcUrl: { const: '', description: 'Always empty.' },
    blockChainLogo: str(),
    tokens: { type: 'array', items: ref('Token') },
  }),
  Dex: object({
    chainId: int('Extension: the chain of this deployment.'),
    name: str(),
    slug: str('Unique within a chain.'),
    version: { type: 'string', enum: ['v2', 'v3'] },
    v2FactoryAddress: str('"" when not applicable.'),
    v2RouterAddress: str(),
    v3FactoryAddress: str(),
    v3RouterAddress: str(),
    v3QuoterAddress: str(),
    universalRouterAddress: str(),
    permit2Address: str(),
    settlementAddress: str(),
    feeBps: int('Extension: v2 swap fee in basis points; 0 for v3.', { minimum: 0 }),
    feeTiers: { type: 'array', items: int(undefined, { minimum: 0 }), description: 'Extension: v3 fee tiers in pips; [] for v2.' },
  }),
  Pool: object({
    name: str(),
    symbol: str('BASE/QUOTE symbols.'),
    dexName: str(),
    dexSlug: str('Extension.'),
    version: { type: 'string', enum: ['v2', 'v3'], description: 'Extension.' },
    pairAddress: str(),
    poolType: { type: 'string', enum: ['v2', 'v3'] },
    poolFee: int('Fee in pips (3000 = 0.3%).', { minimum: 0 }),
    tickSpacing: int('0 for v2.'),
    isActivePool: { type: 'boolean' },
    marketCap: str('Always "" (not computed).'),
    baseToken: ref('Token'),
    baseTokenAddress: str('token0.'),
    baseTokenBalance: intString('balanceOf(pool) of token0 at the snapshot block, smallest units.'),
    quoteToken: ref('Token'),
    quoteTokenAddress: str('token1.'),
    quoteTokenBalance: intString('balanceOf(pool) of token1, smallest units.'),
    liquidity: object({ baseTokenBalance: str('Display units.'), quoteTokenBalance: str('Display units.') }),
    liquidityInUsd: object({ baseTokenBalance: str('USD with 2 decimals, or "" when unknown.'), quoteTokenBalance: str(), totalPoolBalance: str() }),
  }),
  QuoteRequest: {
    type: 'object',
    required: ['originChainId', 'destinationChainId', 'tokenIn', 'tokenOut', 'amount', 'recipientAddress'],
    properties: {
      originChainId: int('Chain of tokenIn.', { minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
      destinationChainId: int('Chain of tokenOut. POST /quotes: a different chain gets a bridge quote; POST /quotes/routes: must equal originChainId.', { minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
      tokenIn: str('Token address of the origin chain, any letter case.', { maxLength: 128 }),
      tokenOut: str('Token address of the destination chain.', { maxLength: 128 }),
      amount: str('Positive decimal in display units of tokenIn ("1.5"): no sign, exponent, spaces or more decimals than the token has.', { maxLength: 100, pattern: '^(0|[1-9][0-9]*)(\\.[0-9]+)?$' }),
      recipientAddress: str('EVM address receiving tokenOut.', { maxLength: 128 }),
      slippageBps: int('Default DEFAULT_SLIPPAGE_BPS (50).', { minimum: 0, maximum: 5000 }),
      walletAddress: str('Extension: sender of the steps; defaults to recipientAddress.', { maxLength: 128 }),
      maxHops: int('Extension: most pools in one path (default 3).', { minimum: 1, maximum: 3 }),
      maxSplits: int('Extension: most paths in one trade (default 5).', { minimum: 1, maximum: 7 }),
      gasPriceWei: str('Extension: gas price to rank trades by, wei; "0" ranks by gross output. Default: the gas price recorded with the snapshot.', { maxLength: 78, pattern: '^(0|[1-9][0-9]*)$' }),
      includeDexes: { type: 'array', items: str(undefined, { maxLength: 64 }), maxItems: 32, description: 'Extension: only these DEX slugs of the origin chain.' },
      excludeDexes: { type: 'array', items: str(undefined, { maxLength: 64 }), maxItems: 32, description: 'Extension: not these DEX slugs of the origin chain.' },
    },
    additionalProperties: true,
  },
  Hop: object({
    dex: str('DEX slug, or "wrap" for a wrap/unwrap of the native asset.'),
    version: { type: 'string', enum: ['v2', 'v3', ''] },
    pool: str('Pool address (the wrapped native token for a wrap/unwrap).'),
    fee: int('Pips.', { minimum: 0 }),
    tokenIn: str(),
    tokenOut: str(),
    amountIn: intString('Smallest units of the hop\'s tokenIn.'),
    amountOut: intString('Smallest units of the hop\'s tokenOut.'),
  }),
  Path: object({
    percent: int('Whole percent of the amount sent along this path.', { minimum: 1, maximum: 100 }),
    amountIn: intString('Smallest units of tokenIn.'),
    amountOut: intString('Smallest units of tokenOut.'),
    hops: { type: 'array', items: ref('Hop'), minItems: 1 },
  }),
  NetworkFee: object({
    wei: intString('gasEstimate × gasPriceWei.'),
    inTokenOut: { oneOf: [intString('The fee in tokenOut\'s smallest units at the mid price.'), { type: 'null' }] },
  }),
  Route: object({
    dex: str('DEX slug, or "wrap" for a wrap/unwrap of the native asset.'),
    name: str(),
    fees: intString('Fee paid, smallest units of tokenIn.'),
    logo: str(),
    version: { type: 'string', enum: ['v2', 'v3', ''], description: 'Extension: DEX version ("" for wrap/unwrap).' },
    poolFee: int('Extension: pool fee in pips (0 for wrap/unwrap).', { minimum: 0 }),
  }),
  SnapshotInfo: {
    description: 'Extension: the pool-state snapshot the price comes from; null when the chain has none.',
    oneOf: [
      object({ blockNumber: int(undefined, { minimum: 0 }), blockTimestamp: int('Unix seconds.', { minimum: 0 }), ageSeconds: int('Seconds between the block and the quote.', { minimum: 0 }) }),
      { type: 'null' },
    ],
  },
  RouteQuote: object({
    amountIn: intString('Smallest units of tokenIn.'),
    amountOut: intString('Smallest units of tokenOut.'),
    amountOutMinimum: intString('floor(amountOut × (10000 − slippageBps) / 10000).'),
    deadline: int('Unix seconds, five minutes after pricing.'),
    slippageBps: int(undefined, { minimum: 0, maximum: 5000 }),
    route: ref('Route'),
    tokenIn: ref('Token'),
    tokenOut: ref('Token'),
    pairAddress: str('Extension: the first pool of the largest split (the wrapped native token for wrap/unwrap).'),
    snapshot: ref('SnapshotInfo'),
    paths: { type: 'array', items: ref('Path'), minItems: 1, description: 'Extension: one entry per split, largest first.' },
    gasEstimate: intString('Extension: gas units of every step.'),
    gasPriceWei: intString('Extension: the gas price the trade was ranked with.'),
    networkFee: ref('NetworkFee'),
    priceImpactBps: int('Extension: execution price against the fee-free mid price along the paths, basis points.'),
  }),
  Step: object(
    {
      message: str('Label, e.g. "Approve 1.5 USDC" or "Swap 1.5 USDC for WETH on Uniswap V3".'),
      from: str('Wallet that sends the transaction.'),
      to: str('Contract called.'),
      data: str('Calldata, hex.', { pattern: '^0x[0-9a-fA-F]*$' }),
      amount: intString('What the step spends, approves or moves, smallest units.'),
      chainId: int(),
      spender: str('Approval steps only.'),
      value: intString('Wei to attach; only on steps that send the native asset.'),
      gasLimit: intString('Extension: gas limit to send the step with (the gas model\'s estimate of the step plus 25% and 50,000); absent on the Across deposit.'),
    },
    ['spender', 'value', 'gasLimit'],
  ),
  Quote: object({
    quoteId: str('UUID.', { format: 'uuid' }),
    status: { const: 'pending' },
    amountIn: intString('Smallest units of tokenIn.'),
    amountInFloat: str('Display units.'),
    amountOut: intString('Smallest units of tokenOut.'),
    amountOutFloat: str('Display units; for display only.'),
    amountOutMinimum: intString('Enforced in the swap calldata.'),
    slippageBps: int(undefined, { minimum: 0, maximum: 5000 }),
    deadline: int('Unix seconds, five minutes after creation.'),
    originChain: str('Chain slug.'),
    originChainId: int(),
    destinationChain: str('Chain slug.'),
    destinationChainId: int(),
    tokenIn: ref('Token'),
    tokenOut: ref('Token'),
    recipientAddress: str('Checksummed.'),
    walletAddress: str('Checksummed; sender of every step.'),
    pairAddress: str('The pool priced.'),
    hash: str('Always "" (the service never sends transactions).'),
    explorerUrl: str('Always "".'),
    createdAt: str('ISO 8601.', { format: 'date-time' }),
    updatedAt: str('ISO 8601.', { format: 'date-time' }),
    route: ref('Route'),
    steps: { type: 'array', items: ref('Step') },
    snapshot: ref('SnapshotInfo'),
    expectedFillTimeSeconds: int('Extension, cross-chain quotes only: expected seconds from the deposit to the fill.', { minimum: 0 }),
    bridge: ref('QuoteBridge'),
    fees: ref('QuoteFees'),
    paths: { type: 'array', items: ref('Path'), minItems: 1, description: 'Extension: one entry per split, largest first.' },
    gasEstimate: intString('Extension: gas units of every step.'),
    gasPriceWei: intString('Extension: the gas price the trade was ranked with.'),
    networkFee: ref('NetworkFee'),
    priceImpactBps: int('Extension: execution price against the fee-free mid price along the paths, basis points.'),
  }, ['expectedFillTimeSeconds', 'bridge', 'fees', 'paths', 'gasEstimate', 'gasPriceWei', 'networkFee', 'priceImpactBps'], 'A saved quote. Cross-chain quotes (originChainId ≠ destinationChainId) also carry expectedFillTimeSeconds, bridge and fees; their route is the bridge.'),
  QuoteSwapLeg: object({
    chainId: int(),
    dex: str('DEX slug, or "wrap".'),
    name: str(),
    version: { type: 'string', enum: ['v2', 'v3', ''] },
    poolFee: int('Pips; 0 for a wrap.', { minimum: 0 }),
    pool: str('The first pool of the largest split ("" for a wrap).'),
    paths: { type: 'array', items: ref('Path'), description: 'Every split with its hops (empty for a wrap).' },
    tokenIn: ref('Token'),
    tokenOut: ref('Token'),
    amountIn: intString('Smallest units.'),
    amountOut: intString('Smallest units.'),
    amountOutMinimum: intString('Smallest units.'),
    deadline: int('The leg\'s on-chain deadline, Unix seconds.'),
  }, [], 'Extension: one swap (or wrap) leg of a cross-chain quote.'),
  QuoteBridge: object({
    protocol: { const: 'across' },
    name: str(),
    slug: str(),
    asset: str('Shared asset key bridged (USDC, ETH, ...).'),
    originSpokePool: str(),
    destinationSpokePool: str(),
    inputToken: ref('Token'),
    outputToken: ref('Token'),
    inputAmount: intString('The deposit\'s inputAmount.'),
    outputAmount: intString('The deposit\'s outputAmount: what the relayer fills.'),
    fillRecipient: str(),
    fillDeadlineOffsetSeconds: int(undefined, { minimum: 0 }),
    expectedFillTimeSeconds: int(undefined, { minimum: 0 }),
    originSwap: { oneOf: [ref('QuoteSwapLeg'), { type: 'null' }] },
    destinationSwap: { oneOf: [ref('QuoteSwapLeg'), { type: 'null' }] },
  }, [], 'Extension: the bridge transfer of a cross-chain quote and the swap legs around it.'),
  QuoteFee: object({ token: ref('Token'), amount: intString('Smallest units of token.') }),
  QuoteFees: object({
    bridge: object({ token: ref('Token'), amount: intString('Smallest units of token.'), feeBps: int(undefined, { minimum: 0 }), fixedFee: str('Display units of token.') }),
    originSwap: { oneOf: [ref('QuoteFee'), { type: 'null' }] },
    destinationSwap: { oneOf: [ref('QuoteFee'), { type: 'null' }] },
  }, [], 'Extension: bridge fee and swap fees of a cross-chain quote.'),
  Health: object({ status: { const: 'ok' } }),
  Readiness: object({
    status: { const: 'ready' },
    checks: {
      type: 'object',
      description: 'catalog always; workers, quoteStore and apiKeyStore when the quote endpoints are served.',
      additionalProperties: object({ ok: { type: 'boolean' }, detail: str() }),
    },
  }),
};

const errorResponse = (description: string, headers?: Record<string, unknown>) => json(ref('Error'), description, { ...REQUEST_ID, ...(headers ?? {}) });

const rateLimitHeaders = {
  'RateLimit-Limit': { description: 'Requests allowed per window for this key or address (only when a limit applies).', schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'Requests left in the current window.', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Seconds until the window ends.', schema: { type: 'integer' } },
};

export const openApiDocument = {
  openapi: '3.1.0',
  info: {
    title: 'swap-quote-service',
    version: '0.1.0',
    summary: 'Catalogue of chains, tokens, DEXes and pools, and exact swap quotes with executable transaction steps.',
    description:
      'Every response except GET /metrics and GET /openapi.json is the envelope {code, message, data?}; `code` equals the HTTP status and `data` is absent on errors. ' +
      'Any request may be refused with 429 (rate limit, Retry-After header) when limits are configured, and with 413/400/415 for a body that is too large, malformed or not JSON.',
    license: { name: 'MIT', identifier: 'MIT' },
  },
  servers: [{ url: '/', description: 'This instance.' }],
  tags: [
    { name: 'catalogue', description: 'Public, from memory.' },
    { name: 'quotes', description: 'Pricing and saved quotes.' },
    { name: 'operations', description: 'Probes, metrics and this document.' },
  ],
  paths: {
    '/blockchains': {
      get: {
        tags: ['catalogue'],
        operationId: 'listBlockchains',
        summary: 'Chains with their tokens, by chainId.',
        parameters: [chainIdQuery(false, 'Only this chain.'), { name: 'slug', in: 'query', required: false, description: 'Only the chain with this slug.', schema: { type: 'string' } }],
        responses: { 200: ok({ type: 'array', items: ref('Chain') }, 'blockchains fetched successfully', 'The chains (empty when none matches).'), ...pick(400, 429, 500) },
      },
    },
    '/blockchains/tokens': {
      get: {
        tags: ['catalogue'],
        operationId: 'listTokens',
        summary: 'Tokens of one chain or of every chain.',
        parameters: [chainIdQuery(false, 'Only this chain\'s tokens.')],
        responses: { 200: ok({ type: 'array', items: ref('Token') }, 'tokens fetched successfully', 'The tokens.'), ...pick(400, 429, 500) },
      },
    },
    '/blockchains/dex': {
      get: {
        tags: ['catalogue'],
        operationId: 'listDexes',
        summary: 'DEX deployments, one entry per protocol version.',
        parameters: [chainIdQuery(false, 'Only this chain.'), { name: 'slug', in: 'query', required: false, description: 'Only this DEX slug.', schema: { type: 'string' } }],
        responses: { 200: ok({ type: 'array', items: ref('Dex') }, 'dexes fetched successfully', 'The deployments (always an array).'), ...pick(400, 429, 500) },
      },
    },
    '/blockchains/pools': {
      get: {
        tags: ['catalogue'],
        operationId: 'listPools',
        summary: 'Pools of a chain from the last snapshot.',
        parameters: [chainIdQuery(true, 'Required; missing is 400 "invalid chain id".'), { name: 'dex', in: 'query', required: false, description: 'Only this DEX slug.', schema: { type: 'string' } }],
        responses: {
          200: ok({ oneOf: [{ type: 'array', items: ref('Pool') }, { type: 'null' }] }, 'pools fetched successfully', 'The pools; data is null for an unknown chain, [] for a chain without a snapshot.'),
          ...pick(400, 429, 500),
        },
      },
    },
    '/quotes/routes': {
      post: {
        tags: ['quotes'],
        operationId: 'quoteRoutes',
        summary: 'Best route per DEX for a same-chain swap, best first. Nothing is saved.',
        description: 'No key needed; a key that is sent must be valid (401 otherwise) and then counts against the key\'s rate limit.',
        security: [{}, { bearerAuth: [] }, { apiKeyHeader: [] }],
        requestBody: quoteBody,
        responses: {
          200: ok({ type: 'array', items: ref('RouteQuote') }, 'routes fetched successfully', 'Route quotes sorted by amountOut, descending.'),
          ...pick(400, 401, 413, 415, 429, 500, 503),
        },
      },
    },
    '/quotes': {
      post: {
        tags: ['quotes'],
        operationId: 'createQuote',
        summary: 'Prices the best route (a bridge route across chains), builds its steps and saves the quote.',
        security: [{ bearerAuth: [] }, { apiKeyHeader: [] }],
        requestBody: quoteBody,
        responses: { 200: ok(ref('Quote'), 'quote created successfully', 'The saved quote.'), ...pick(400, 401, 413, 415, 429, 500, 503) },
      },
    },
    '/quotes/{quoteId}': {
      get: {
        tags: ['quotes'],
        operationId: 'getQuote',
        summary: 'A saved quote of the caller\'s organization (QUOTE_TTL_SECONDS after creation).',
        security: [{ bearerAuth: [] }, { apiKeyHeader: [] }],
        parameters: [{ name: 'quoteId', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { 200: ok(ref('Quote'), 'quote fetched successfully', 'The quote as created.'), ...pick(401, 404, 429, 500, 503) },
      },
    },
    '/healthz': {
      get: {
        tags: ['operations'],
        operationId: 'liveness',
        summary: 'Liveness: the process answers. Never rate limited.',
        responses: { 200: ok(ref('Health'), 'ok', 'Alive.') },
      },
    },
    '/readyz': {
      get: {
        tags: ['operations'],
        operationId: 'readiness',
        summary: 'Readiness: catalogue and snapshots loaded, a pricing worker answers, the quote and API-key stores answer. Never rate limited.',
        responses: {
          200: ok(ref('Readiness'), 'ready', 'Every check passed; each check\'s detail.'),
          503: errorResponse('Not ready: the message names each failing check ("not ready: quoteStore: quote store (redis) is unreachable").'),
        },
      },
    },
    '/metrics': {
      get: {
        tags: ['operations'],
        operationId: 'metrics',
        summary: 'Prometheus metrics (text exposition format, not the envelope). Never rate limited.',
        responses: { 200: { description: 'Metrics.', content: { 'text/plain': { schema: { type: 'string' } } } } },
      },
    },
    '/openapi.json': {
      get: {
        tags: ['operations'],
        operationId: 'openapi',
        summary: 'This document (not the envelope).',
        responses: { 200: { description: 'OpenAPI 3.1 document.', content: { 'application/json': { schema: { type: 'object' } } } }, ...pick(429) },
      },
    },
  },
  components: {
    schemas,
    headers: {
      'X-Request-Id': { description: 'The request id (echoed when the request sent a valid one: 1-64 of A-Z a-z 0-9 _ . -); also in the log line.', schema: { type: 'string' } },
    },
    responses: {
      BadRequest: errorResponse('Invalid request: validation problems listed in the message, quote unavailable (no pool, insufficient liquidity, amount too small), malformed JSON, a non-JSON body.'),
      Unauthorized: errorResponse('API key missing, malformed or invalid.', { 'WWW-Authenticate': { schema: { type: 'string' } } }),
      NotFound: errorResponse('No such quote for this organization (or expired), or an unknown path.'),
      PayloadTooLarge: errorResponse('Body larger than BODY_LIMIT_BYTES (default 65536).'),
      UnsupportedMediaType: errorResponse('Unsupported Content-Encoding or charset.'),
      RateLimited: errorResponse('Rate limit exceeded.', {
        'Retry-After': { description: 'Seconds until the limit resets.', schema: { type: 'integer', minimum: 1 } },
        ...rateLimitHeaders,
      }),
      InternalError: errorResponse('Unexpected failure; the message is generic and the detail is logged.'),
      ServiceUnavailable: errorResponse('A dependency cannot serve now (quote store, API-key store, pricing queue full, worker failure); retry.'),
    },
    securitySchemes: {
      bearerAuth: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API_KEY> (sqk_ followed by 43 base64url characters).' },
      apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'The bare key; if both headers are sent they must carry the same key.' },
    },
  },
} as const;
