import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { ServiceUnavailableError } from '../../src/errors/BaseError.ts';
import { ApiKeyInputError } from '../../src/store/apiKeyRecords.ts';
import { type ApiKeyStore, createApiKeyStore } from '../../src/store/apiKeyStore.ts';
import { freePort } from '../helpers/freePort.ts';
import { OwnRedisServer, redisServerOrSkip, sharedRedisPrefix, sharedRedisUrl, withRawClient } from '../helpers/redis.ts';

/**
 * A failing save/get must reject rather than hang. The store's own deadline is 1.5 s; the bound is
 * generous so that a loaded CI machine does not make it flaky: it checks "fails fast, never hangs",
 * not speed (speed is measured in bench/).
 */
const FAILURE_BOUND_MS = 10_000;
const KEY_SHAPE = /^sqk_[A-Za-z0-9_-]{43}$/;
const ID_SHAPE = /^key_[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** SHA-256 hex computed here, independently of the store. */
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** A key of the right shape that no store issued. */
const foreignKey = `sqk_${'A'.repeat(43)}`;

/** Flips the last character of a key (same shape, different secret). */
const tampered = (key: string) => key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A');

function behaviour(t: Test, open: () => ApiKeyStore) {
  t.test('create returns a prefixed random key and a record; verify returns its id and org', async (t) => {
    const store = open();
    t.teardown(() => store.close());
    const { key, record } = await store.create('acme');
    t.match(key, KEY_SHAPE);
    t.match(record.id, ID_SHAPE);
    t.equal(record.org, 'acme');
    t.match(record.createdAt, ISO);
    t.notOk('revokedAt' in record);
    t.notOk('hash' in record, 'the record carries no hash');
    t.same(await store.verify(key), { id: record.id, org: 'acme' });
    const other = await store.create('acme');
    t.not(other.key, key, 'keys are random');
    t.not(other.record.id, record.id);
  });

  t.test('unknown, tampered, malformed keys do not verify', async (t) => {
    const store = open();
    t.teardown(() => store.close());
    const { key } = await store.create('acme');
    for (const bad of [
      foreignKey,
      tampered(key),
      key.slice(0, -1),
      `${key}x`,
      key.toUpperCase(),
      '',
      'Bearer',
      'sqk_',
      `sqk_${'a'.repeat(10_000)}`,
      ` ${key}`,
    ]) {
      t.equal(await store.verify(bad), undefined, JSON.stringify(bad.slice(0, 60)));
    }
  });

  t.test('revoke: the key stops verifying at once; idempotent; unknown id answers undefined', async (t) => {
    const store = open();
    t.teardown(() => store.close());
    const { key, record } = await store.create('beta');
    const revoked = await store.revoke(record.id);
    t.match(revoked, { id: record.id, org: 'beta', createdAt: record.createdAt, revokedAt: ISO });
    t.equal(await store.verify(key), undefined);
    t.same(await store.revoke(record.id), revoked, 'revoking again keeps the first revocation time');
    t.equal(await store.revoke('key_000000000000'), undefined);
    t.equal(await store.revoke('not an id'), undefined);
    const listed = (await store.list()).find((r) => r.id === record.id);
    t.same(listed, revoked);
  });

  t.test('list: every record, oldest first, without keys or hashes', async (t) => {
    const store = open();
    t.teardown(() => store.close());
    const before = (await store.list()).length;
    const a = await store.create('org-a');
    await new Promise((resolve) => setTimeout(resolve, 5));
    const b = await store.create('org-b');
    const records = await store.list();
    t.equal(records.length, before + 2);
    t.same(records.slice(-2), [a.record, b.record]);
    const text = JSON.stringify(records);
    t.notOk(text.includes(a.key) || text.includes(b.key), 'no key in the list');
    t.notOk(text.includes(sha256(a.key)) || text.includes(sha256(b.key)), 'no hash in the list');
  });

  t.test('a second instance (a restart, or another server) sees existing keys and new ones without restarting', async (t) => {
    const first = open();
    const { key, record } = await first.create('acme');
    await first.close();
    const running = open();
    t.teardown(() => running.close());
    t.same(await running.verify(key), { id: record.id, org: 'acme' }, 'survives a restart');
    // A key created elsewhere (the CLI) after `running` started is accepted by it.
    const cli = open();
    const fresh = await cli.create('newcomer');
    await cli.close();
    t.same(await running.verify(fresh.key), { id: fresh.record.id, org: 'newcomer' });
    // And a revocation made elsewhere takes effect in the running instance.
    const admin = open();
    await admin.revoke(fresh.record.id);
    await admin.close();
    t.equal(await running.verify(fresh.key), undefined);
  });

  t.test('create refuses an invalid organization name', async (t) => {
    const store = open();
    t.teardown(() => store.close());
    for (const org of ['', ' acme', 'a b', '-x', 'x'.repeat(65), 'acme\n']) {
      await t.rejects(store.create(org), ApiKeyInputError, JSON.stringify(org));
    }
  });
}

t.test('file store', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sqs-keys-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const dataDir = join(dir, 'data');
  const open = () => createApiKeyStore({ redisUrl: undefined, dataDir });
  behaviour(t, open);

  t.test('the file holds SHA-256 hashes only, mode 0600, replaced atomically (no temp or lock file left)', async (t) => {
    const store = open();
    const { key, record } = await store.create('acme');
    const path = join(dataDir, 'api-keys.json');
    const text = readFileSync(path, 'utf8');
    t.notOk(text.includes(key), 'the key is not in the file');
    const parsed = JSON.parse(text) as { version: number; keys: Array<Record<string, unknown>> };
    t.equal(parsed.version, 1);
    t.same(
      parsed.keys.find((k) => k.id === record.id),
      { id: record.id, org: 'acme', createdAt: record.createdAt, hash: sha256(key) },
    );
    t.equal(statSync(path).mode & 0o777, 0o600);
    t.same(readdirSync(dataDir).sort(), ['api-keys.json']);
  });

  t.test('concurrent creates from two instances lose no key (lock file)', async (t) => {
    const a = open();
    const b = open();
    const created = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).create(`org-${i}`)));
    const ids = new Set((await open().list()).map((r) => r.id));
    t.ok(
      created.every((c) => ids.has(c.record.id)),
      'all 20 keys are in the file',
    );
    for (const c of created) t.same(await a.verify(c.key), { id: c.record.id, org: c.record.org });
  });

  t.test('a broken file: a running store keeps its last good keys; a new one answers 503', async (t) => {
    const own = join(dir, 'broken');
    const store = createApiKeyStore({ redisUrl: undefined, dataDir: own });
    const { key, record } = await store.create('acme');
    t.same(await store.verify(key), { id: record.id, org: 'acme' });
    writeFileSync(join(own, 'api-keys.json'), '{ not json');
    t.same(await store.verify(key), { id: record.id, org: 'acme' }, 'last good keys still served');
    const fresh = createApiKeyStore({ redisUrl: undefined, dataDir: own });
    await t.rejects(fresh.verify(key), {
      name: 'ServiceUnavailableError',
      status: 503,
      message: 'API key store unavailable: try again later',
    });
    t.equal(await fresh.ping(), false);
  });

  t.test('no file yet: nothing verifies, list is empty, ping is true', async (t) => {
    const store = createApiKeyStore({ redisUrl: undefined, dataDir: join(dir, 'empty') });
    t.equal(store.kind, 'file');
    t.equal(await store.verify(foreignKey), undefined);
    t.same(await store.list(), []);
    t.equal(await store.ping(), true);
  });
});

