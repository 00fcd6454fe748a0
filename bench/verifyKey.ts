/**
 * CPU cost of one API-key verification against a real Redis (the auth middleware's per-request
 * work): N sequential verify() calls of a valid key, CPU µs per call from process.cpuUsage (user +
 * system, this process only; Redis's own CPU is not counted) and wall µs per call.
 * Usage: REDIS_URL=redis://127.0.0.1:6379 npm run ts -- bench/verifyKey.ts [N]
 */
import { randomBytes } from 'node:crypto';
import { createClient } from '@keyv/redis';
import { createApiKeyStore } from '../src/store/apiKeyStore.ts';

const url = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const n = Number(process.argv[2] ?? 20_000);
const prefix = `bench:verify:${process.pid}:${randomBytes(4).toString('hex')}`;
const store = createApiKeyStore({ redisUrl: url, dataDir: '.data', redisKeyPrefix: prefix });
try {
  const { key } = await store.create('bench');
  for (let i = 0; i < 2000; i++) if (!(await store.verify(key))) throw new Error('key did not verify');
  const rounds: number[] = [];
  for (let round = 0; round < 5; round++) {
    const cpu = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < n; i++) await store.verify(key);
    const wall = Number(process.hrtime.bigint() - t0) / 1000 / n;
    const used = process.cpuUsage(cpu);
    const perCall = (used.user + used.system) / n;
    rounds.push(perCall);
    console.log(`round ${round + 1}: ${perCall.toFixed(2)} µs CPU/call, ${wall.toFixed(2)} µs wall/call (n=${n})`);
  }
  const sorted = [...rounds].sort((a, b) => a - b);
  console.log(`median ${sorted[2].toFixed(2)} µs CPU per verify`);
} finally {
  await store.close();
  const client = createClient({ url });
  await client.connect();
  for await (const keys of client.scanIterator({ MATCH: `${prefix}*` })) if (keys.length) await client.unlink(keys);
  client.destroy();
}
