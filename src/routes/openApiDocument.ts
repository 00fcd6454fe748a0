/**
 * The OpenAPI 3.1 description of the service as implemented (served at GET /openapi.json). What the service
 * validates is read from the schemas it validates with: the quote request from quoteRequest.ts, chain ids, addresses,
 * amounts and quote ids from http/formats.ts. Response schemas are closed (`additionalProperties: false`), so
 * test/routes/openapi.test.ts catches any field a response has and this document lacks. Keep it beside the code: a
 * change of a response shape changes this file in the same commit.
 */
import { CHAIN_ID_SCHEMA, EVM_ADDRESS_PATTERN, INTEGER_STRING_PATTERN, UUID_PATTERN, unanchored } from '../http/formats.ts';
import { AUTO_SLIPPAGE_BOUNDS } from '../quote/autoSlippage.ts';
import { quoteRequestSchema, TRADE_TYPES } from '../quote/quoteRequestSchema.ts';
import { HIGH_PRICE_IMPACT_BPS } from '../quote/quoteWarnings.ts';
import { ROUTES_RANKED_BY } from '../routing/compareNetOfGas.ts';

type Schema = Record<string, unknown>;

const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const str = (description?: string, extra: Schema = {}): Schema => ({ type: 'string', ...(description ? { description } : {}), ...extra });
const int = (description?: string, extra: Schema = {}): Schema => ({ type: 'integer', ...(description ? { description } : {}), ...extra });
const intString = (description: string): Schema => str(description, { pattern: INTEGER_STRING_PATTERN });
const address = (description?: string): Schema => str(description, { pattern: EVM_ADDRESS_PATTERN });
/** An EVM address, or "" where the field does not apply. */
const addressOrEmpty = (description: string): Schema => str(description, { pattern: `^(${unanchored(EVM_ADDRESS_PATTERN)})?$` });
/** A pool: its contract address, or for a Uniswap v4 pool (no contract of its own) its poolId, 32 bytes of lower-case hex. */
const POOL_PATTERN = `^(${unanchored(EVM_ADDRESS_PATTERN)}|0x[0-9a-f]{64})$`;
const pool = (description: string): Schema =>
  str(`${description} A v4 or Balancer v2 pool is named by its poolId (32 bytes, lower-case hex).`, { pattern: POOL_PATTERN });
/** Chain ids in responses: the same bounds as in requests. */
const chainId = (description?: string): Schema => int(description, { minimum: CHAIN_ID_SCHEMA.minimum, maximum: CHAIN_ID_SCHEMA.maximum });

/** A JSONSchemaType schema as OpenAPI 3.1 reads it: `nullable` (which only shapes the TypeScript type) dropped. */
function fromValidationSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(fromValidationSchema);
  if (typeof schema !== 'object' || schema === null) return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([k]) => k !== 'nullable')
      .map(([k, v]) => [k, fromValidationSchema(v)]),
  );
}

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

/** The success envelope around `data`, with an operation's documented extension fields between message and data. */
function envelope(data: Schema, message: string, fields: Record<string, Schema> = {}): Schema {
  return object({ code: { const: 200 }, message: str(`"${message}"`), ...fields, data });
}

function json(schema: Schema, description: string, headers?: Record<string, unknown>): Schema {
  return { description, ...(headers ? { headers } : {}), content: { 'application/json': { schema } } };
}

const REQUEST_ID = { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } };
const ok = (data: Schema, message: string, description: string, fields?: Record<string, Schema>) =>
  json(envelope(data, message, fields), description, REQUEST_ID);
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

const DEVNET = 31337;
const chainIdQuery = (required: boolean, description: string) => ({
  name: 'chainId',
  in: 'query',
  required,
  description: `${description} A positive integer up to 2^53 − 1, written in decimal without sign, exponent or leading zero; anything else, an empty value included, is 400 "chainId: must be a positive integer".`,
  schema: { ...CHAIN_ID_SCHEMA },
  example: DEVNET,
});
const slugQuery = (name: string, description: string, example: string) => ({
  name,
  in: 'query',
  required: false,
  description,
  schema: { type: 'string' },
  example,
});

/** Tokens of the shipped devnet snapshot (chains 31337 and 31338), for examples that work as shipped. */
const DEVNET_TOKENS = {
  ETH: '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE',
  WETH: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  USDC: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512',
  DAI: '0xDc64a140Aa3E981100a9becA4E685f962f0cF6C9',
};
const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const example = (summary: string, value: Record<string, unknown>) => ({
  summary,
  value: { originChainId: DEVNET, destinationChainId: DEVNET, ...value, recipientAddress: RECIPIENT },
});
const sameChainExamples = {
  ethToUsdc: example('1.5 ETH to USDC on the devnet', { tokenIn: DEVNET_TOKENS.ETH, tokenOut: DEVNET_TOKENS.USDC, amount: '1.5' }),
  usdcToDai: example('2,500 USDC to DAI by symbol, 1% slippage', {
    tokenIn: 'USDC',
    tokenOut: 'DAI',
    amount: '2500',
    slippageBps: 100,
  }),
  autoSlippage: example('1.5 ETH to USDC, the slippage bound chosen from the trade ("auto")', {
    tokenIn: DEVNET_TOKENS.ETH,
    tokenOut: DEVNET_TOKENS.USDC,
    amount: '1.5',
    slippageBps: 'auto',
  }),
};

const quoteBody = (examples: Record<string, unknown>) => ({
  required: true,
  description:
    'A JSON object (Content-Type: application/json, at most BODY_LIMIT_BYTES, default 65536). Unknown fields are refused, each named ("slipageBps: is not a field of the quote request (did you mean slippageBps?)"). Every problem is reported at once: `<field>: <problem>` sorted by field, joined by "; ".',
  content: { 'application/json': { schema: ref('QuoteRequest'), examples } },
});

/** Routing extensions (README, "Routing") of a route quote and of a quote; optional. */
const ROUTING_FIELDS = ['paths', 'gasEstimate', 'gasPriceWei', 'networkFee', 'priceImpactBps'];
function routingExtensions(): Record<string, Schema> {
  return {
    paths: {
      type: 'array',
      minItems: 1,
      items: ref('Path'),
      description: 'Routing extension: the splits of the amount, largest share first.',
    },
    gasEstimate: intString('Routing extension: gas units of every step.'),
    gasPriceWei: intString('Routing extension: the gas price routes were ranked by.'),
    networkFee: ref('NetworkFee'),
    priceImpactBps: int(
      'Routing extension: execution price against the fee-free mid price along the paths, fees included, in basis points.',
    ),
  };
}

const QUOTE_ID_PARAMETER = {
  name: 'quoteId',
  in: 'path',
  required: true,
  description: 'The quoteId POST /quotes returned; any other path under /quotes/ is 404 "not found: <METHOD> <path>".',
  schema: { type: 'string', format: 'uuid', pattern: UUID_PATTERN },
};

