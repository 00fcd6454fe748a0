/**
 * `npm run ts -- bench/apiThread.ts <other checkout> 2>&1 >/dev/null`: the API thread's CPU per default
 * `POST /quotes/routes` with the whole HTTP stack, this checkout against another in alternating rounds in one
 * process. Each side is the app as src/index.ts builds it from that checkout's modules (createApp, QuoteService, the
 * real pricing worker, LOG_LEVEL info through createLogger: its lines go to standard output, the figures to standard
 * error), served by Node's HTTP server over in-memory connections at c=50 (Duplex streams handed to the server as
 * sockets: Node's HTTP parser, Koa, the routes and the response writes run as on a socket; the kernel's socket work and
 * the load generator's do not). Per round: the main thread's CPU per response (/proc/self/task/<pid>/schedstat); the
 * median of each side and of the two sides' ratio within a round (the load of a shared machine drifts between rounds).
 * Environment: BENCH_ROUNDS (per side, default 12), BENCH_WARM (warm-up requests per side, default 15,000),
 * BENCH_REQUESTS (per round, default 2,000), BENCH_ANSWERS (`recorded`: no pricing worker; each search is answered with
 * the worker's answer to it, priced once at start (the trades encoded, and the routes described where this checkout's
 * Pricer has findRoutes) and kept as the bytes of its structured clone (v8.serialize), read per request
 * (v8.deserialize, then decoded as the Pricer decodes trades), so the main thread runs alone and only the API thread's
 * own work is measured; `refused`: bench:http's routes-refused bodies, answered
 * 400 by validation before any pricing: the request path alone).
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { resolve } from 'node:path';
import { Duplex } from 'node:stream';
import { deserialize, serialize } from 'node:v8';
import { loadCatalog } from '../src/catalog/loadCatalog.ts';
import { PoolGraph } from '../src/graph/PoolGraph.ts';
import { pricingGraphOf } from '../src/graph/PricingGraph.ts';
import { loadSnapshots } from '../src/graph/snapshot.ts';
import { describedRoutes } from '../src/quote/describedRoutes.ts';
import { parseQuoteRequest } from '../src/quote/quoteRequest.ts';
import { findTrades } from '../src/quote/TradeTask.ts';
import { decodeTrades, type EncodedTrades, encodeTrades } from '../src/quote/tradeCodec.ts';
import { type TradeSearch, tradeSearch } from '../src/routing/TradeFinder.ts';
import { variedQuoteBodies } from './lib/quoteMix.ts';
import { shippedConfig } from './lib/shippedConfig.ts';

const other = process.argv[2];
if (!other) throw new Error('usage: npm run ts -- bench/apiThread.ts <other checkout of the project> 2>&1 >/dev/null');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 12);
const WARM = Number(process.env.BENCH_WARM ?? 15_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2_000);
const REFUSED = process.env.BENCH_ANSWERS === 'refused';
const RECORDED = REFUSED || process.env.BENCH_ANSWERS === 'recorded';
const CONNECTIONS = 50;

const config = shippedConfig({ LOG_LEVEL: 'info', DATA_DIR: process.env.BENCH_DATA_DIR ?? '/tmp' });
// `refused`: bench:http's routes-refused bodies (a chain the catalogue does not have): 400 before any pricing.
const bodies = variedQuoteBodies(200, { maxPriceImpactBps: 10_000, ...(REFUSED ? { originChainId: 999 } : {}) });
const STATUS = REFUSED ? 400 : 200;

/** The worker's answer to each search of the mix, encoded as it crosses the thread boundary (BENCH_ANSWERS=recorded). */
const searchKey = (s: TradeSearch): string => `${s.tokenIn}/${s.tokenOut}/${s.tradeType}/${s.amount}`;
const answers = new Map<string, { trades: Buffer; routes: Buffer }>();
if (RECORDED && !REFUSED) {
  const catalog = loadCatalog(config.catalogDir);
  const pricing = pricingGraphOf(new PoolGraph(loadSnapshots(config.snapshotDir).snapshots, catalog), catalog);
  for (const body of bodies) {
    const request = parseQuoteRequest(JSON.parse(body), catalog, config.defaultSlippageBps);
    const search = tradeSearch(request.originChain, request, request.limits, true);
    const trades = findTrades(pricing, search);
    const routes = describedRoutes(catalog, { ...search, slippageBps: request.slippageBps }, trades);
    answers.set(searchKey(search), { trades: serialize(encodeTrades(trades)), routes: serialize(routes) });
  }
}

