import Router from '@koa/router';
import type { Context } from 'koa';
import type { Catalog } from '../catalog/Catalog.ts';
import { ValidationError } from '../errors/BaseError.ts';
import type { PoolGraph } from '../graph/PoolGraph.ts';
import type { KeyedState } from '../http/AppState.ts';
import { optionalApiKey, requireApiKey } from '../http/auth.ts';
import { sendData, sendDataJson } from '../http/envelope.ts';
import { UUID_PATTERN, unanchored } from '../http/formats.ts';
import { isJsonRequest } from '../http/jsonBody.ts';
import { queryValue } from '../http/query.ts';
import { applyTokenFacts } from '../quote/applyTokenFacts.ts';
import { parseQuoteRequest, type QuoteRequest } from '../quote/quoteRequest.ts';
import type { QuoteService } from '../quote/quoteService.ts';
import { parseTxHash, QuoteTxStatusReader } from '../quote/quoteTxStatus.ts';
import { ROUTES_RANKED_BY } from '../routing/compareNetOfGas.ts';
import type { ApiKeyStore } from '../store/apiKeyStore.ts';
import type { QuoteStore } from '../store/quoteStore.ts';

export interface QuoteRoutesDeps {
  readonly catalog: Catalog;
  readonly quotes: QuoteService;
  readonly store: QuoteStore;
  readonly keys: ApiKeyStore;
  readonly defaultSlippageBps: number;
  /** Reads quote transactions on their chains (GET /quotes/{id}/status); without it every chain lacks an RPC URL. */
  readonly txStatus?: QuoteTxStatusReader;
}

const QUOTE_ID = `/quotes/(${unanchored(UUID_PATTERN)})`;
const QUOTE_ROUTE_TEMPLATE = '/quotes/:quoteId';
const QUOTE_ROUTE = new RegExp(`^${QUOTE_ID}$`);
const REFRESH_ROUTE_TEMPLATE = '/quotes/:quoteId/refresh';
const REFRESH_ROUTE = new RegExp(`^${QUOTE_ID}/refresh$`);
const STATUS_ROUTE_TEMPLATE = '/quotes/:quoteId/status';
const STATUS_ROUTE = new RegExp(`^${QUOTE_ID}/status$`);
const SIMULATE_ROUTE_TEMPLATE = '/quotes/:quoteId/simulate';
const SIMULATE_ROUTE = new RegExp(`^${QUOTE_ID}/simulate$`);
const SWAP_ROUTE_TEMPLATE = '/quotes/:quoteId/swap';
const SWAP_ROUTE = new RegExp(`^${QUOTE_ID}/swap$`);

/**
 * Quote routes: POST /quotes/routes (no key needed), POST /quotes and GET /quotes/:quoteId (organization key).
 * `graph`, the pool graph being served, gives what the seeding run found about the tokens (applyTokenFacts): tokens it
 * left out are refused with the reason, and an approve-reset rule it found shapes the approval steps.
 */
export function quotesRouter(deps: QuoteRoutesDeps, graph?: () => PoolGraph): Router {
  const router = new Router();

  /** Validates a quote request body against the catalogue and the served token facts. */
  function parseRequest(body: unknown): QuoteRequest {
    const request = parseQuoteRequest(body, deps.catalog, deps.defaultSlippageBps);
    return graph ? applyTokenFacts(request, graph()) : request;
  }

  /** Parses the JSON body of a quote request; a body that is not JSON is a 400. */
  function readRequest(ctx: Context): QuoteRequest {
    if (!isJsonRequest(ctx)) throw new ValidationError('request body must be JSON (Content-Type: application/json)');
    return parseRequest(ctx.request.body);
  }

  router.post('/quotes/routes', optionalApiKey(deps.keys), async (ctx) => {
    const request = readRequest(ctx);
    sendDataJson(ctx, 'routes fetched successfully', await deps.quotes.routes(request), 200, { rankedBy: ROUTES_RANKED_BY });
  });

  router.post<KeyedState>('/quotes', requireApiKey(deps.keys), async (ctx) => {
    const request = readRequest(ctx);
    const saved = await deps.quotes.create(request, ctx.state.apiKey.org);
    sendDataJson(ctx, 'quote created successfully', saved.json);
  });

  // The id is a UUID in the route itself, so /quotes/routes is never taken for an id (OPTIONS and GET on it answer
  // for POST /quotes/routes alone) and anything else under /quotes/ is an unknown path. A RegExp route has no
  // template; its name is the template metrics and tests read (see routeTemplate).
  router.get<KeyedState>(QUOTE_ROUTE_TEMPLATE, QUOTE_ROUTE, requireApiKey(deps.keys), async (ctx) => {
    const id = ctx.captures![0].toLowerCase();
    sendData(ctx, 'quote fetched successfully', await deps.quotes.get(id, ctx.state.apiKey.org));
  });

  // The saved request priced again: a new quote (new id, refreshedFrom). No body is read.
  router.post<KeyedState>(REFRESH_ROUTE_TEMPLATE, REFRESH_ROUTE, requireApiKey(deps.keys), async (ctx) => {
    const id = ctx.captures![0].toLowerCase();
    const saved = await deps.quotes.refresh(id, ctx.state.apiKey.org, parseRequest);
    sendDataJson(ctx, 'quote refreshed successfully', saved.json);
  });

  // The quote's steps run from its sender at the chain's latest block, before anything is signed. No body is read.
  router.post<KeyedState>(SIMULATE_ROUTE_TEMPLATE, SIMULATE_ROUTE, requireApiKey(deps.keys), async (ctx) => {
    const id = ctx.captures![0].toLowerCase();
    sendData(ctx, 'quote simulated successfully', await deps.quotes.simulate(id, ctx.state.apiKey.org));
  });

  // approvalMode "permit2": the swap step, with the sender's signature of the quote's permitData put in it.
  router.post<KeyedState>(SWAP_ROUTE_TEMPLATE, SWAP_ROUTE, requireApiKey(deps.keys), async (ctx) => {
    const id = ctx.captures![0].toLowerCase();
    // A body that is not JSON is refused after the quote is found (parseSwapBody: undefined).
    const body = isJsonRequest(ctx) ? ctx.request.body : undefined;
    sendData(ctx, 'swap built successfully', await deps.quotes.swap(id, ctx.state.apiKey.org, body));
  });

  // What became of one of the quote's transactions, read from its chain.
  router.get<KeyedState>(STATUS_ROUTE_TEMPLATE, STATUS_ROUTE, requireApiKey(deps.keys), async (ctx) => {
    const id = ctx.captures![0].toLowerCase();
    const txHash = parseTxHash(queryValue(ctx.query.txHash));
    const quote = await deps.quotes.get(id, ctx.state.apiKey.org);
    const reader = deps.txStatus ?? new QuoteTxStatusReader({ catalog: deps.catalog, rpcUrls: new Map() });
    sendData(ctx, 'quote status fetched successfully', await reader.status(quote, txHash));
  });

  return router;
}