/** Operations anyone may call: no API key is read. */
const PUBLIC: readonly never[] = [];

const TRADE_TYPE: Schema = {
  type: 'string',
  enum: [...TRADE_TYPES],
  description: 'Extension: the request\'s tradeType ("exactIn" when it had none).',
};
const AMOUNT_IN_MAXIMUM =
  'Extension: the most the steps spend. exactIn: amountIn; exactOut: ceil(amountIn × (10000 + slippageBps) / 10000), enforced in the swap calldata.';
const AMOUNT_OUT_MINIMUM =
  'exactIn: floor(amountOut × (10000 − slippageBps) / 10000); exactOut: amountOut (delivered exactly). Enforced in the swap calldata.';

const SLIPPAGE_BPS = int('The slippage bound applied: the request\'s, or the one "auto" chose.', { minimum: 0, maximum: 5000 });
const SLIPPAGE_SOURCE: Schema = {
  type: 'string',
  enum: ['request', 'auto'],
  description: `Extension: "auto" when the request sent slippageBps "auto" (network fee over the output, at least the price impact, clamped to ${AUTO_SLIPPAGE_BOUNDS.minimum}–${AUTO_SLIPPAGE_BOUNDS.maximum} bps), else "request" (its value, or DEFAULT_SLIPPAGE_BPS when it sent none).`,
};
const signedIntString = (description: string): Schema => str(description, { pattern: '^-?(0|[1-9][0-9]*)$' });

const WARNINGS: Schema = {
  type: 'array',
  items: ref('QuoteWarning'),
  description: 'Extension: what a client should show beside the quote, e.g. a high price impact; empty when nothing.',
};