t.test('Redis store (shared server)', async (t) => {
  const namespace = await sharedRedisPrefix(t, 'apikeys');
  if (!namespace) return;
  const open = () => createApiKeyStore({ redisUrl: sharedRedisUrl, dataDir: '/nonexistent' }, { namespace });
  behaviour(t, open);

  t.test('Redis holds SHA-256 hashes only (read with a plain client)', async (t) => {
    const store = open();
    t.teardown(() => store.close());
    t.equal(store.kind, 'redis');
    const { key, record } = await store.create('acme');
    const { byHash, ids } = await withRawClient(sharedRedisUrl, async (client) => ({
      byHash: await client.hGetAll(`${namespace}:by-hash`),
      ids: await client.hGetAll(`${namespace}:ids`),
    }));
    t.equal(ids[record.id], sha256(key));
    t.same(JSON.parse(byHash[sha256(key)]), { id: record.id, org: 'acme', createdAt: record.createdAt, hash: sha256(key) });
    t.notOk(JSON.stringify({ byHash, ids }).includes(key), 'the key is nowhere in Redis');
  });
});

t.test('Redis down: verify, create, list, revoke answer 503 within the bound; resume after restart', async (t) => {
  const binary = redisServerOrSkip(t);
  if (!binary) return;
  const server = await OwnRedisServer.start(binary);
  t.teardown(() => server.kill());
  const store = createApiKeyStore({ redisUrl: server.url, dataDir: '/nonexistent' }, { namespace: 'keys' });
  t.teardown(() => store.close());
  const { key, record } = await store.create('acme');
  await server.kill();

  const expected = { status: 503, code: 'SERVICE_UNAVAILABLE', message: 'API key store unavailable: try again later' };
  const operations: Array<[string, () => Promise<unknown>]> = [
    ['verify', () => store.verify(key)],
    ['create', () => store.create('acme')],
    ['list', () => store.list()],
    ['revoke', () => store.revoke(record.id)],
  ];
  for (const [name, operation] of operations) {
    const started = performance.now();
    await t.rejects(operation(), ServiceUnavailableError, `${name}: ServiceUnavailableError`);
    await t.rejects(operation(), expected);
    const ms = (performance.now() - started) / 2;
    t.ok(ms < FAILURE_BOUND_MS, `${name} rejected in ${ms.toFixed(0)} ms`);
  }
  t.equal(await store.ping(), false);

  await server.start();
  // The restarted server is empty (no persistence): create works again on the same store.
  const deadline = Date.now() + 5000;
  let again: Awaited<ReturnType<ApiKeyStore['create']>> | undefined;
  while (!again) {
    try {
      again = await store.create('acme');
    } catch (error) {
      if (!(error instanceof ServiceUnavailableError) || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  t.same(await store.verify(again.key), { id: again.record.id, org: 'acme' });
});

t.test('Redis never reachable: verify answers 503, not "invalid"', async (t) => {
  const store = createApiKeyStore({ redisUrl: `redis://127.0.0.1:${await freePort()}`, dataDir: '/nonexistent' });
  t.teardown(() => store.close());
  await t.rejects(store.verify(foreignKey), { status: 503, message: 'API key store unavailable: try again later' });
});
