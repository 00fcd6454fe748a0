// Responses stay byte-identical across hot-path work: a recorded sample of requests (both quote endpoints, one pool
// and default routing, exact input and output, refusals, catalogue endpoints) over the shipped catalogue and devnet
// snapshot, answered at a fixed clock, compared byte for byte with the bodies recorded before the change
// (test/fixtures/responses/sample.json). Only the random quoteId is replaced before comparing; bodies over 16 kB are
// compared by length and SHA-256.
// The recording is a change detector, not an oracle: so every pool hop of every quote answered is also checked
// against the Uniswap SDKs (@uniswap/v3-sdk Pool, @uniswap/v2-sdk Pair over the same snapshot), whether comparing
// or recording, and recording is refused under CI.
// Re-record (only when a change of behaviour is intended, and say so in the commit): RECORD_RESPONSES=1 npx tap test/quote/responseSample.test.ts
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { variedQuoteBodies } from '../../bench/lib/quoteMix.ts';
import { SdkPools, sdkAmount, sdkRaw, sdkV2Pair, sdkV3Pool } from '../helpers/sdkPools.ts';

const FIXED_MS = Date.UTC(2026, 10, 1, 12, 0, 0);
Date.now = () => FIXED_MS;
const { buildQuoteTestApp } = await import('../helpers/quoteTestApp.ts');

const FIXTURE = fileURLToPath(new URL('../fixtures/responses/sample.json', import.meta.url));
const SNAPSHOT = fileURLToPath(new URL('../../seeds/snapshots/devnet.json', import.meta.url));
const recording = process.env.RECORD_RESPONSES === '1';
if (recording && process.env.CI === 'true') {
  // A recording run passes by construction: in CI it would turn any change of behaviour into a green build.
  throw new Error('RECORD_RESPONSES=1 is refused under CI=true: record locally and commit the fixture with the reason');
}
const q = buildQuoteTestApp({
  catalogDir: fileURLToPath(new URL('../../catalog', import.meta.url)),
  snapshotDir: fileURLToPath(new URL('../../seeds/snapshots', import.meta.url)),
});
t.teardown(() => q.close());
const { key } = await q.keys.create('org-sample');

interface Sample {
  method: 'GET' | 'POST';
  url: string;
  body?: string;
  status?: number;
  text?: string;
}

const withFields = (bodies: string[], extra: Record<string, unknown>): string[] =>
  bodies.map((b) => JSON.stringify({ ...JSON.parse(b), ...extra }));
const single = variedQuoteBodies(2, { maxHops: 1, maxSplits: 1 });
const routed = variedQuoteBodies(1);
const samples: Sample[] = [
  ...single.map((body) => ({ method: 'POST' as const, url: '/quotes/routes', body })),
  ...routed.map((body) => ({ method: 'POST' as const, url: '/quotes/routes', body })),
  ...single.slice(0, 14).map((body) => ({ method: 'POST' as const, url: '/quotes', body })),
  ...routed.map((body) => ({ method: 'POST' as const, url: '/quotes', body })),
  ...withFields(routed.slice(0, 6), { tradeType: 'exactOut', amount: '100' }).map((body) => ({
    method: 'POST' as const,
    url: '/quotes/routes',
    body,
  })),
  ...withFields(routed.slice(0, 6), { tradeType: 'exactOut', amount: '100' }).map((body) => ({
    method: 'POST' as const,
    url: '/quotes',
    body,
  })),
  ...withFields(routed.slice(0, 3), { amount: '1.2.3' }).map((body) => ({ method: 'POST' as const, url: '/quotes/routes', body })),
  ...withFields(routed.slice(0, 3), { amount: '100000000000' }).map((body) => ({ method: 'POST' as const, url: '/quotes/routes', body })),
  ...withFields(routed.slice(0, 2), { maxHops: 4, gasPriceWei: 'x' }).map((body) => ({ method: 'POST' as const, url: '/quotes', body })),
  // Above the default maxPriceImpactBps some of the bodies above are refused: allowed any impact, they are priced (and
  // their hops checked) with their HIGH_PRICE_IMPACT warnings.
  ...withFields(routed, { maxPriceImpactBps: 10000 }).map((body) => ({ method: 'POST' as const, url: '/quotes/routes', body })),
  { method: 'GET', url: '/blockchains' },
  { method: 'GET', url: '/blockchains/tokens' },
  { method: 'GET', url: '/blockchains/tokens?chainId=31337' },
  { method: 'GET', url: '/blockchains/pools?chainId=31337' },
];