const schemas: Record<string, Schema> = {
  QuoteWarning: object(
    {
      code: {
        type: 'string',
        enum: ['HIGH_PRICE_IMPACT', 'PRICE_MOVED', 'ALLOWANCE_NOT_READ'],
        description: `Stable code. HIGH_PRICE_IMPACT: priceImpactBps above ${HIGH_PRICE_IMPACT_BPS} (5%) and within the request's maxPriceImpactBps. PRICE_MOVED (refreshed quotes): the new amountOut is below the refreshed quote's amountOutMinimum (exactOut: the new amountIn above its amountInMaximum), so that quote's transaction would revert: ask the user again. ALLOWANCE_NOT_READ (requests with a sender whose steps approve tokenIn): the sender's allowances were not read (no RPC_URL_<chainId>, or a node that could not be read; a cross-chain quote names the first chain it could not read), so those approval steps are the ones without a sender; the message says which. More codes may be added: show the message of a code you do not know.`,
      },
      message: str('For people, e.g. "price impact 13.04% is above 5%: …".'),
    },
    [],
    'Extension: a warning on a quote.',
  ),
  Error: object(
    {
      code: int('Equals the HTTP status.', { minimum: 400, maximum: 599 }),
      message: str('Why the request failed. Generic for 5xx except 503.'),
    },
    [],
    'The error envelope: no `data`.',
  ),
  Token: object(
    {
      address: str('Contract address, checksummed on EVM chains; 0xEeee…EEeE for the native asset; base58 on TRON and Solana.', {
        pattern: `^(${unanchored(EVM_ADDRESS_PATTERN)}|[1-9A-HJ-NP-Za-km-z]{32,44})$`,
      }),
      symbol: str(),
      name: str(),
      slug: str(),
      decimals: int(undefined, { minimum: 0, maximum: 255 }),
      logo: str(),
      blockchainId: chainId('Chain id the token belongs to.'),
      approvalReset: {
        const: true,
        description:
          "Extension, only on tokens whose approve() reverts while the allowance is not zero (Tether USD on Ethereum), as the catalogue flags it or the chain's seeding run found it: their approval steps set the allowance to 0 first.",
      },
      quotable: {
        const: false,
        description:
          "Extension, only on tokens the chain's seeding run left out: quotes for them are refused (400, with `reason`), and their catalogue fields, decimals included, are not what the chain says.",
      },
      reason: str(
        'Extension, with `quotable: false`: what the seeding run found, e.g. "decimals() is 8 on chain, 18 in the catalogue" or "it takes a fee on transfer: …".',
      ),
    },
    ['approvalReset', 'quotable', 'reason'],
  ),
  Chain: object({
    name: str(),
    slug: str(),
    chainId: chainId(),
    symbol: str(),
    nativeToken: str(),
    ecosystem: { type: 'string', enum: ['evm', 'tvm', 'svm'] },
    blockExplorer: str(),
    rpcUrl: { const: '', description: 'Always empty.' },
    blockChainLogo: str(),
    hasPoolState: {
      type: 'boolean',
      description:
        'Extension: whether the service holds pool state for this chain (a snapshot loaded), i.e. swaps on it can be priced. A quote needing a swap on a chain without it is refused: "quote unavailable: no pool state for <slug> (chain <id>): run the seeding run with RPC_URL_<id> (docs/snapshots-and-following.md)". Follows snapshot reloads.',
    },
    snapshotBlock: {
      type: ['integer', 'null'],
      minimum: 0,
      description: 'Extension: the block of the pool state being served (moves with each followed block); null without pool state.',
    },
    baseTokens: {
      type: 'array',
      items: str(),
      description:
        "Extension: the base tokens routing searches intermediate hops through (checksummed): the chain file's `baseTokens`, or when it names none, the tokens with the deepest pools and most connections in the pool state being served (none without pool state).",
    },
    baseTokensFrom: {
      type: 'string',
      enum: ['catalog', 'pools'],
      description: 'Extension: where `baseTokens` come from: the chain file (`catalog`) or the pools (`pools`: the file names none).',
    },
    tokens: { type: 'array', items: ref('Token') },
  }),
  Dex: object({
    chainId: chainId('Extension: the chain of this deployment.'),
    name: str(),
    slug: str('Unique within a chain.'),
    version: { type: 'string', enum: ['v2', 'v3', 'v4', 'balancerV2'] },
    v2FactoryAddress: addressOrEmpty('"" when not applicable (so are the other addresses).'),
    v2RouterAddress: addressOrEmpty('UniswapV2Router02.'),
    v3FactoryAddress: addressOrEmpty('UniswapV3Factory.'),
    v3RouterAddress: addressOrEmpty('SwapRouter or SwapRouter02.'),
    v3QuoterAddress: addressOrEmpty('QuoterV2.'),
    v4PoolManagerAddress: addressOrEmpty('Extension: v4 PoolManager (the singleton holding every v4 pool).'),
    v4StateViewAddress: addressOrEmpty('Extension: v4 StateView.'),
    v4QuoterAddress: addressOrEmpty('Extension: V4Quoter.'),
    v4PositionManagerAddress: addressOrEmpty('Extension: v4 PositionManager.'),
    allowedHooks: {
      type: 'array',
      items: address(),
      description:
        'Extension, v4: hooks contracts whose pools may be priced besides hookless ones (catalogue data, empty by default; a listed hook must still leave swaps priceable from pool state). A dynamic-fee pool (fee 0x800000) is priced only when its hook is listed here and has no beforeSwap permission (which could override the fee per swap); its LP fee is slot0.lpFee, re-read every block. [] for v2 and v3.',
    },
    universalRouterAddress: addressOrEmpty('UniversalRouter (on a v4 entry: the executor of its pools).'),
    permit2Address: addressOrEmpty('Permit2.'),
    settlementAddress: addressOrEmpty('Settlement contract, if any.'),
    feeBps: int('Extension: v2 swap fee in basis points; 0 for v3 and v4.', { minimum: 0 }),
    feeTiers: {
      type: 'array',
      items: int(undefined, { minimum: 0 }),
      description: 'Extension: v3 fee tiers in pips; [] for v2 and v4 (a v4 pool has any fee).',
    },
    balancerVaultAddress: addressOrEmpty(
      'Extension, balancerV2: the Vault that holds every pool of the deployment and executes its swaps (`swap` / `batchSwap`); the spender approved for its quotes. "" for other versions.',
    ),
    balancerQueriesAddress: addressOrEmpty('Extension, balancerV2: BalancerQueries (querySwap / queryBatchSwap). "" for other versions.'),
    balancerWeightedPoolFactories: {
      type: 'array',
      items: address(),
      description:
        'Extension, balancerV2: the WeightedPoolFactory deployments whose pools are priced (as weighted pools). [] for other versions.',
    },
    balancerStablePoolFactories: {
      type: 'array',
      items: address(),
      description:
        'Extension, balancerV2: the ComposableStablePoolFactory deployments whose pools are priced (as composable stable pools). [] for other versions.',
    },
  }),
  Pool: object({
    name: str(),
    symbol: str('BASE/QUOTE symbols.'),
    dexName: str(),
    dexSlug: str('Extension.'),
    version: { type: 'string', enum: ['v2', 'v3', 'v4', 'balancerV2'], description: 'Extension.' },
    pairAddress: pool('The pool contract.'),
    poolType: { type: 'string', enum: ['v2', 'v3', 'v4', 'balancerV2'] },
    poolFee: int('Fee in pips (3000 = 0.3%).', { minimum: 0 }),
    tickSpacing: int('0 for v2.'),
    isActivePool: { type: 'boolean' },
    marketCap: str(
      'Fully diluted market cap of the base token (token0) in USD, 2 decimals: its totalSupply() times its USD price; "" when either is unknown.',
    ),
    baseToken: ref('Token'),
    baseTokenAddress: address('token0.'),
    baseTokenBalance: intString('balanceOf(pool) of token0 at the snapshot block, smallest units.'),
    quoteToken: ref('Token'),
    quoteTokenAddress: address('token1.'),
    quoteTokenBalance: intString('balanceOf(pool) of token1, smallest units.'),
    liquidity: object({ baseTokenBalance: str('Display units.'), quoteTokenBalance: str('Display units.') }),
    liquidityInUsd: object({
      baseTokenBalance: str('USD with 2 decimals (cents rounded down), or "" when the token has no USD price.'),
      quoteTokenBalance: str(),
      totalPoolBalance: str(),
    }),
  }),
  QuoteRequest: {
    ...(fromValidationSchema(quoteRequestSchema) as Schema),
    description: 'The body of both quote endpoints (src/quote/quoteRequest.ts validates with this schema).',
  },
  Route: object({
    dex: str('DEX slug, or "wrap" for a wrap/unwrap of the native asset.'),
    name: str(),
    fees: intString('Fee paid, smallest units of tokenIn.'),
    logo: str(),
    version: { type: 'string', enum: ['v2', 'v3', 'v4', 'balancerV2', ''], description: 'Extension: DEX version ("" for wrap/unwrap).' },
    poolFee: int('Extension: pool fee in pips (0 for wrap/unwrap).', { minimum: 0 }),
  }),
  SnapshotInfo: {
    description: 'Extension: the pool-state snapshot the price comes from; null when the chain has none.',
    oneOf: [
      object({
        blockNumber: int(undefined, { minimum: 0 }),
        blockTimestamp: int('Unix seconds.', { minimum: 0 }),
        ageSeconds: int('Seconds between the block and the quote.', { minimum: 0 }),
      }),
      { type: 'null' },
    ],
  },
  Hop: object(
    {
      dex: str('DEX slug, or "wrap" for a wrap/unwrap of the native asset.'),
      version: { type: 'string', enum: ['v2', 'v3', 'v4', 'balancerV2', ''], description: '"" for wrap/unwrap.' },
      pool: pool('The pool swapped through (the wrapped native token for wrap/unwrap).'),
      fee: int('Pool fee in pips (3000 = 0.3%); 0 for wrap/unwrap.', { minimum: 0 }),
      tokenIn: address(),
      tokenOut: address(),
      amountIn: intString("Smallest units of this hop's tokenIn."),
      amountOut: intString("Smallest units of this hop's tokenOut."),
    },
    [],
    'Routing extension: one pool of a path.',
  ),
  Path: object(
    {
      percent: {
        type: 'number',
        description:
          "Share of the trade's fixed amount sent along this path (tokenIn's for exact input, tokenOut's for exact output), in percent to four decimals (millionths of the amount; the parts add up to 100). The exact share is the path's amountIn (exact input) or amountOut (exact output).",
        minimum: 0,
        maximum: 100,
        multipleOf: 0.0001,
      },
      amountIn: intString('Smallest units of tokenIn.'),
      amountOut: intString('Smallest units of tokenOut.'),
      hops: {
        type: 'array',
        minItems: 1,
        items: ref('Hop'),
        description: 'In swap order: the first takes tokenIn, the last gives tokenOut.',
      },
      stages: {
        type: 'array',
        minItems: 2,
        items: ref('Stage'),
        description:
          'Only on a path no single router runs (e.g. a Uniswap pool, then a Balancer pool; exact input only): its steps in order, one per router. Each step but the last pays the wallet and the next spends exactly its amountOutMinimum, so a later step never spends more than the earlier one is bound to have delivered; the hop after a hand-over shows that minimum as its amountIn.',
      },
    },
    ['stages'],
    'Routing extension: one split of the amount and the pools it goes through.',
  ),
  Stage: object(
    {
      name: str('The router (or Balancer Vault) that runs these hops, e.g. "Balancer V2 Vault".'),
      router: address("Its address: the swap step's `to`."),
      hops: int("How many of the path's hops this step swaps, from where the previous step ended.", { minimum: 1 }),
      tokenIn: address('What the step spends.'),
      tokenOut: address('What it delivers (to the wallet; the last step: to the recipient).'),
      amountIn: intString("What the step spends: the path's amountIn, or the previous step's amountOutMinimum."),
      amountOut: intString('What it delivers at the quoted state.'),
      amountOutMinimum: intString(
        "The least it accepts on chain: amountOut less the slippage (the request's slippageBps; with \"auto\", the default), the last step's the quote's amountOutMinimum, or this path's share of it when the quote splits over several paths (in proportion to their amountOut).",
      ),
      kept: intString(
        'amountOut less amountOutMinimum for a step before the last: stays with the wallet in tokenOut when the market holds ("0" for the last).',
      ),
    },
    [],
    'Routing extension: one step of a path executed as consecutive steps.',
  ),
  NetworkFee: object(
    {
      wei: intString('gasEstimate × gasPriceWei.'),
      inTokenIn: {
        type: ['string', 'null'],
        pattern: INTEGER_STRING_PATTERN,
        description:
          "The same fee in tokenIn's smallest units at the pools' mid price (exactOut trades are ranked by amountIn plus this); null when no pool prices the native asset in tokenIn.",
      },
      inTokenOut: {
        type: ['string', 'null'],
        pattern: INTEGER_STRING_PATTERN,
        description:
          "The same fee in tokenOut's smallest units at the pools' mid price (exactIn trades are ranked by amountOut minus this); null when no pool prices the native asset in tokenOut.",
      },
    },
    [],
    'Routing extension: what the steps cost in gas.',
  ),
  RouteQuote: object({
    tradeType: TRADE_TYPE,
    amountIn: intString('Smallest units of tokenIn: the amount sold (exactIn), or the input the trade needs (exactOut).'),
    amountInMaximum: intString(AMOUNT_IN_MAXIMUM),
    amountOut: intString('Smallest units of tokenOut: the output (exactIn), or the amount requested (exactOut).'),
    amountOutMinimum: intString(AMOUNT_OUT_MINIMUM),
    deadline: int('Unix seconds, five minutes after pricing.'),
    slippageBps: SLIPPAGE_BPS,
    slippageSource: SLIPPAGE_SOURCE,
    route: ref('Route'),
    tokenIn: ref('Token'),
    tokenOut: ref('Token'),
    pairAddress: pool('Extension: the first pool of the largest split (the wrapped native token for wrap/unwrap).'),
    snapshot: ref('SnapshotInfo'),
    ...routingExtensions(),
    warnings: WARNINGS,
  }),
  Step: object(
    {
      message: str('Label, e.g. "Approve 1.5 USDC" or "Swap 1.5 USDC for WETH on Uniswap V3".'),
      from: address('Wallet that sends the transaction.'),
      to: address('Contract called.'),
      data: str('Calldata, hex.', { pattern: '^0x[0-9a-fA-F]*$' }),
      amount: intString('What the step spends (an exact-output swap: at most), approves or moves, smallest units.'),
      chainId: chainId(),
      spender: address('Approval steps only.'),
      value: intString('Wei to attach; only on steps that send the native asset.'),
      gasLimit: intString('Routing extension: gas units to allow for the step.'),
    },
    ['spender', 'value', 'gasLimit'],
  ),
  Quote: object(
    {
      quoteId: str('UUID (version 4, lower case).', { format: 'uuid', pattern: UUID_PATTERN }),
      status: {
        type: 'string',
        enum: ['pending', 'expired'],
        description:
          '"pending" until deadline; "expired" once the current Unix time is at or after deadline (GET /quotes/{quoteId} answers as of the request; the steps revert from then on: refresh it).',
      },
      tradeType: TRADE_TYPE,
      amountIn: intString('Smallest units of tokenIn: the amount sold (exactIn), or the input the trade needs (exactOut).'),
      amountInFloat: str('Display units.'),
      amountInMaximum: intString(AMOUNT_IN_MAXIMUM),
      amountOut: intString('Smallest units of tokenOut: the output (exactIn), or the amount requested (exactOut).'),
      amountOutFloat: str('Display units; for display only.'),
      amountOutMinimum: intString(AMOUNT_OUT_MINIMUM),
      slippageBps: SLIPPAGE_BPS,
      slippageSource: SLIPPAGE_SOURCE,
      deadline: int('Unix seconds, five minutes after creation; enforced in the calldata.'),
      expiresAt: str('Extension: deadline as ISO 8601 (UTC): when the quote expires.', { format: 'date-time' }),
      originChain: str('Chain slug.'),
      originChainId: chainId(),
      destinationChain: str('Chain slug.'),
      destinationChainId: chainId(),
      tokenIn: ref('Token'),
      tokenOut: ref('Token'),
      recipientAddress: address('Checksummed.'),
      walletAddress: address('Checksummed; sender of every step.'),
      pairAddress: pool('The first pool of the largest split (same-chain quotes); the SpokePool (bridge quotes).'),
      hash: str('Always "" (the service never sends transactions).'),
      explorerUrl: str('Always "".'),
      createdAt: str('ISO 8601.', { format: 'date-time' }),
      updatedAt: str('ISO 8601: createdAt, or expiresAt once expired.', { format: 'date-time' }),
      route: ref('Route'),
      steps: { type: 'array', items: ref('Step') },
      snapshot: ref('SnapshotInfo'),
      expectedFillTimeSeconds: int('Extension, cross-chain quotes only: expected seconds from the deposit to the fill.', { minimum: 0 }),
      bridge: ref('QuoteBridge'),
      fees: ref('QuoteFees'),
      ...routingExtensions(),
      warnings: WARNINGS,
      refreshedFrom: str('Extension, refreshed quotes only: the quoteId refreshed.', { format: 'uuid', pattern: UUID_PATTERN }),
      changes: ref('QuoteChanges'),
      simulation: ref('QuoteSimulation'),
      permitData: ref('PermitData'),
    },
    ['expectedFillTimeSeconds', 'bridge', 'fees', ...ROUTING_FIELDS, 'refreshedFrom', 'changes', 'simulation', 'permitData'],
    'A saved quote. Cross-chain quotes (originChainId ≠ destinationChainId) also carry expectedFillTimeSeconds, bridge and fees; their route is the bridge.',
  ),
  PermitData: object(
    {
      domain: object({
        name: { const: 'Permit2' },
        chainId: chainId(),
        verifyingContract: address("Permit2's address (GET /blockchains permit2Address)."),
      }),
      types: object({
        EIP712Domain: { type: 'array', items: ref('TypedDataField') },
        PermitSingle: { type: 'array', items: ref('TypedDataField') },
        PermitDetails: { type: 'array', items: ref('TypedDataField') },
      }),
      primaryType: { const: 'PermitSingle' },
      message: object({
        details: object({
          token: address('tokenIn.'),
          amount: intString('uint160: exactly amountIn (exact output: amountInMaximum).'),
          expiration: int("uint48, Unix seconds: the quote's deadline, when the Permit2 allowance ends.", { minimum: 0 }),
          nonce: int("uint48: the sender's Permit2 nonce for (tokenIn, Universal Router), read on chain when the quote was made.", {
            minimum: 0,
          }),
        }),
        spender: address('The Universal Router.'),
        sigDeadline: intString("Unix seconds: the quote's deadline; the signature is refused after it."),
      }),
    },
    [],
    'Extension, approvalMode "permit2" only: the EIP-712 typed data of the PermitSingle the sender signs, as eth_signTypedData_v4 and viem\'s signTypedData take it unchanged. The quote\'s steps then end before the swap; POST /quotes/{quoteId}/swap with the signature returns it.',
  ),
  TypedDataField: object({ name: str(), type: str('An EIP-712 type.', { pattern: '^[A-Za-z_][A-Za-z0-9_]*(\\[[0-9]*\\])*$' }) }),
  QuoteSwap: object(
    {
      quoteId: str(undefined, { format: 'uuid', pattern: UUID_PATTERN }),
      steps: { type: 'array', items: ref('Step'), minItems: 1, maxItems: 1 },
    },
    [],
    "The swap step of a permit2 quote: Universal Router execute with PERMIT2_PERMIT (the signed permit) first, then the swap; sent after the quote's own steps.",
  ),
  QuoteChanges: object(
    {
      amountIn: signedIntString('New amountIn less the refreshed quote\'s, tokenIn\'s smallest units (exactIn: "0").'),
      amountOut: signedIntString('New amountOut less the refreshed quote\'s, tokenOut\'s smallest units (exactOut: "0").'),
      networkFeeWei: {
        type: ['string', 'null'],
        pattern: '^-?(0|[1-9][0-9]*)$',
        description: "New networkFee.wei less the refreshed quote's; null when either has no networkFee (bridge quotes).",
      },
    },
    [],
    'Extension, refreshed quotes only: what moved since the quote refreshed, new less old.',
  ),
  QuoteTxStatus: object(
    {
      quoteId: str(undefined, { format: 'uuid', pattern: UUID_PATTERN }),
      txHash: str('The hash asked about, lower case.', { pattern: '^0x[0-9a-f]{64}$' }),
      status: {
        type: 'string',
        enum: ['pending', 'success', 'failed', 'not_found', 'expired'],
        description:
          "pending: known to the node, not mined; success / failed: mined, by its receipt; not_found: unknown to the node; expired: unknown and the quote's deadline has passed.",
      },
      step: { type: ['integer', 'null'], minimum: 0, description: "Index in the quote's steps of the step this transaction sends." },
      blockNumber: { type: ['integer', 'null'], minimum: 0 },
      gasUsed: { type: ['string', 'null'], pattern: INTEGER_STRING_PATTERN },
      amountOut: intString("The quote's amountOut."),
      amountOutMinimum: intString("The quote's amountOutMinimum."),
      amountReceived: {
        type: ['string', 'null'],
        pattern: INTEGER_STRING_PATTERN,
        description:
          'Mined transactions: tokenOut the recipient received in this transaction, from its Transfer logs (native tokenOut: the wrapped token\'s Withdrawal logs); "0" for a failed one.',
      },
      realizedSlippageBps: {
        type: ['integer', 'null'],
        description:
          'Successful last step only: (amountOut − amountReceived) × 10000 / amountOut, rounded toward zero; negative when more than quoted arrived.',
      },
      bridge: {
        oneOf: [ref('BridgeTxStatus'), { type: 'null' }],
        description: "Cross-chain quotes only: for the deposit's hash, what followed it; null for any other hash.",
      },
    },
    ['bridge'],
    'Extension: what became of one transaction of a quote. For the deposit of a cross-chain quote, amountReceived and realizedSlippageBps are what the recipient received on the destination chain (null until it arrived).',
  ),
  BridgeTxStatus: object(
    {
      depositId: {
        type: ['string', 'null'],
        pattern: INTEGER_STRING_PATTERN,
        description: "The SpokePool's deposit id, from the deposit's FundsDeposited event (null if the receipt has none).",
      },
      fill: {
        oneOf: [
          object({
            status: {
              type: 'string',
              enum: ['pending', 'filled', 'expired'],
              description:
                "pending: not filled yet; filled: a FilledRelay (or FilledV3Relay) for this deposit on the destination chain's SpokePool, relay data equal to the deposit's; expired: not filled by its fill deadline (never will be: the depositor is refunded on the origin chain).",
            },
            txHash: { type: ['string', 'null'], pattern: '^0x[0-9a-f]{64}$', description: 'The fill transaction; null unless filled.' },
            blockNumber: { type: ['integer', 'null'], minimum: 0 },
            outputAmount: {
              type: ['string', 'null'],
              pattern: INTEGER_STRING_PATTERN,
              description: "What the relayer paid (the bridged output token's smallest units); null unless filled.",
            },
          }),
          { type: 'null' },
        ],
        description: 'The fill, searched with eth_getLogs from the deposit time to the head (or to the fill deadline once passed).',
      },
      destinationSwap: {
        oneOf: [
          object({
            status: {
              type: 'string',
              enum: ['success', 'not_found'],
              description:
                "success: the quote's last destination step found mined (by the logs it leaves for the recipient); not_found: not sent yet, pending, or reverted (ask for its own hash).",
            },
            txHash: { type: ['string', 'null'], pattern: '^0x[0-9a-f]{64}$' },
            blockNumber: { type: ['integer', 'null'], minimum: 0 },
          }),
          { type: 'null' },
        ],
        description: 'null when the quote has no destination step or the fill has not arrived.',
      },
    },
    [],
    'Extension, cross-chain quotes: what followed the deposit.',
  ),
  QuoteSimulation: object(
    {
      quoteId: str(undefined, { format: 'uuid', pattern: UUID_PATTERN }),
      chainId: chainId(),
      blockNumber: int(
        "The block whose state the steps ran on (the node's latest); they run in a block after it (its number + 1, its timestamp + 1 s).",
        {
          minimum: 0,
        },
      ),
      method: {
        type: 'string',
        enum: ['eth_simulateV1', 'eth_call'],
        description:
          "eth_simulateV1: the steps in order in one simulated block, each on the state the previous left. eth_call (a node without eth_simulateV1): each step alone on the block's state; of earlier steps only their approvals are carried (allowance overrides), and simulatedAmountOut is null (notes say so).",
      },
      sender: address("The request's sender, checksummed: every step runs from it."),
      success: { type: 'boolean', description: 'Every step succeeded.' },
      amountOut: intString("The quote's amountOut."),
      simulatedAmountOut: {
        type: ['string', 'null'],
        pattern: INTEGER_STRING_PATTERN,
        description:
          "What the recipient's tokenOut balance gained over the steps run (their Transfer logs; native tokenOut: the node's traced ether transfers). Equals amountOut when the state has not moved since the quote; null with method eth_call.",
      },
      overrides: {
        type: 'array',
        items: ref('SimulationOverride'),
        description:
          'What the sender was given that it does not hold yet (balance; empty when nothing), and with method eth_call the approvals of earlier steps carried to later ones (allowance).',
      },
      steps: { type: 'array', items: ref('SimulatedStep'), description: "One per step of the quote, in the quote's order." },
      notes: { type: 'array', items: str(), description: 'What the simulation could not do as the chain would (empty when nothing).' },
    },
    [],
    "Extension: a quote's steps run before they are signed (POST /quotes/{quoteId}/simulate, or POST /quotes with simulate: true). Results are kept per (quote, block).",
  ),
  SimulatedStep: object(
    {
      message: str("The step's message."),
      status: {
        type: 'string',
        enum: ['success', 'reverted', 'skipped'],
        description: 'skipped: not run, an earlier step reverted (a client stops there).',
      },
      gasUsed: {
        type: ['string', 'null'],
        pattern: INTEGER_STRING_PATTERN,
        description: 'Gas the step used (eth_call: what eth_estimateGas needs for it); null when skipped.',
      },
      gasLimit: {
        type: ['string', 'null'],
        pattern: INTEGER_STRING_PATTERN,
        description:
          "Successful steps: gasUsed + 25% + 20,000 (the refunds gasUsed is net of, the 1/64 a call keeps back, a v3 oracle write in a new second); with simulate: true the quote's step carries it. Null otherwise.",
      },
      revert: {
        oneOf: [ref('RevertReason'), { type: 'null' }],
        description: 'Reverted steps: the decoded reason; null otherwise.',
      },
    },
    [],
  ),
  RevertReason: object({
    reason: str(
      'Error(string): its text ("STF", "Too little received", "UniswapV2: K"); Panic(uint256): "Panic(0x11: arithmetic underflow or overflow)"; a known custom error: its name and arguments; an unknown one: "custom error 0x<selector>"; no data: "reverted without a reason".',
    ),
    data: str('The revert data, hex ("0x" when none).', { pattern: '^0x[0-9a-fA-F]*$' }),
  }),
  SimulationOverride: object(
    {
      kind: { type: 'string', enum: ['balance', 'allowance'] },
      token: address('The token (0xEeee…EEeE: ether).'),
      holder: address('Whose balance or allowance.'),
      spender: address('Allowances only.'),
      value: intString('The value set, smallest units.'),
    },
    ['spender'],
  ),
  QuoteSwapLeg: object(
    {
      chainId: chainId(),
      dex: str('DEX slug, or "wrap".'),
      name: str(),
      version: { type: 'string', enum: ['v2', 'v3', 'v4', 'balancerV2', ''] },
      poolFee: int('Pips; 0 for a wrap.', { minimum: 0 }),
      pool: str(
        'The first pool of the largest split ("" for a wrap); a v4 or Balancer v2 pool is named by its poolId (32 bytes, lower-case hex).',
        {
          pattern: `^(${unanchored(EVM_ADDRESS_PATTERN)}|0x[0-9a-f]{64})?$`,
        },
      ),
      paths: { type: 'array', items: ref('Path'), description: 'Every split with its hops (empty for a wrap).' },
      tokenIn: ref('Token'),
      tokenOut: ref('Token'),
      amountIn: intString('Smallest units.'),
      amountOut: intString('Smallest units.'),
      amountOutMinimum: intString('Smallest units.'),
      deadline: int("The leg's on-chain deadline, Unix seconds."),
    },
    [],
    'Extension: one swap (or wrap) leg of a cross-chain quote.',
  ),
  QuoteBridge: object(
    {
      protocol: { const: 'across' },
      name: str(),
      slug: str(),
      asset: str('Shared asset key bridged (USDC, ETH, ...).'),
      originSpokePool: address(),
      destinationSpokePool: address(),
      inputToken: ref('Token'),
      outputToken: ref('Token'),
      inputAmount: intString("The deposit's inputAmount."),
      outputAmount: intString("The deposit's outputAmount: what the relayer fills."),
      fillRecipient: address(),
      fillDeadlineOffsetSeconds: int(undefined, { minimum: 0 }),
      expectedFillTimeSeconds: int(undefined, { minimum: 0 }),
      originSwap: { oneOf: [ref('QuoteSwapLeg'), { type: 'null' }] },
      destinationSwap: { oneOf: [ref('QuoteSwapLeg'), { type: 'null' }] },
    },
    [],
    'Extension: the bridge transfer of a cross-chain quote and the swap legs around it.',
  ),
  QuoteFee: object({ token: ref('Token'), amount: intString('Smallest units of token.') }),
  QuoteFees: object(
    {
      bridge: object({
        token: ref('Token'),
        amount: intString('Smallest units of token.'),
        feeBps: int(undefined, { minimum: 0 }),
        fixedFee: str('Display units of token.'),
      }),
      originSwap: { oneOf: [ref('QuoteFee'), { type: 'null' }] },
      destinationSwap: { oneOf: [ref('QuoteFee'), { type: 'null' }] },
    },
    [],
    'Extension: bridge fee and swap fees of a cross-chain quote.',
  ),
  Health: object({ status: { const: 'ok' } }),
  OpenApiDocument: {
    type: 'object',
    description: 'An OpenAPI 3.1 document (OpenAPI Specification 3.1, "OpenAPI Object"): this one.',
    required: ['openapi', 'info', 'paths', 'components'],
    properties: {
      openapi: str('The OpenAPI Specification version.', { pattern: '^3\\.1\\.[0-9]+$' }),
      info: { type: 'object', required: ['title', 'version'], properties: { title: str(), version: str("The API's version.") } },
      servers: { type: 'array', items: { type: 'object', required: ['url'], properties: { url: str() } } },
      tags: { type: 'array', items: { type: 'object', required: ['name'], properties: { name: str(), description: str() } } },
      paths: { type: 'object', description: 'Path templates to Path Item Objects.', additionalProperties: { type: 'object' } },
      components: { type: 'object', description: 'Schemas, responses, headers and security schemes.' },
    },
  },
  Readiness: object({
    status: { const: 'ready' },
    checks: {
      type: 'object',
      description: 'catalog always; workers, quoteStore and apiKeyStore when the quote endpoints are served.',
      additionalProperties: object({ ok: { type: 'boolean' }, detail: str() }),
    },
  }),
};

