import { cpSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { projectRoot, type ServerProcess, startServer as startProcess } from '../helpers/serverProcess.ts';

/** The real service (src/index.ts) with info logs, one worker and no Redis (REDIS_URL unset); stop() is a SIGKILL. */
const startServer = (env: NodeJS.ProcessEnv): Promise<ServerProcess> =>
  startProcess({ env: { REDIS_URL: undefined, LOG_LEVEL: 'info', WORKER_THREADS: '1', ...env }, stopGraceMs: 0 });

const WETH = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const USDC = '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512';
const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const body = JSON.stringify({
  originChainId: 31337,
  destinationChainId: 31337,
  tokenIn: WETH,
  tokenOut: USDC,
  amount: '10',
  recipientAddress: RECIPIENT,
  maxHops: 1,
  maxSplits: 1,
}); // the direct pool only: compared with the pair's formula

/** UniswapV2Library.getAmountOut written out (the oracle), 30 bps. */
const v2Out = (amountIn: bigint, reserveIn: bigint, reserveOut: bigint) =>
  (amountIn * 997n * reserveOut) / (reserveIn * 1000n + amountIn * 997n);

interface SnapshotJson {
  blockNumber: number;
  pools: Array<Record<string, unknown>>;
}

function uniswapV2WethUsdc(snapshot: SnapshotJson): Record<string, unknown> {
  const pool = snapshot.pools.find((p) => p.dex === 'uniswap' && p.version === 'v2' && p.token0 === WETH && p.token1 === USDC);
  if (!pool) throw new Error('devnet snapshot has no uniswap v2 WETH/USDC pool');
  return pool;
}

function writeAtomic(path: string, text: string): void {
  const tmp = join(join(path, '..'), `.tmp-${process.pid}-${Date.now()}`);
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

// One server process for both tests (starting one costs seconds of CPU): it serves a copy of the shipped snapshots
// from a watched folder of its own; the reload test leaves that folder as it found it, and the SIGTERM test ends it.
const dir = mkdtempSync(join(tmpdir(), 'sqs-snap-'));
cpSync(join(projectRoot, 'seeds/snapshots'), dir, { recursive: true });
const server = await startServer({ SNAPSHOT_DIR: dir, DATA_DIR: join(dir, '.data') });
t.teardown(async () => {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

t.test('snapshots reload under load without a failed request; a corrupt one is refused; SIGHUP reloads', async (t) => {
  const url = `http://127.0.0.1:${server.port}/quotes/routes`;
  const v2Amount = async (): Promise<string> => {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const json = (await res.json()) as { data: Array<{ amountOut: string; route: { dex: string; version: string } }> };
    if (res.status !== 200) throw new Error(`status ${res.status}: ${JSON.stringify(json)}`);
    return json.data.find((r) => r.route.dex === 'uniswap' && r.route.version === 'v2')!.amountOut;
  };

  const original = JSON.parse(readFileSync(join(dir, 'devnet.json'), 'utf8')) as SnapshotJson;
  const pool = uniswapV2WethUsdc(original);
  const amountIn = 10n * 10n ** 18n;
  t.equal(
    await v2Amount(),
    v2Out(amountIn, BigInt(pool.reserve0 as string), BigInt(pool.reserve1 as string)).toString(),
    'prices the shipped snapshot',
  );

  // Load: four request loops while the snapshot is replaced.
  let stop = false;
  const statuses: number[] = [];
  const loops = Array.from({ length: 4 }, async () => {
    while (!stop) {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      await res.arrayBuffer();
      statuses.push(res.status);
    }
  });
  await new Promise((r) => setTimeout(r, 300));
  const doubled = structuredClone(original);
  const p2 = uniswapV2WethUsdc(doubled);
  p2.reserve0 = (BigInt(pool.reserve0 as string) * 2n).toString();
  p2.reserve1 = (BigInt(pool.reserve1 as string) * 2n).toString();
  doubled.blockNumber += 1;
  writeAtomic(join(dir, 'devnet.json'), JSON.stringify(doubled));
  const reloaded = await server.waitForLog((l) => l.msg === 'snapshots reloaded');
  t.equal(reloaded.reason, 'snapshot folder changed');
  await new Promise((r) => setTimeout(r, 500));
  stop = true;
  await Promise.all(loops);
  t.ok(statuses.length > 20, `served ${statuses.length} requests during the reload`);
  t.same([...new Set(statuses)], [200], 'no request failed during the reload');
  const expectedDoubled = v2Out(amountIn, BigInt(p2.reserve0 as string), BigInt(p2.reserve1 as string)).toString();
  t.equal(await v2Amount(), expectedDoubled, 'the new snapshot is served (API and worker)');

  // A corrupt snapshot is refused; the previous one keeps serving.
  writeAtomic(join(dir, 'devnet.json'), '{"formatVersion": 1, "chainId": 31337, "pools": [');
  const refused = await server.waitForLog((l) => l.msg === 'snapshot refused; the previous snapshots keep serving');
  t.match(String(refused.snapshotError), /^devnet\.json: not valid JSON/);
  t.equal(await v2Amount(), expectedDoubled, 'old graph still serving after a corrupt file');

  // Schema-invalid is refused too.
  writeAtomic(join(dir, 'devnet.json'), JSON.stringify({ ...doubled, blockNumber: 'latest' }));
  await server.waitForLog(
    (l) => l.msg === 'snapshot refused; the previous snapshots keep serving' && String(l.snapshotError).includes('/blockNumber'),
  );
  t.equal(await v2Amount(), expectedDoubled, 'old graph still serving after a schema-invalid file');

  // SIGHUP reloads explicitly (after the file is fixed).
  writeAtomic(join(dir, 'devnet.json'), JSON.stringify(original));
  await server.waitForLog((l) => l.msg === 'snapshots reloaded' && l.generation === 2);
  server.child.kill('SIGHUP');
  const hup = await server.waitForLog((l) => l.msg === 'snapshots reloaded' && l.reason === 'SIGHUP');
  t.equal(hup.generation, 3);
  t.equal(await v2Amount(), v2Out(amountIn, BigInt(pool.reserve0 as string), BigInt(pool.reserve1 as string)).toString());
});

t.test('SIGTERM (snapshot folder watched): stops accepting, finishes the in-flight request, exits 0', async (t) => {
  // An in-flight request: headers and half of the body sent before SIGTERM, the rest after.
  const socket = connect(server.port, '127.0.0.1');
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  let response = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => {
    response += chunk;
  });
  const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const half = Math.floor(body.length / 2);
  socket.write(
    `POST /quotes/routes HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body.slice(0, half)}`,
  );
  await new Promise((r) => setTimeout(r, 200));
  server.child.kill('SIGTERM');
  await server.waitForLog((l) => typeof l.msg === 'string' && l.msg.startsWith('shutting down'));

  // New connections are refused while the in-flight one is still open.
  const refused = await new Promise<string>((resolve) => {
    const s = connect(server.port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      resolve('connected');
    });
    s.once('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
  });
  t.equal(refused, 'ECONNREFUSED', 'no new connections after SIGTERM');

  socket.write(body.slice(half));
  await ended;
  t.match(response, /^HTTP\/1\.1 200 OK/, 'the in-flight request completed');
  const json = JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4)) as { code: number; message: string; data: unknown[] };
  t.equal(json.code, 200);
  t.equal(json.message, 'routes fetched successfully');
  t.equal(await server.exited, 0, 'exit code 0');
  t.ok(
    server.logs.some((l) => l.msg === 'closed'),
    'logged the close',
  );
});
