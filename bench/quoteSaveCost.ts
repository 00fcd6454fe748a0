/**
 * `REDIS_URL=redis://127.0.0.1:6379 npm run ts -- bench/quoteSaveCost.ts`: where the CPU of saving one quote in Redis
 * goes, layer by layer. 200 quotes of bench:http's default-routing mix (bench/lib/quoteMix.ts) are built once (in
 * memory); then each variant below saves them one at a time, BENCH_SAVES (default 3,000) per round, the variants
 * interleaved over BENCH_ROUNDS (default 9) rounds. Prints the median process CPU (user + system, and system alone)
 * µs per save:
 * - `stringify`: the entry's JSON text alone (the quote's, which the response needs anyway, and the request's);
 * - `store`: QuoteStore.save, as POST /quotes calls it (Keyv, @keyv/redis, node-redis, RedisConnection.run);
 * - `node-redis`: the same SET (same key form, entry bytes and PX) sent with `client.sendCommand` on a node-redis client;
 * - `socket`: the same SET written by hand on a plain net.Socket, its `+OK` awaited (the floor of one round trip);
 * - `socket-100B`: the same with a 100-byte value (what the round trip costs whatever the size).
 * Keys live under `bench:save:<pid>` and expire after 60 s.
 */
import { connect } from 'node:net';
import { loadCatalog } from '../src/catalog/loadCatalog.ts';
import { PoolGraph } from '../src/graph/PoolGraph.ts';
import { loadSnapshots } from '../src/graph/snapshot.ts';
import { createPricer } from '../src/quote/Pricer.ts';
import { QUOTE_VALIDITY_SECONDS } from '../src/quote/Quote.ts';
import { quoteContext } from '../src/quote/quoteContext.ts';
import { parseQuoteRequest } from '../src/quote/quoteRequest.ts';
import { sameChainQuote } from '../src/quote/sameChainQuote.ts';
import { saveQuote } from '../src/quote/saveQuote.ts';
import { createQuoteStore, type QuoteStore, type QuoteToSave } from '../src/store/quoteStore.ts';
import { RedisConnection } from '../src/store/RedisConnection.ts';
import { variedQuoteBodies } from './lib/quoteMix.ts';
import { shippedConfig } from './lib/shippedConfig.ts';

const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const SAVES = Number(process.env.BENCH_SAVES ?? 3_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
const TTL_MS = 60_000;
const namespace = `bench:save:${process.pid}`;

/** The quotes of the default-routing mix as saveQuote hands them to the store. */
async function sampleQuotes(): Promise<QuoteToSave[]> {
  const config = shippedConfig({ QUOTE_TTL_SECONDS: '60' });
  const catalog = loadCatalog(config.catalogDir);
  const graph = new PoolGraph(loadSnapshots(config.snapshotDir).snapshots, catalog);
  const pricer = createPricer(config, { graph: () => graph, catalog });
  const memory = createQuoteStore(config);
  const saved: QuoteToSave[] = [];
  const store: QuoteStore = { ...memory, kind: memory.kind, get: memory.get, ping: memory.ping, close: memory.close };
  store.save = (quote) => {
    saved.push(quote);
    return memory.save(quote);
  };
  const ctx = quoteContext({ catalog, graph: () => graph, pricer, store });
  try {
    for (const body of variedQuoteBodies(200, { maxPriceImpactBps: 10_000 })) {
      const request = parseQuoteRequest(JSON.parse(body), catalog, config.defaultSlippageBps);
      const createdMs = Date.now();
      const deadline = Math.floor(createdMs / 1000) + QUOTE_VALIDITY_SECONDS;
      await saveQuote(ctx, { request, orgId: 'bench', createdMs, deadline }, await sameChainQuote(ctx, request, deadline));
    }
  } finally {
    await pricer.close();
    await memory.close();
  }
  return saved;
}

/** SET commands written by hand on one socket, each answered `+OK\r\n` in order. */
async function plainSocket(): Promise<{ set: (key: string, value: string) => Promise<void>; close: () => void }> {
  const url = new URL(REDIS_URL);
  const socket = connect(Number(url.port || 6379), url.hostname);
  await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  socket.setNoDelay(true);
  const waiting: (() => void)[] = [];
  let unread = 0;
  socket.on('data', (chunk: Buffer) => {
    for (unread += chunk.length; unread >= 5; unread -= 5) waiting.shift()?.();
  });
  const bulk = (text: string) => `$${Buffer.byteLength(text)}\r\n${text}\r\n`;
  return {
    set: (key, value) =>
      new Promise((resolve) => {
        waiting.push(resolve);
        socket.write(`*5\r\n$3\r\nSET\r\n${bulk(key)}${bulk(value)}$2\r\nPX\r\n${bulk(String(TTL_MS))}`);
      }),
    close: () => socket.destroy(),
  };
}

const quotes = await sampleQuotes();
const store = createQuoteStore({ redisUrl: REDIS_URL, quoteTtlSeconds: TTL_MS / 1000 }, { namespace });
const connection = new RedisConnection(REDIS_URL);
const socket = await plainSocket();
if (!(await store.ping()) || !(await connection.ping())) throw new Error(`Redis does not answer at ${REDIS_URL}`);

let n = 0;
/** A quote under a fresh id (2,000 ids in turn: keys are overwritten, Redis memory stays bounded). */
const next = (i: number): QuoteToSave => {
  const stored = quotes[i % quotes.length];
  return { ...stored, quote: { ...stored.quote, quoteId: `q${n++ % 2_000}` } };
};
/**
 * The store's key and entry bytes (test/store/quoteStore.test.ts: the entry is JSON.stringify of Keyv's record), the
 * record serialized from its objects (the quote's own text, `json`, left out: saveQuote writes it before the store).
 */
const key = (stored: QuoteToSave) => `${namespace}::${stored.quote.quoteId}`;
const entry = ({ json: _text, ...record }: QuoteToSave) => JSON.stringify({ value: record, expires: Date.now() + TTL_MS });
const small = 'x'.repeat(100);

const variants: Record<string, (stored: QuoteToSave) => Promise<unknown>> = {
  stringify: async (stored) => entry(stored),
  store: (stored) => store.save(stored),
  'node-redis': (stored) => connection.client.sendCommand(['SET', key(stored), entry(stored), 'PX', String(TTL_MS)]),
  socket: (stored) => socket.set(key(stored), entry(stored)),
  'socket-100B': (stored) => socket.set(key(stored), small),
};
const cpu: Record<string, { total: number[]; system: number[] }> = {};
try {
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, save] of Object.entries(variants)) {
      for (let i = 0; i < 500; i++) await save(next(i));
      const started = process.cpuUsage();
      for (let i = 0; i < SAVES; i++) await save(next(i));
      const used = process.cpuUsage(started);
      cpu[name] ??= { total: [], system: [] };
      cpu[name].total.push((used.user + used.system) / SAVES);
      cpu[name].system.push(used.system / SAVES);
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1].toFixed(1);
  const bytes = quotes.reduce((s, q) => s + Buffer.byteLength(entry(q)), 0) / quotes.length;
  process.stdout.write(`one quote saved at a time (${bytes.toFixed(0)} B entries), median of ${ROUNDS} rounds of ${SAVES}:\n`);
  for (const [name, { total, system }] of Object.entries(cpu)) {
    process.stdout.write(`  ${name.padEnd(12)} ${median(total).padStart(6)} µs CPU per save (system ${median(system)})\n`);
  }
} finally {
  socket.close();
  await connection.close();
  await store.close();
}
