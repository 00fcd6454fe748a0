import { createHash } from 'node:crypto';
import t from 'tap';
import { createApiKeyStore, type ApiKeyStore, type KeyCacheStats } from '../../src/store/apiKeyStore.ts';
import { sharedRedisPrefix, sharedRedisUrl, withRawClient } from '../helpers/redis.ts';

/**
 * The Redis key store answers verify() from process memory (RESP3 client-side caching) and must
 * still see every change made through any other connection: these tests use two stores on separate
 * connections, like two API processes (or an API process and the keys CLI).
 */

function open(namespace: string): ApiKeyStore {
  return createApiKeyStore({ redisUrl: sharedRedisUrl, dataDir: '.data' }, { namespace });
}

function stats(store: ApiKeyStore): KeyCacheStats {
  const s = store.cacheStats?.();
  if (!s) throw new Error('the Redis key store has no cache stats');
  return s;
}

/** Polls until the condition holds (invalidations travel through Redis: asynchronous, but prompt). */
async function eventually(condition: () => Promise<boolean>, ms = 2000): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await condition()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

t.test('a key revoked through one instance is refused by another that had it cached', async (t) => {
  const prefix = await sharedRedisPrefix(t, 'keycache-revoke');
  if (!prefix) return;
  const first = open(prefix);
  const second = open(prefix);
  t.teardown(async () => {
    await first.close();
    await second.close();
  });
  const { key, record } = await first.create('acme');
  t.same(await second.verify(key), { id: record.id, org: 'acme' }, 'the second instance accepts the key (from Redis)');
  const before = stats(second);
  t.same(await second.verify(key), { id: record.id, org: 'acme' });
  const after = stats(second);
  t.equal(after.hits, before.hits + 1, 'the second answer came from the cache');
  t.equal(after.misses, before.misses, 'no lookup went to Redis for it');

  await first.revoke(record.id);
  t.ok(await eventually(async () => (await second.verify(key)) === undefined), 'the second instance refuses the revoked key');
  t.equal(await first.verify(key), undefined, 'the revoking instance refuses it at once');
  t.ok(stats(second).misses > after.misses, 'the refusal was read from Redis after invalidation, not from the old entry');
});

t.test('a key unknown to an instance (its miss cached) is accepted once created elsewhere', async (t) => {
  const prefix = await sharedRedisPrefix(t, 'keycache-create');
  if (!prefix) return;
  const api = open(prefix);
  const cli = open(prefix);
  t.teardown(async () => {
    await api.close();
    await cli.close();
  });
  await api.create('seed'); // the table exists
  // A key whose lookup missed (and was cached) before it existed, then created through the other
  // connection: the record is written by hand so that the key is known before its record is.
  const lateKey = `sqk_${'Z'.repeat(43)}`;
  const hash = createHash('sha256').update(lateKey).digest('hex');
  t.equal(await api.verify(lateKey), undefined, 'not created yet');
  const before = stats(api);
  t.equal(await api.verify(lateKey), undefined, 'still unknown');
  t.equal(stats(api).hits, before.hits + 1, 'the miss was answered from the cache');
  await withRawClient(sharedRedisUrl, async (client) => {
    await client.hSet(`${prefix}:ids`, 'key_00000000late', hash);
    await client.hSet(`${prefix}:by-hash`, hash, JSON.stringify({ id: 'key_00000000late', org: 'late', createdAt: new Date().toISOString(), hash }));
  });
  t.ok(await eventually(async () => (await api.verify(lateKey))?.org === 'late'), 'accepted once its record exists');
  // The same through the store's own create on the other connection (the keys CLI's path).
  const { key } = await cli.create('beta');
  t.ok(await eventually(async () => (await api.verify(key))?.org === 'beta'), 'a key created by another instance is accepted');
});

t.test('after the connection drops and comes back, nothing cached before is served', async (t) => {
  const prefix = await sharedRedisPrefix(t, 'keycache-drop');
  if (!prefix) return;
  const api = open(prefix);
  const admin = open(prefix);
  t.teardown(async () => {
    await api.close();
    await admin.close();
  });
  const { key, record } = await admin.create('acme');
  t.ok(await api.verify(key));
  t.ok(await api.verify(key));
  t.ok(stats(api).entries >= 1, 'the lookup is cached');
  // Drop the API instance's connection from the server side (as a failover or network cut would),
  // and revoke at once: while it is disconnected, Redis cannot tell it about the change.
  const id = await clientIdOf(api);
  await withRawClient(sharedRedisUrl, (client) => client.sendCommand(['CLIENT', 'KILL', 'ID', String(id)]));
  await admin.revoke(record.id);
  t.ok(await eventually(async () => stats(api).entries === 0, 2000), 'the cache was emptied when the connection dropped');
  t.ok(await eventually(() => api.ping(), 5000), 'the connection came back');
  t.not(await clientIdOf(api), id, 'it is a new connection');
  t.equal(await api.verify(key), undefined, 'the revoked key is refused after the reconnect');
  // And tracking is on again on the new connection: a later change reaches it.
  const second = await admin.create('beta');
  t.ok(await api.verify(second.key));
  await admin.revoke(second.record.id);
  t.ok(await eventually(async () => (await api.verify(second.key)) === undefined), 'invalidations arrive on the new connection');
});

/** The server-side id of the store's connection (CLIENT ID through the store's own client). */
async function clientIdOf(store: ApiKeyStore): Promise<number> {
  const connection = (store as unknown as { connection: { client: { clientId(): Promise<number> } } }).connection;
  return connection.client.clientId();
}
