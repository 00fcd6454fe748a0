import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { createApiKeyStore } from '../../src/store/apiKeyStore.ts';
import { runKeysCli } from '../../src/store/keysCli.ts';
import { sharedRedisPrefix, sharedRedisUrl } from '../helpers/redis.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Runs `npm run --silent keys -- <args>` as an operator would, in the project root. */
function keys(args: string[], env: Record<string, string>) {
  const result = spawnSync('npm', ['run', '--silent', 'keys', '--', ...args], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

t.test('keys CLI over the file store (DATA_DIR)', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sqs-cli-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const env = { DATA_DIR: dataDir, REDIS_URL: '' };

  const created = keys(['create', '--org', 'acme'], env);
  t.equal(created.status, 0, created.stderr);
  t.match(created.stdout, /^sqk_[A-Za-z0-9_-]{43}\n$/, 'stdout is exactly one key on one line');
  const key = created.stdout.trimEnd();
  const store = createApiKeyStore({ redisUrl: undefined, dataDir });
  const identity = await store.verify(key);
  t.match(identity, { org: 'acme', id: /^key_[0-9a-f]{12}$/ }, 'the printed key verifies');
  const id = identity!.id;

  const listed = keys(['list'], env);
  t.equal(listed.status, 0, listed.stderr);
  const lines = listed.stdout.trimEnd().split('\n');
  t.equal(lines.length, 2);
  t.match(lines[0], /^ID\s+ORG\s+CREATED\s+REVOKED$/);
  t.match(lines[1], new RegExp(`^${id}  acme  \\d{4}-\\d{2}-\\d{2}T[\\d:.]+Z  -$`));
  const hash = createHash('sha256').update(key).digest('hex');
  t.notOk(listed.stdout.includes(key) || listed.stdout.includes(hash), 'list shows neither the key nor its hash');
  t.notOk(readFileSync(join(dataDir, 'api-keys.json'), 'utf8').includes(key), 'the key is not stored');

  const revoked = keys(['revoke', id], env);
  t.equal(revoked.status, 0, revoked.stderr);
  t.match(revoked.stdout, new RegExp(`^revoked ${id} \\(org acme\\) at \\d{4}-\\d{2}-\\d{2}T[\\d:.]+Z\\n$`));
  t.equal(await store.verify(key), undefined, 'the revoked key no longer verifies (same running store)');

  const unknown = keys(['revoke', 'key_000000000000'], env);
  t.equal(unknown.status, 1);
  t.equal(unknown.stdout, '');
  t.match(unknown.stderr, /keys: no API key with id "key_000000000000" \(see: keys list\)/);
});

t.test('keys CLI over Redis (REDIS_URL, REDIS_KEY_PREFIX)', async (t) => {
  const prefix = await sharedRedisPrefix(t, 'cli');
  if (!prefix) return;
  const created = keys(['create', '--org=acme'], { REDIS_URL: sharedRedisUrl, REDIS_KEY_PREFIX: prefix });
  t.equal(created.status, 0, created.stderr);
  t.match(created.stdout, /^sqk_[A-Za-z0-9_-]{43}\n$/);
  const store = createApiKeyStore({ redisUrl: sharedRedisUrl, dataDir: '/nonexistent', redisKeyPrefix: prefix });
  t.teardown(() => store.close());
  t.match(await store.verify(created.stdout.trimEnd()), { org: 'acme' });
});

t.test('usage errors: exit code 2, message and usage on stderr, nothing on stdout', async (t) => {
  const cases: Array<[string[], string]> = [
    [[], 'keys: a command is required'],
    [['create'], 'keys: create: --org <name> is required'],
    [['create', '--org'], 'keys: --org needs a value'],
    [
      ['create', '--org', 'a b'],
      'keys: invalid organization name "a b": use 1-64 characters of A-Z a-z 0-9 _ . - starting with a letter or digit',
    ],
    [['create', '--org', 'acme', 'extra'], 'keys: create: unexpected argument "extra"'],
    [['revoke'], 'keys: revoke: exactly one key id is required'],
    [['list', '--all'], 'keys: list: unexpected argument "--all"'],
    [['delete', 'x'], 'keys: unknown command "delete"'],
  ];
  const dataDir = mkdtempSync(join(tmpdir(), 'sqs-cli-usage-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  for (const [argv, message] of cases) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runKeysCli(argv, () => createApiKeyStore({ redisUrl: undefined, dataDir }), {
      out: (l) => out.push(l),
      err: (l) => err.push(l),
    });
    t.equal(code, 2, argv.join(' '));
    t.same(out, [], 'nothing on stdout');
    t.equal(err[0], message);
  }
  const help: string[] = [];
  t.equal(
    await runKeysCli(['--help'], () => createApiKeyStore({ redisUrl: undefined, dataDir }), {
      out: (l) => help.push(l),
      err: () => undefined,
    }),
    0,
  );
  t.match(help.join('\n'), /^usage: npm run --silent keys -- <command>/);
});
