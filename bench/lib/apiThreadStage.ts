/**
 * One checkout's part of bench/apiThread.ts (run by it under each checkout, its output JSON on standard error;
 * standard output has the service's log): the app as src/index.ts builds it (createApp, the real pricing worker, LOG_LEVEL info through
 * createLogger) served by Node's HTTP server over in-memory connections (Duplex streams handed to the server as
 * sockets: Node's HTTP parser, Koa, the routes and the response writes run as on a socket; the kernel's socket work does
 * not). `argv`: warm-up requests, requests per round, rounds. Per round: the API (main) thread's CPU per response
 * (/proc/self/task/<pid>/schedstat, ns) and responses per second. BENCH_ANSWERS=recorded: no pricing worker; each
 * search is answered with the worker's answer to it, priced once at start (findTrades) and decoded per request as
 * the Pricer decodes it, so the main thread runs alone (no worker competing for the cores, no Piscina messages).
 */

import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { Duplex } from 'node:stream';
import { createApp } from '../../src/app.ts';
import { loadCatalog } from '../../src/catalog/loadCatalog.ts';
import { PoolGraph } from '../../src/graph/PoolGraph.ts';
import { pricingGraphOf } from '../../src/graph/PricingGraph.ts';
import { loadSnapshots } from '../../src/graph/snapshot.ts';
import { createLogger } from '../../src/logger.ts';
import { createPricer, type Pricer } from '../../src/quote/Pricer.ts';
import { parseQuoteRequest } from '../../src/quote/quoteRequest.ts';
import { QuoteService } from '../../src/quote/quoteService.ts';
import { findTrades } from '../../src/quote/TradeTask.ts';
import { decodeTrades, type EncodedTrades, encodeTrades } from '../../src/quote/tradeCodec.ts';
import { type TradeFinder, type TradeSearch, tradeSearch } from '../../src/routing/TradeFinder.ts';
import { createApiKeyStore } from '../../src/store/apiKeyStore.ts';
import { createQuoteStore } from '../../src/store/quoteStore.ts';
import { variedQuoteBodies } from './quoteMix.ts';
import { shippedConfig } from './shippedConfig.ts';

const [warm, perRound, rounds] = process.argv.slice(2).map(Number);
const CONNECTIONS = 50;

const config = shippedConfig({ LOG_LEVEL: 'info', DATA_DIR: process.env.BENCH_DATA_DIR ?? '/tmp' });
const logger = createLogger(config.logLevel);
const catalog = loadCatalog(config.catalogDir);
const graph = new PoolGraph(loadSnapshots(config.snapshotDir).snapshots, catalog);
const RECORDED = process.env.BENCH_ANSWERS === 'recorded';
const pricer = RECORDED ? await recordedPricer() : createPricer(config, { graph: () => graph, catalog });
const store = createQuoteStore(config);
const keys = createApiKeyStore(config, { logger });
const quotes = new QuoteService({ catalog, graph: () => graph, pricer: pricer as Pricer, store });
const app = createApp({
  config,
  catalog,
  graph: () => graph,
  logger,
  quotes: { catalog, quotes, store, keys, defaultSlippageBps: config.defaultSlippageBps },
  pricer: RECORDED ? undefined : (pricer as Pricer),
});
const server = createServer(app.callback());

/** A finder answering each search of the mix with the worker's answer, priced here once (see BENCH_ANSWERS). */
async function recordedPricer(): Promise<TradeFinder & { close(): Promise<void> }> {
  const pricing = pricingGraphOf(graph, catalog);
  const key = (s: TradeSearch) => `${s.tokenIn}/${s.tokenOut}/${s.tradeType}/${s.amount}`;
  const answers = new Map<string, EncodedTrades>();
  for (const body of variedQuoteBodies(200, { maxPriceImpactBps: 10_000 })) {
    const request = parseQuoteRequest(JSON.parse(body), catalog, config.defaultSlippageBps);
    const search = tradeSearch(request.originChain, request, request.limits, true);
    answers.set(key(search), encodeTrades(findTrades(pricing, search)));
  }
  return { findTrades: async (search) => decodeTrades(answers.get(key(search))!), close: async () => undefined };
}
const requests = variedQuoteBodies(200, { maxPriceImpactBps: 10_000 }).map((body) =>
  Buffer.from(
    `POST /quotes/routes HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  ),
);

/** A connection in memory: what the server writes is read back as HTTP responses; each complete one sends the next request. */
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
let failures = 0;
/** Sends `count` requests over CONNECTIONS connections, resolving when every answer is in. */
function load(count: number): Promise<void> {
  return new Promise((resolve) => {
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
        if (status !== 200) failures++;
        if (++answered === count) {
          for (const x of connections) x.destroy();
          resolve();
        } else send(c);
      });
      connections.push(c);
      server.emit('connection', c);
      send(c);
    }
  });
}

/** The main thread's CPU so far, ns. */
const mainThreadNs = (): number => Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]);

await load(warm);
const results: { cpuUsPerRequest: number; rps: number }[] = [];
for (let round = 0; round < rounds; round++) {
  const cpu = mainThreadNs();
  const t = performance.now();
  await load(perRound);
  results.push({ cpuUsPerRequest: (mainThreadNs() - cpu) / 1000 / perRound, rps: (perRound * 1000) / (performance.now() - t) });
}
await pricer.close();
process.stderr.write(`${JSON.stringify({ results, failures })}\n`);
process.exit(0);