const errorResponse = (description: string, headers?: Record<string, unknown>) =>
  json(ref('Error'), description, { ...REQUEST_ID, ...(headers ?? {}) });

const rateLimitHeaders = {
  'RateLimit-Limit': {
    description: 'Requests allowed per window for this key or address (only when a limit applies).',
    schema: { type: 'integer' },
  },
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
      'Any request may be refused with 429 (rate limit, Retry-After header) when limits are configured, and with 413/400/415 for a body that is too large, malformed or not JSON. ' +
      'A method a path does not serve is 405 with an Allow header; an unknown path is 404.\n\n' +
      '**API keys.** POST /quotes and GET /quotes/{quoteId} need an organization API key; everything else is public (POST /quotes/routes reads a key only when one is sent). ' +
      'An operator creates keys on the server with `npm run keys -- create --org <name>` (printed once); send it as `Authorization: Bearer <key>` or `X-API-Key: <key>`. ' +
      'Keys belong on servers, never in browser or mobile code.\n\n' +
      '**Try it.** The examples use the shipped devnet snapshot (chains 31337 and 31338) and work as shipped. GET /docs is this reference, GET /playground a quote form.',
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
        security: PUBLIC,
        parameters: [chainIdQuery(false, 'Only this chain.'), slugQuery('slug', 'Only the chain with this slug.', 'devnet')],
        responses: {
          200: ok({ type: 'array', items: ref('Chain') }, 'blockchains fetched successfully', 'The chains (empty when none matches).'),
          ...pick(400, 429, 500),
        },
      },
    },
    '/blockchains/tokens': {
      get: {
        tags: ['catalogue'],
        operationId: 'listTokens',
        summary: 'Tokens of one chain or of every chain.',
        security: PUBLIC,
        parameters: [chainIdQuery(false, "Only this chain's tokens.")],
        responses: {
          200: ok({ type: 'array', items: ref('Token') }, 'tokens fetched successfully', 'The tokens.'),
          ...pick(400, 429, 500),
        },
      },
    },
    '/blockchains/dex': {
      get: {
        tags: ['catalogue'],
        operationId: 'listDexes',
        summary: 'DEX deployments, one entry per protocol version.',
        security: PUBLIC,
        parameters: [chainIdQuery(false, 'Only this chain.'), slugQuery('slug', 'Only this DEX slug.', 'uniswap')],
        responses: {
          200: ok({ type: 'array', items: ref('Dex') }, 'dexes fetched successfully', 'The deployments (always an array).'),
          ...pick(400, 429, 500),
        },
      },
    },
    '/blockchains/pools': {
      get: {
        tags: ['catalogue'],
        operationId: 'listPools',
        summary: 'Pools of a chain from the last snapshot.',
        security: PUBLIC,
        parameters: [
          chainIdQuery(true, 'Required; missing or empty is 400 "invalid chain id".'),
          slugQuery('dex', 'Only this DEX slug.', 'uniswap'),
        ],
        responses: {
          200: ok(
            { oneOf: [{ type: 'array', items: ref('Pool') }, { type: 'null' }] },
            'pools fetched successfully',
            'The pools; data is null for an unknown chain, [] for a chain without a snapshot.',
          ),
          ...pick(400, 429, 500),
        },
      },
    },
    '/quotes/routes': {
      post: {
        tags: ['quotes'],
        operationId: 'quoteRoutes',
        summary: 'Best route per DEX for a same-chain swap, best first. Nothing is saved.',
        description: "No key needed; a key that is sent must be valid (401 otherwise) and then counts against the key's rate limit.",
        security: [{}, { bearerAuth: [] }, { apiKeyHeader: [] }],
        requestBody: quoteBody(sameChainExamples),
        responses: {
          200: ok(
            { type: 'array', items: ref('RouteQuote') },
            'routes fetched successfully',
            'Route quotes, best first by what the user gets net of the network fee (rankedBy): by amountOut − networkFee.inTokenOut descending (exactIn), by amountIn + networkFee.inTokenIn ascending (exactOut). data[0] is the trade POST /quotes returns for the same body. Routes whose price impact exceeds maxPriceImpactBps are left out (400 when none remains).',
            {
              rankedBy: {
                const: ROUTES_RANKED_BY,
                description:
                  'Extension: how data is ordered. "netOfGas": by output net of the network fee at gasPriceWei (at gas price 0, or where no pool prices the native asset in the token, the fee counts as 0).',
              },
            },
          ),
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
        requestBody: quoteBody({
          ...sameChainExamples,
          bridge: example('100 USDC from the devnet to devnet-b (Across)', {
            destinationChainId: DEVNET + 1,
            tokenIn: DEVNET_TOKENS.USDC,
            tokenOut: DEVNET_TOKENS.USDC,
            amount: '100',
          }),
        }),
        responses: { 200: ok(ref('Quote'), 'quote created successfully', 'The saved quote.'), ...pick(400, 401, 413, 415, 429, 500, 503) },
      },
    },
    '/quotes/{quoteId}': {
      get: {
        tags: ['quotes'],
        operationId: 'getQuote',
        summary: "A saved quote of the caller's organization (QUOTE_TTL_SECONDS after creation).",
        security: [{ bearerAuth: [] }, { apiKeyHeader: [] }],
        parameters: [QUOTE_ID_PARAMETER],
        responses: {
          200: ok(
            ref('Quote'),
            'quote fetched successfully',
            'The quote as created, with status "expired" (and updatedAt = expiresAt) from its deadline on.',
          ),
          ...pick(401, 404, 429, 500, 503),
        },
      },
    },
    '/quotes/{quoteId}/refresh': {
      post: {
        tags: ['quotes'],
        operationId: 'refreshQuote',
        summary:
          "Prices the saved quote's request again on the current pool state and saves a new quote (new quoteId, refreshedFrom, changes; PRICE_MOVED in warnings when the old quote's transaction would now revert). Expired quotes can be refreshed. No body is read.",
        security: [{ bearerAuth: [] }, { apiKeyHeader: [] }],
        parameters: [QUOTE_ID_PARAMETER],
        responses: {
          200: ok(ref('Quote'), 'quote refreshed successfully', 'The new quote.'),
          ...pick(400, 401, 404, 429, 500, 503),
        },
      },
    },
    '/quotes/{quoteId}/simulate': {
      post: {
        tags: ['quotes'],
        operationId: 'simulateQuote',
        summary:
          "Runs a same-chain quote's steps from its request's sender at the chain's latest block, before anything is signed (eth_simulateV1; eth_call per step where the node lacks it): per step success, gas used, gas limit and the decoded revert reason, and the recipient's simulatedAmountOut. The input the sender lacks is given by a state override. No body is read.",
        description:
          'Refusals (400): "simulation needs an RPC URL for chain 8453 (RPC_URL_8453)", "quote <id> was requested without a sender: simulation runs the steps from it; request a quote with sender", "simulation covers same-chain quotes only: quote <id> is cross-chain". An unknown quote: 404 "quote <id> not found".',
        security: [{ bearerAuth: [] }, { apiKeyHeader: [] }],
        parameters: [QUOTE_ID_PARAMETER],
        responses: {
          200: ok(ref('QuoteSimulation'), 'quote simulated successfully', 'The simulation.'),
          ...pick(400, 401, 404, 429, 500, 503),
        },
      },
    },
    '/quotes/{quoteId}/swap': {
      post: {
        tags: ['quotes'],
        operationId: 'swapQuote',
        summary:
          'approvalMode "permit2": the swap step of the quote, with the sender\'s signature of its permitData put first (Universal Router PERMIT2_PERMIT, then the swap commands). Send it after the quote\'s steps, from the sender, before the deadline.',
        description:
          'Checked before any calldata is returned; refusals (400), in this order: "quote <id> was not made with approvalMode "permit2": its steps already hold the swap; POST /quotes/{quoteId}/swap is for permit2 quotes only"; the body ("request body must be JSON (Content-Type: application/json)", "request body must be a JSON object", "signature: is required", "signature: must be 0x and 130 hex digits (r, s, v) or 128 (EIP-2098 compact)", "<field>: is not a field of the swap request"); "quote <id> expired at <expiresAt>: refresh it (POST /quotes/<id>/refresh) and sign the new permitData"; "signature: not a valid signature (r, s, v) of the quote\'s permitData"; "signature: signed by <address>, not by the quote\'s sender <address>: the sender signs the quote\'s permitData exactly as given". An unknown quote: 404 "quote <id> not found".',
        security: [{ bearerAuth: [] }, { apiKeyHeader: [] }],
        parameters: [QUOTE_ID_PARAMETER],
        requestBody: {
          required: true,
          description: "A JSON object with exactly `signature`: the sender's EIP-712 signature of the quote's permitData.",
          content: {
            'application/json': {
              schema: object({
                signature: str('65 bytes (r, s, v) or 64 bytes (EIP-2098 compact), hex.', {
                  pattern: '^0x([0-9a-fA-F]{128}|[0-9a-fA-F]{130})$',
                }),
              }),
            },
          },
        },
        responses: {
          200: ok(ref('QuoteSwap'), 'swap built successfully', 'The swap step.'),
          ...pick(400, 401, 404, 413, 415, 429, 500, 503),
        },
      },
    },
    '/quotes/{quoteId}/status': {
      get: {
        tags: ['quotes'],
        operationId: 'getQuoteStatus',
        summary:
          "What became of one of a quote's transactions, read from its chain through RPC_URL_<chainId>: status, block, gas used and, for a success, what the recipient received; for a cross-chain quote's deposit, also the Across fill on the destination chain and the destination swap.",
        description:
          'Refusals (400): "txHash: is required", "txHash: must be a transaction hash (0x followed by 64 hex digits)", "status needs an RPC URL for chain 8453 (RPC_URL_8453)", "transaction <hash> is not a step of quote <id>" (its sender, target or calldata is no step\'s). A cross-chain quote needs both chains\' RPC URLs (the origin\'s named first); its hash is looked up on the origin chain, then the destination.',
        security: [{ bearerAuth: [] }, { apiKeyHeader: [] }],
        parameters: [
          QUOTE_ID_PARAMETER,
          {
            name: 'txHash',
            in: 'query',
            required: true,
            description: "The hash of a transaction sending one of the quote's steps (any of them; the last gives realizedSlippageBps).",
            schema: { type: 'string', pattern: '^0x[0-9a-fA-F]{64}$' },
          },
        ],
        responses: {
          200: ok(ref('QuoteTxStatus'), 'quote status fetched successfully', "The transaction's status."),
          ...pick(400, 401, 404, 429, 500, 503),
        },
      },
    },
    '/healthz': {
      get: {
        tags: ['operations'],
        operationId: 'liveness',
        summary: 'Liveness: the process answers. Never rate limited.',
        security: PUBLIC,
        responses: { 200: ok(ref('Health'), 'ok', 'Alive.') },
      },
    },
    '/readyz': {
      get: {
        tags: ['operations'],
        operationId: 'readiness',
        summary:
          'Readiness: catalogue and snapshots loaded, a pricing worker answers, the quote and API-key stores answer. Never rate limited.',
        security: PUBLIC,
        responses: {
          200: ok(ref('Readiness'), 'ready', "Every check passed; each check's detail."),
          503: errorResponse(
            'Not ready: the message names each failing check ("not ready: quoteStore: quote store (redis) is unreachable").',
          ),
        },
      },
    },
    '/metrics': {
      get: {
        tags: ['operations'],
        operationId: 'metrics',
        summary: 'Prometheus metrics (text exposition format, not the envelope). Never rate limited.',
        security: PUBLIC,
        responses: { 200: { description: 'Metrics.', content: { 'text/plain': { schema: { type: 'string' } } } } },
      },
    },
    '/openapi.json': {
      get: {
        tags: ['operations'],
        operationId: 'openapi',
        summary: 'This document (not the envelope).',
        security: PUBLIC,
        externalDocs: { description: 'OpenAPI Specification 3.1', url: 'https://spec.openapis.org/oas/v3.1.0' },
        responses: {
          200: { description: 'The OpenAPI 3.1 document.', content: { 'application/json': { schema: ref('OpenApiDocument') } } },
          ...pick(429),
        },
      },
    },
  },
  components: {
    schemas,
    headers: {
      'X-Request-Id': {
        description: 'The request id (echoed when the request sent a valid one: 1-64 of A-Z a-z 0-9 _ . -); also in the log line.',
        schema: { type: 'string' },
      },
    },
    responses: {
      BadRequest: errorResponse(
        'Invalid request: validation problems listed in the message, quote unavailable (no pool state for a chain a swap needs, no route, insufficient liquidity, amount too small), malformed JSON, a non-JSON body.',
      ),
      Unauthorized: errorResponse('API key missing, malformed or invalid.', { 'WWW-Authenticate': { schema: { type: 'string' } } }),
      NotFound: errorResponse('No such quote for this organization (or expired), or an unknown path.'),
      PayloadTooLarge: errorResponse('Body larger than BODY_LIMIT_BYTES (default 65536).'),
      UnsupportedMediaType: errorResponse('Unsupported Content-Encoding or charset.'),
      RateLimited: errorResponse('Rate limit exceeded.', {
        'Retry-After': { description: 'Seconds until the limit resets.', schema: { type: 'integer', minimum: 1 } },
        ...rateLimitHeaders,
      }),
      InternalError: errorResponse('Unexpected failure; the message is generic and the detail is logged.'),
      ServiceUnavailable: errorResponse(
        'A dependency cannot serve now (quote store, API-key store, pricing queue full, worker failure); retry.',
      ),
    },
    securitySchemes: {
      bearerAuth: {
        type: 'http',
        scheme: 'bearer',
        description: 'Authorization: Bearer <API_KEY> (sqk_ followed by 43 base64url characters).',
      },
      apiKeyHeader: {
        type: 'apiKey',
        in: 'header',
        name: 'X-API-Key',
        description: 'The bare key; if both headers are sent they must carry the same key.',
      },
    },
  },
} as const;
