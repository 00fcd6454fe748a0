/**
 * WEB_CONCURRENCY=2: one `node --import ./src/loader/register.js src/index.ts` becomes the cluster primary and forks two API processes
 * that share its port. Over one real Redis (never skipped under CI=true): requests on fresh connections are served by
 * both processes (each request line carries the serving pid); a quote saved by one is read through the other; one
 * API key's rate limit is counted across both; a killed process is replaced; SIGTERM lets a request that is still
 * arriving complete, then every process and the primary exit 0. Without REDIS_URL the service refuses to start.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { createApiKeyStore } from '../../src/store/apiKeyStore.ts';
import { sharedRedisPrefix, sharedRedisUrl } from '../helpers/redis.ts';
import { type ServerProcess, startServer } from '../helpers/serverProcess.ts';

const PER_KEY = 10;
/** Requests sent after a process was killed and replaced. */
const AFTER_CRASH = 6;
const BODY = JSON.stringify({
  originChainId: 31337,
  destinationChainId: 31337,
  tokenIn: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  tokenOut: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512',
  amount: '1.5',
  recipientAddress: '0x1111111111111111111111111111111111111111',
  maxHops: 1,
  maxSplits: 1,
});

interface Answer {
  status: number;
  body: { code: number; message: string; data?: Record<string, unknown> };
}

/** One request on a connection of its own (no keep-alive), so the primary hands each to a process afresh. */
function call(server: ServerProcess, method: string, path: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      server.url + path,
      { method, agent: false, headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) as Answer['body'] }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The pid of the process whose request line has this request id. */
async function servedBy(server: ServerProcess, reqId: string): Promise<number> {
  const line = await server.waitForLog((l) => l.msg === 'request' && l.reqId === reqId, 10_000);
  return line.pid as number;
}

t.test('WEB_CONCURRENCY > 1 without REDIS_URL: refused at start-up', async (t) => {
  const server = startServer({ env: { WEB_CONCURRENCY: '2', REDIS_URL: '' }, timeoutMs: 60_000 });
  await t.rejects(
    server,
    /start-up failed: WEB_CONCURRENCY=2 needs REDIS_URL: the processes must share saved quotes and rate limits, which live in memory without Redis/,
  );
});

