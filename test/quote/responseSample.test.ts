// Responses stay byte-identical across hot-path work: a recorded sample of requests (both quote endpoints, one pool
// and default routing, exact input and output, refusals, catalogue endpoints) over the shipped catalogue and devnet
// snapshot, answered at a fixed clock, compared byte for byte with the bodies recorded before the change
// (test/fixtures/responses/sample.json). Only the random quoteId is replaced before comparing; bodies over 16 kB are
// compared by length and SHA-256.
// Re-record (only when a change of behaviour is intended, and say so in the commit): RECORD_RESPONSES=1 npx tap test/quote/responseSample.test.ts
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { variedQuoteBodies } from '../../bench/lib/quoteMix.ts';

const FIXED_MS = Date.UTC(2026, 10, 1, 12, 0, 0);
Date.now = () => FIXED_MS;
const { buildQuoteTestApp } = await import('../helpers/quoteTestApp.ts');

const FIXTURE = fileURLToPath(new URL('../fixtures/responses/sample.json', import.meta.url));
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

if (process.env.RECORD_RESPONSES === '1') {
  writeFileSync(FIXTURE, `${JSON.stringify(answered, null, 1)}\n`);
  t.pass(`recorded ${answered.length} responses`);
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