const answered: Sample[] = [];
for (const s of samples) {
  const res = await q.request(s.method, s.url, {
    ...(s.body ? { payload: s.body, headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` } } : {}),
  });
  const text = res.text.replace(/"quoteId":"[0-9a-f-]{36}"/g, '"quoteId":"(random)"');
  // Large catalogue bodies are kept as their length and SHA-256 (still a byte-for-byte comparison).
  answered.push({
    ...s,
    status: res.status,
    text: text.length > 16_000 ? `${text.length} bytes, sha256 ${createHash('sha256').update(text).digest('hex')}` : text,
  });
}

interface Hop {
  dex: string;
  version: string;
  pool: string;
  fee: number;
  tokenIn: string;
  tokenOut: string;
  amountIn: string;
  amountOut: string;
}
interface QuotedRoute {
  tradeType: 'exactIn' | 'exactOut';
  amountIn: string;
  amountOut: string;
  paths: { amountIn: string; amountOut: string; hops: Hop[]; stages?: { hops: number; amountOut: string; amountOutMinimum: string }[] }[];
}

/**
 * The pool hops (by index among a path's hops) that start a later stage of a path of stages: each takes the previous
 * stage's output less the request's slippage, floored (the hand-over), not the previous hop's output.
 */
function handoverHops(p: QuotedRoute['paths'][number]): Set<number> {
  const at = new Set<number>();
  if (!p.stages) return at;
  const starts = new Set<number>();
  let pools = 0;
  for (const s of p.stages.slice(0, -1)) {
    pools += s.hops;
    starts.add(pools);
  }
  let pool = 0;
  p.hops.forEach((h, i) => {
    if (h.dex === 'wrap') return;
    if (starts.has(pool)) at.add(i);
    pool++;
  });
  return at;
}

t.test('every pool hop of the quotes answered equals the Uniswap SDKs on the same snapshot', async (t) => {
  const snapshot = JSON.parse(readFileSync(SNAPSHOT, 'utf8')) as ConstructorParameters<typeof SdkPools>[0];
  // Raw amounts do not depend on decimals; SdkPools only gives one SDK token instance per address.
  const tokens = new SdkPools({ ...snapshot, pools: [] }, () => 18);
  const pools = new Map(snapshot.pools.map((p) => [p.address.toLowerCase(), p]));
  let checked = 0;
  let wraps = 0;
  let sharedPools = 0;
  const failures: string[] = [];
  for (const a of answered) {
    if (a.status !== 200 || !a.url.startsWith('/quotes') || a.text === undefined) continue;
    const { data } = JSON.parse(a.text) as { data: QuotedRoute | QuotedRoute[] };
    for (const route of Array.isArray(data) ? data : [data]) {
      // The amounts add up: hops chain (a wrap hop is 1:1), paths start and end with their hops, the route is the sum.
      const sum = (xs: string[]): bigint => xs.reduce((x, y) => x + BigInt(y), 0n);
      const slippage = (JSON.parse(a.body ?? '{}') as { slippageBps?: unknown }).slippageBps;
      const bps = BigInt(typeof slippage === 'number' ? slippage : 50);
      const chained = route.paths.every((p) => {
        const handovers = handoverHops(p);
        const takes = (i: number): string =>
          handovers.has(i) ? ((BigInt(p.hops[i - 1].amountOut) * (10_000n - bps)) / 10_000n).toString() : p.hops[i - 1].amountOut;
        return (
          p.amountIn === p.hops[0]?.amountIn &&
          p.amountOut === p.hops[p.hops.length - 1]?.amountOut &&
          p.hops.every((h, i) => (i === 0 || h.amountIn === takes(i)) && (h.dex !== 'wrap' || h.amountIn === h.amountOut))
        );
      });
      if (
        !chained ||
        sum(route.paths.map((p) => p.amountIn)) !== BigInt(route.amountIn) ||
        sum(route.paths.map((p) => p.amountOut)) !== BigInt(route.amountOut)
      )
        failures.push(`${a.url} ${a.body}: route amounts do not add up over its paths and hops`);
      const hops = route.paths.flatMap((p) => p.hops).filter((h) => h.dex !== 'wrap');
      wraps += route.paths.flatMap((p) => p.hops).length - hops.length;
      // A pool used by two paths of one split sees the other's swap first: each hop is priced on the snapshot alone.
      if (new Set(hops.map((h) => h.pool.toLowerCase())).size !== hops.length) {
        sharedPools++;
        continue;
      }
      for (const h of hops) {
        const state = pools.get(h.pool.toLowerCase());
        const where = `${route.tradeType} ${h.amountIn} -> ${h.amountOut} on ${h.dex} ${h.version} ${h.pool}`;
        if (!state || state.version !== h.version) {
          failures.push(`${where}: no such pool in the snapshot`);
          continue;
        }
        const t0 = tokens.token(snapshot.chainId, state.token0);
        const t1 = tokens.token(snapshot.chainId, state.token1);
        const zeroForOne = h.tokenIn.toLowerCase() === state.token0.toLowerCase();
        const [tokenIn, tokenOut] = zeroForOne ? [t0, t1] : [t1, t0];
        let expected: bigint;
        if (state.version === 'v2') {
          // The v2 SDK's Pair is Uniswap v2's 0.3% pair.
          if (state.fee !== 3000) {
            failures.push(`${where}: a v2 fee of ${state.fee} the v2 SDK cannot price`);
            continue;
          }
          const pair = sdkV2Pair(state, t0, t1);
          expected =
            route.tradeType === 'exactIn'
              ? sdkRaw(pair.getOutputAmount(sdkAmount(tokenIn, h.amountIn))[0])
              : sdkRaw(pair.getInputAmount(sdkAmount(tokenOut, h.amountOut))[0]);
        } else if (state.version === 'v4' || state.version === 'balancerV2') {
          failures.push(`${where}: a ${state.version} pool (the sample's snapshot has none)`);
          continue;
        } else {
          const pool = sdkV3Pool(state, t0, t1);
          if (!pool) {
            failures.push(`${where}: a v3 pool without ticks`);
            continue;
          }
          expected =
            route.tradeType === 'exactIn'
              ? sdkRaw((await pool.getOutputAmount(sdkAmount(tokenIn, h.amountIn)))[0])
              : sdkRaw((await pool.getInputAmount(sdkAmount(tokenOut, h.amountOut)))[0]);
        }
        const got = BigInt(route.tradeType === 'exactIn' ? h.amountOut : h.amountIn);
        checked++;
        if (got !== expected) failures.push(`${where}: the SDK gives ${expected}`);
      }
    }
  }
  t.equal(failures.slice(0, 5).join('\n'), '', `no hop disagrees with the SDKs (${failures.length}; first 5 shown)`);
  t.comment(`${checked} pool hops checked; ${wraps} wrap hops and ${sharedPools} routes sharing a pool between paths not priced`);
  // With the recorded sample: 342 hops checked, 17 wrap hops, no route sharing a pool.
  t.ok(checked >= 300, `at least 300 pool hops checked against the SDKs (${checked})`);
  t.ok(sharedPools <= 10, `routes left out for sharing a pool: ${sharedPools} <= 10`);
});

if (recording) {
  writeFileSync(FIXTURE, `${JSON.stringify(answered, null, 1)}\n`);
  t.comment(`recorded ${answered.length} responses: review the diff of ${FIXTURE} before committing it`);
} else {
  const recorded = JSON.parse(readFileSync(FIXTURE, 'utf8')) as Sample[];
  t.equal(answered.length, recorded.length, 'as many samples as recorded');
  let differing = 0;
  for (const [i, r] of recorded.entries()) {
    const a = answered[i];
    if (a.url !== r.url || a.body !== r.body || a.status !== r.status || a.text !== r.text) {
      differing++;
      if (differing <= 5)
        t.same({ status: a.status, text: a.text }, { status: r.status, text: r.text }, `${r.method} ${r.url} ${r.body ?? ''}`);
    }
  }
  t.equal(differing, 0, `every one of ${recorded.length} responses byte-identical to the recording`);
}
