/**
 * `npm run ts -- bench/tradeCodec.ts <other checkout>`: the CPU cost of a pricing worker's answers crossing to the API
 * thread (src/quote/tradeCodec.ts), this checkout's codec against another checkout's, in one process. The answers are
 * the varied default-routing devnet mix's (bench/lib/quoteMix.ts, one search per DEX deployment, as POST
 * /quotes/routes sends), searched once with this checkout's code. Each side is timed as the service runs it, in batches
 * of 8 tasks (Pricer's MAX_BATCH): the worker's part (encodeTrades of each answer, then the structured clone's write of
 * the batch, v8.serialize) and the API thread's (the clone's read, v8.deserialize, decodeTrades, then describeTrade of
 * every trade found, which looks each hop's tokens up by address). 15 alternating rounds of 300 ms per part after a
 * warm-up; prints the median CPU µs per answer of each part and checkout. First it checks that both codecs give back the
 * same trades (serialized, bigints included).
 */
import { resolve } from 'node:path';
import * as v8 from 'node:v8';
import { parseUnits } from 'viem';
import { deploymentId } from '../src/catalog/Catalog.ts';
import { pricingGraphOf } from '../src/graph/PricingGraph.ts';
import { findTrades } from '../src/quote/TradeTask.ts';
import type { DeploymentTrade } from '../src/routing/bestTradesByDeployment.ts';
import { describeTrade } from '../src/routing/describeTrade.ts';
import { defaultLimits } from '../src/routing/RoutingLimits.ts';
import { shippedDevnetGraph } from '../test/helpers/shippedDevnet.ts';
import { variedQuoteBodies } from './lib/quoteMix.ts';

const other = process.argv[2];
if (!other) throw new Error('usage: npm run ts -- bench/tradeCodec.ts <other checkout of the project>');
type Codec = {
  encodeTrades(trades: readonly DeploymentTrade[]): unknown[];
  decodeTrades(data: unknown[]): DeploymentTrade[];
};
const codecs: Record<'this' | 'other', Codec> = {
  this: await import('../src/quote/tradeCodec.ts'),
  other: await import(`${resolve(other)}/src/quote/tradeCodec.ts`),
};

const { catalog, graph: pools, chain } = shippedDevnetGraph();
const graph = pricingGraphOf(pools, catalog);
const limits = defaultLimits(chain.dexes.map((d) => deploymentId(d.slug, d.version)));
const answers = variedQuoteBodies(10).map((body) => {
  const b = JSON.parse(body) as { tokenIn: string; tokenOut: string; amount: string };
  const tokenIn = b.tokenIn.toLowerCase();
  const amount = parseUnits(b.amount, catalog.token(chain.chainId, tokenIn)!.decimals);
  const search = { chainId: chain.chainId, tokenIn, tokenOut: b.tokenOut.toLowerCase(), tradeType: 'exactIn' as const, amount, limits };
  return findTrades(graph, { ...search, perDeployment: true });
});
const batches: DeploymentTrade[][][] = [];
for (let i = 0; i < answers.length; i += 8) batches.push(answers.slice(i, i + 8));
const tokenOf = (address: string) => catalog.token(chain.chainId, address)!;

/** The worker's part of each batch: the answers encoded and the batch's message written (Piscina's envelope around it). */
const send = (codec: Codec): Buffer[] =>
  batches.map((batch) => v8.serialize({ taskId: 1, result: batch.map((trades) => ({ ok: true, trades: codec.encodeTrades(trades) })) }));
/** The API thread's part: the message read, each answer decoded and its trades described. */
const receive = (codec: Codec, messages: readonly Buffer[]): number => {
  let hops = 0;
  for (const message of messages)
    for (const { trades } of (v8.deserialize(message) as { result: { trades: unknown[] }[] }).result)
      for (const { outcome } of codec.decodeTrades(trades))
        if (outcome.ok) hops += describeTrade(chain, outcome.trade, tokenOf).paths.length;
  return hops;
};

const text = (trades: readonly DeploymentTrade[]): string =>
  JSON.stringify(trades, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));
for (const side of ['this', 'other'] as const) {
  const back = send(codecs[side]).flatMap((m) =>
    (v8.deserialize(m) as { result: { trades: unknown[] }[] }).result.map((r) => codecs[side].decodeTrades(r.trades)),
  );
  const same = back.filter((trades, i) => text(trades) === text(answers[i])).length;
  process.stdout.write(`${side}: ${same} of ${answers.length} answers decoded as priced\n`);
}
const bytes = (side: 'this' | 'other'): number => send(codecs[side]).reduce((n, m) => n + m.length, 0) / answers.length;
process.stdout.write(`message bytes per answer: this ${bytes('this').toFixed(0)}, other ${bytes('other').toFixed(0)}\n`);

const messages = { this: send(codecs.this), other: send(codecs.other) };
const parts = {
  worker: (side: 'this' | 'other') => send(codecs[side]).length,
  api: (side: 'this' | 'other') => receive(codecs[side], messages[side]),
};
/** CPU µs per answer of one part over `ms` of repeats. */
const timed = (part: keyof typeof parts, side: 'this' | 'other', ms: number): number => {
  const cpu = process.cpuUsage();
  let n = 0;
  for (const t0 = performance.now(); performance.now() - t0 < ms; n += answers.length) parts[part](side);
  const used = process.cpuUsage(cpu);
  return (used.user + used.system) / n;
};
for (const part of ['worker', 'api'] as const) for (const side of ['other', 'this'] as const) timed(part, side, 1500);
const median = (a: number[]): number => [...a].sort((x, y) => x - y)[a.length >> 1];
for (const part of ['worker', 'api'] as const) {
  const perAnswer: Record<'this' | 'other', number[]> = { this: [], other: [] };
  for (let round = 0; round < 15; round++)
    for (const side of round % 2 ? (['this', 'other'] as const) : (['other', 'this'] as const))
      perAnswer[side].push(timed(part, side, 300));
  const rounds = (a: number[]): string => a.map((x) => x.toFixed(1)).join(' ');
  process.stdout.write(`${part === 'worker' ? "worker's part" : "API thread's part"}, ${answers.length} default-routing answers:\n`);
  process.stdout.write(`  this checkout: ${median(perAnswer.this).toFixed(2)} µs CPU per answer (rounds: ${rounds(perAnswer.this)})\n`);
  process.stdout.write(`  ${other}: ${median(perAnswer.other).toFixed(2)} µs CPU per answer (rounds: ${rounds(perAnswer.other)})\n`);
}