/** One side: the app built from `root`'s modules, served by an HTTP server that is never listening. */
async function sideServer(root: string): Promise<Server> {
  const load = async <T>(path: string): Promise<T> => (await import(`${root}/src/${path}`)) as T;
  const { createApp } = await load<typeof import('../src/app.ts')>('app.ts');
  const { createLogger } = await load<typeof import('../src/logger.ts')>('logger.ts');
  const { loadCatalog } = await load<typeof import('../src/catalog/loadCatalog.ts')>('catalog/loadCatalog.ts');
  const { PoolGraph } = await load<typeof import('../src/graph/PoolGraph.ts')>('graph/PoolGraph.ts');
  const { loadSnapshots } = await load<typeof import('../src/graph/snapshot.ts')>('graph/snapshot.ts');
  const { createPricer } = await load<typeof import('../src/quote/Pricer.ts')>('quote/Pricer.ts');
  const { QuoteService } = await load<typeof import('../src/quote/quoteService.ts')>('quote/quoteService.ts');
  const { createApiKeyStore } = await load<typeof import('../src/store/apiKeyStore.ts')>('store/apiKeyStore.ts');
  const { createQuoteStore } = await load<typeof import('../src/store/quoteStore.ts')>('store/quoteStore.ts');
  const logger = createLogger(config.logLevel);
  const catalog = loadCatalog(config.catalogDir);
  const graph = new PoolGraph(loadSnapshots(config.snapshotDir).snapshots, catalog);
  const pricer = RECORDED
    ? ({
        findTrades: async (search: TradeSearch) => decodeTrades(deserialize(answers.get(searchKey(search))!.trades) as EncodedTrades),
        findRoutes: async (search: TradeSearch) => deserialize(answers.get(searchKey(search))!.routes),
      } as never)
    : createPricer(config, { graph: () => graph, catalog });
  const store = createQuoteStore(config);
  const keys = createApiKeyStore(config, { logger });
  const quotes = new QuoteService({ catalog, graph: () => graph, pricer, store });
  const app = createApp({
    config,
    catalog,
    graph: () => graph,
    logger,
    quotes: { catalog, quotes, store, keys, defaultSlippageBps: config.defaultSlippageBps },
    pricer: RECORDED ? undefined : pricer,
  });
  return createServer(app.callback());
}

const requests = bodies.map((body) =>
  Buffer.from(
    `POST /quotes/routes HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  ),
);

/** A connection in memory: what the server writes is read back as HTTP responses; each complete one calls onResponse. */
class Connection extends Duplex {
  private received: Buffer = Buffer.alloc(0);
  constructor(private readonly onResponse: (status: number) => void) {
    super();
  }
  override _read(): void {}
  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: () => void): void {
    this.received = this.received.length === 0 ? chunk : Buffer.concat([this.received, chunk]);
    for (;;) {
      const end = this.received.indexOf('\r\n\r\n');
      if (end < 0) break;
      const head = this.received.subarray(0, end).toString('latin1');
      const length = Number(/\r\ncontent-length: (\d+)/i.exec(head)?.[1] ?? 0);
      if (this.received.length < end + 4 + length) break;
      this.received = this.received.subarray(end + 4 + length);
      this.onResponse(Number(head.slice(9, 12)));
    }
    callback();
  }
}

let next = 0;
/** Sends `count` requests of the mix to `server` over CONNECTIONS connections; resolves when every answer is in. */
function load(server: Server, count: number): Promise<void> {
  return new Promise((done, fail) => {
    let sent = 0;
    let answered = 0;
    const connections: Connection[] = [];
    const send = (c: Connection) => {
      if (sent >= count) return;
      sent++;
      c.push(requests[next++ % requests.length]);
    };
    for (let i = 0; i < Math.min(CONNECTIONS, count); i++) {
      const c = new Connection((status) => {
        if (status !== STATUS) fail(new Error(`an answer was ${status}, not ${STATUS}`));
        if (++answered === count) {
          for (const x of connections) x.destroy();
          done();
        } else send(c);
      });
      connections.push(c);
      server.emit('connection', c);
      send(c);
    }
  });
}

/** The main thread's CPU so far, µs (the pricing workers' threads are not counted). */
const mainThreadUs = (): number => Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]) / 1000;

const sides = { this: await sideServer(resolve('.')), other: await sideServer(resolve(other)) };
for (let done = 0; done < WARM; done += 1000) for (const side of ['this', 'other'] as const) await load(sides[side], 1000);
const perRequest: Record<'this' | 'other', number[]> = { this: [], other: [] };
for (let round = 0; round < ROUNDS; round++)
  for (const side of round % 2 ? (['this', 'other'] as const) : (['other', 'this'] as const)) {
    const cpu = mainThreadUs();
    await load(sides[side], REQUESTS);
    perRequest[side].push((mainThreadUs() - cpu) / REQUESTS);
  }
const median = (a: number[]): number => [...a].sort((x, y) => x - y)[a.length >> 1];
process.stderr.write(
  `API thread CPU per default POST /quotes/routes (${REFUSED ? 'refused by validation' : RECORDED ? 'recorded answers, no worker' : 'pricing worker'}), ${ROUNDS} alternating rounds of ${REQUESTS}:\n`,
);
const ratios = perRequest.this.map((x, i) => x / perRequest.other[i]);
process.stderr.write(
  `  this / other within a round: median ${median(ratios).toFixed(3)} (rounds ${ratios.map((x) => x.toFixed(2)).join(' ')})\n`,
);
for (const side of ['this', 'other'] as const)
  process.stderr.write(
    `  ${side === 'this' ? 'this checkout' : other}: median ${median(perRequest[side]).toFixed(1)} µs (rounds ${perRequest[side].map((x) => x.toFixed(0)).join(' ')})\n`,
  );
process.exit(0);
