// writeFileAtomic: the one helper that replaces a file whole (snapshots by seeding and the follower, the API key
// file). Observable contract: the exact text lands, the folder is created, an existing file is replaced, the mode
// applies to a new file, and no temporary file is left, on success or on failure.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { writeFileAtomic } from '../../src/store/writeFileAtomic.ts';

const root = mkdtempSync(join(tmpdir(), 'sqs-atomic-'));
t.teardown(() => rmSync(root, { recursive: true, force: true }));

t.test('writes the exact text into a new folder and leaves only the file', async (t) => {
  const dir = join(root, 'a', 'b');
  const path = join(dir, 'chain.json');
  const text = '{"x": "é ✓ 𝄞"}\n'.repeat(5000);
  writeFileAtomic(path, text);
  t.equal(readFileSync(path, 'utf8'), text, 'content byte for byte');
  t.same(readdirSync(dir), ['chain.json'], 'no temporary file left');
});

t.test('replaces an existing file whole', async (t) => {
  const dir = join(root, 'replace');
  mkdirSync(dir);
  const path = join(dir, 'keys.json');
  writeFileSync(path, 'old content that is longer than the new one\n');
  writeFileAtomic(path, 'new\n');
  t.equal(readFileSync(path, 'utf8'), 'new\n');
  writeFileAtomic(path, '');
  t.equal(readFileSync(path, 'utf8'), '', 'an empty text gives an empty file');
  t.same(readdirSync(dir), ['keys.json']);
});

t.test('a new file takes the mode asked for', { skip: process.platform === 'win32' && 'POSIX modes' }, async (t) => {
  const dir = join(root, 'mode');
  const path = join(dir, 'secret.json');
  writeFileAtomic(path, 'x', { mode: 0o600 });
  t.equal(statSync(path).mode & 0o777, 0o600);
});

t.test('a failed rename throws and removes the temporary file', async (t) => {
  const dir = join(root, 'fail');
  const target = join(dir, 'taken');
  mkdirSync(join(target, 'inside'), { recursive: true }); // a non-empty folder cannot be replaced by a file
  t.throws(() => writeFileAtomic(target, 'text'), { code: /^(EISDIR|ENOTEMPTY|EEXIST|EPERM)$/ });
  t.same(readdirSync(dir), ['taken'], 'only the folder that was there');
  t.same(readdirSync(target), ['inside'], 'the folder untouched');
});