t.test('two API processes under one port share saved quotes and rate limits, replace a crashed one and stop together', async (t) => {
  const prefix = await sharedRedisPrefix(t, 'cluster');
  if (!prefix) return;
  const dataDir = mkdtempSync(join(tmpdir(), 'sqs-cluster-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const env = {
    WEB_CONCURRENCY: '2',
    REDIS_URL: sharedRedisUrl,
    REDIS_KEY_PREFIX: prefix,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    RATE_LIMIT_PER_KEY: String(PER_KEY),
    RATE_LIMIT_WINDOW_SECONDS: '3600',
  };
  const server = await startServer({ env, timeoutMs: 120_000 });
  t.teardown(() => server.stop());
  const primaryPid = server.pid;
  const listening = async (n: number): Promise<number[]> => {
    const deadline = Date.now() + 90_000;
    for (;;) {
      const pids = [...new Set(server.logs.filter((l) => l.msg === 'listening').map((l) => l.pid as number))];
      if (pids.length >= n || Date.now() > deadline) return pids;
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const workers = await listening(2);
  t.equal(workers.length, 2, 'two API processes listening');
  t.notOk(workers.includes(primaryPid), 'the primary serves nothing itself');

  const keys = createApiKeyStore({ redisUrl: sharedRedisUrl, dataDir, redisKeyPrefix: prefix });
  const { key } = await keys.create('org-cluster');
  await keys.close();
  const auth = { authorization: `Bearer ${key}` };

  // One quote saved, then read back over fresh connections until both processes have answered: the same body each time.
  const created = await call(server, 'POST', '/quotes', { ...auth, 'x-request-id': 'cluster-create' }, BODY);
  t.equal(created.status, 200, 'quote created');
  const quoteId = created.body.data!.quoteId as string;
  const creator = await servedBy(server, 'cluster-create');
  const readers = new Set<number>();
  for (let i = 1; i < PER_KEY; i++) {
    const got = await call(server, 'GET', `/quotes/${quoteId}`, { ...auth, 'x-request-id': `cluster-get-${i}` });
    t.equal(got.status, 200, `read ${i} answered 200`);
    t.same(got.body.data, created.body.data, `read ${i} is the saved quote`);
    readers.add(await servedBy(server, `cluster-get-${i}`));
  }
  t.same([...readers, creator].filter((p, i, a) => a.indexOf(p) === i).sort(), [...workers].sort(), 'both processes served the key');
  t.ok(
    [...readers].some((p) => p !== creator),
    'the process that did not save the quote read it from Redis',
  );

  // The key has used its PER_KEY requests across both processes: further ones are refused by either.
  const refusedBy = new Set<number>();
  for (let i = 0; i < 4; i++) {
    const over = await call(server, 'GET', `/quotes/${quoteId}`, { ...auth, 'x-request-id': `cluster-over-${i}` });
    t.equal(over.status, 429, `request ${PER_KEY + 1 + i} over the shared limit is 429`);
    refusedBy.add(await servedBy(server, `cluster-over-${i}`));
  }
  t.equal(refusedBy.size, 2, 'both processes refuse once the shared count is reached');

  // A crashed process is replaced; the other keeps serving meanwhile.
  const victim = workers[0];
  process.kill(victim, 'SIGKILL');
  await server.waitForLog((l) => l.msg === 'API process exited unexpectedly; starting another' && l.workerPid === victim, 20_000);
  const now = await listening(3);
  t.equal(now.length, 3, 'a third process started listening in place of the killed one');
  const replacement = now.find((p) => !workers.includes(p))!;
  // A fixed number of requests (the primary hands connections out in turn, so both processes get some), each
  // asserted: the assertion count does not depend on which process the primary picks first.
  const seen = new Set<number>();
  for (let i = 0; i < AFTER_CRASH; i++) {
    const res = await call(server, 'POST', '/quotes/routes', { 'x-request-id': `cluster-after-${i}` }, BODY);
    t.equal(res.status, 200, `routes ${i} after the crash answered 200`);
    seen.add(await servedBy(server, `cluster-after-${i}`));
  }
  t.ok(seen.has(replacement), 'the replacement process serves');
  t.ok(seen.has(workers[1]), 'the surviving process serves');
  t.notOk(seen.has(victim), 'the killed process serves nothing');

  // SIGTERM while a request is still arriving: it completes, then everything exits 0.
  const socket = connect(server.port, '127.0.0.1');
  await new Promise<void>((r) => socket.once('connect', () => r()));
  let raw = '';
  socket.setEncoding('utf8').on('data', (c: string) => (raw += c));
  const ended = new Promise<void>((r) => socket.once('end', () => r()));
  socket.write(
    `POST /quotes/routes HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(BODY)}\r\nConnection: close\r\n\r\n${BODY.slice(0, 40)}`,
  );
  await new Promise((r) => setTimeout(r, 300));
  process.kill(primaryPid, 'SIGTERM');
  await server.waitForLog((l) => l.msg === 'shutting down: no new connections, finishing in-flight requests', 10_000);
  socket.end(BODY.slice(40));
  await ended;
  t.match(raw, /^HTTP\/1\.1 200 OK/, 'the request in flight at SIGTERM got its answer');
  t.match(raw, /"message":"routes fetched successfully"/);
  t.equal(await server.exited, 0, 'the primary exits 0 once both processes have closed');
  t.equal(server.logs.filter((l) => l.msg === 'API process stopped' && l.code === 0).length, 2, 'both processes closed cleanly');
});
