/**
 * `npm run ts -- bench/apiPart.ts <other checkout>`: the API thread's own domain work for one default
 * `POST /quotes/routes`, this checkout against another, in alternating rounds in one process: the body parsed
 * (JSON.parse), validated (parseQuoteRequest, applyTokenFacts), the route quotes built from the pricing worker's answer
 * (routeQuotes with a finder that returns the answer the worker would send, read as the Pricer reads it) and the
 * response envelope serialized to the bytes the socket is given. The answers are priced once beforehand (the
 * worker's code: findTrades encoded, and findRoutes where this checkout's Pricer has it) for the varied
 * default-routing devnet mix of bench:http, and kept as the bytes of their structured clone (v8.serialize, the
 * serializer postMessage uses): each request reads its answer from them (v8.deserialize), as the API thread reads a
 * worker's message. Prints the median CPU µs
 * (process.cpuUsage) per request of each side, and checks that both sides write the same bytes for every request.
 */
import { resolve } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { loadCatalog } from '../src/catalog/loadCatalog.ts';
import { PoolGraph } from '../src/graph/PoolGraph.ts';
import { pricingGraphOf } from '../src/graph/PricingGraph.ts';
import { loadSnapshots } from '../src/graph/snapshot.ts';
import type { DeploymentRoute } from '../src/quote/describedRoutes.ts';
import { findRoutes, findTrades } from '../src/quote/TradeTask.ts';
import { decodeTrades, encodeTrades } from '../src/quote/tradeCodec.ts';
import type { DeploymentTrade } from '../src/routing/bestTradesByDeployment.ts';
import type { TradeSearch } from '../src/routing/TradeFinder.ts';
import { variedQuoteBodies } from './lib/quoteMix.ts';
import { shippedConfig } from './lib/shippedConfig.ts';

const other = process.argv[2];
if (!other) throw new Error('usage: npm run ts -- bench/apiPart.ts <other checkout of the project>');

/** The worker's answer to a body, each form read afresh from its clone's bytes: the trades, or the described routes. */
interface Answer {
  trades(): DeploymentTrade[];
  routes(): DeploymentRoute[];
}

/** What one checkout's side does with a body and the worker's answer: the response's bytes. */
type Side = (body: string, answer: Answer) => Promise<Buffer>;

const config = shippedConfig();
const catalog = loadCatalog(config.catalogDir);
const graph = new PoolGraph(loadSnapshots(config.snapshotDir).snapshots, catalog);
const pricing = pricingGraphOf(graph, catalog);
const NOW = 1_800_000_000_000;

/** A checkout's side: its modules, the same catalogue and graph objects. */
async function side(root: string): Promise<Side> {
  const { parseQuoteRequest } = (await import(`${root}/src/quote/quoteRequest.ts`)) as typeof import('../src/quote/quoteRequest.ts');
  const { applyTokenFacts } = (await import(`${root}/src/quote/applyTokenFacts.ts`)) as typeof import('../src/quote/applyTokenFacts.ts');
  const { routeQuotes } = (await import(`${root}/src/quote/routeQuotes.ts`)) as typeof import('../src/quote/routeQuotes.ts');
  const { quoteContext } = (await import(`${root}/src/quote/quoteContext.ts`)) as typeof import('../src/quote/quoteContext.ts');
  const { ROUTES_RANKED_BY } = (await import(
    `${root}/src/routing/compareNetOfGas.ts`
  )) as typeof import('../src/routing/compareNetOfGas.ts');
  const envelope = (await import(`${root}/src/http/envelope.ts`)) as Record<string, unknown>;
  let answer: Answer | undefined;
  const pricer = {
    findTrades: async () => answer!.trades(),
    findRoutes: async () => answer!.routes(),
    close: async () => undefined,
  } as never;
  const ctx = quoteContext({ catalog, graph: () => graph, pricer, store: undefined as never, now: () => NOW });
  // The response as the socket gets it: Koa's respond() for an object body, or the bytes of a body already written.
  const bytes = (body: unknown): Buffer =>
    Buffer.isBuffer(body) ? body : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
  const sendData = envelope.sendData as (ctx: { body: unknown }, ...args: unknown[]) => void;
  const sendDataJson = envelope.sendDataJson as typeof sendData;
  return async (body, next) => {
    answer = next;
    const request = applyTokenFacts(parseQuoteRequest(JSON.parse(body), catalog, config.defaultSlippageBps), graph);
    const routes = await routeQuotes(ctx, request);
    const koa = { body: undefined as unknown, status: 200, type: '', set: () => undefined, remove: () => undefined };
    // A checkout whose routeQuotes answers the data's JSON text writes it as the route does (sendDataJson).
    const send = typeof routes === 'string' ? sendDataJson : sendData;
    send(koa, 'routes fetched successfully', routes, 200, { rankedBy: ROUTES_RANKED_BY });
    return bytes(koa.body);
  };
}

const sides = { this: await side(resolve('.')), other: await side(resolve(other)) };
const { parseQuoteRequest } = await import('../src/quote/quoteRequest.ts');
const { tradeSearch } = await import('../src/routing/TradeFinder.ts');
const bodies = variedQuoteBodies(20, { maxPriceImpactBps: 10_000 });
/** The worker's answer to each body, encoded as it crosses the thread boundary; decoded afresh per request. */
const answers = bodies.map((body): Answer => {
  const request = parseQuoteRequest(JSON.parse(body), catalog, config.defaultSlippageBps);
  const search: TradeSearch = tradeSearch(request.originChain, request, request.limits, true);
  const trades = serialize(encodeTrades(findTrades(pricing, search)));
  const routes = serialize(findRoutes(pricing, { ...search, slippageBps: request.slippageBps }));
  return { trades: () => decodeTrades(deserialize(trades)), routes: () => deserialize(routes) };
});

let same = 0;
for (const [i, body] of bodies.entries()) {
  const a = await sides.this(body, answers[i]);
  const b = await sides.other(body, answers[i]);
  if (a.equals(b)) same++;
}
process.stdout.write(`${same} of ${bodies.length} responses byte-identical between the two checkouts\n`);

/** CPU µs per request over `ms` of repeats of the mix. */
async function timed(name: 'this' | 'other', ms: number): Promise<number> {
  const run = sides[name];
  const cpu = process.cpuUsage();
  let n = 0;
  for (const t0 = performance.now(); performance.now() - t0 < ms; )
    for (const [i, body] of bodies.entries()) {
      await run(body, answers[i]);
      n++;
    }
  const used = process.cpuUsage(cpu);
  return (used.user + used.system) / n;
}
for (const name of ['other', 'this', 'other', 'this'] as const) await timed(name, 2000);
const rounds: Record<'this' | 'other', number[]> = { this: [], other: [] };
for (let round = 0; round < Number(process.env.BENCH_ROUNDS ?? 15); round++)
  for (const name of round % 2 ? (['this', 'other'] as const) : (['other', 'this'] as const)) rounds[name].push(await timed(name, 500));
const median = (a: number[]): number => [...a].sort((x, y) => x - y)[a.length >> 1];
for (const name of ['this', 'other'] as const)
  process.stdout.write(
    `${name === 'this' ? 'this checkout' : other}: ${median(rounds[name]).toFixed(1)} µs CPU per request (rounds ${rounds[name].map((x) => x.toFixed(1)).join(' ')})\n`,
  );
