// Only src/config.ts reads the environment (DESIGN.md, Conventions): no other file of src/, workers/ or the seeds/
// command-line entries reads a variable from process.env; they pass the whole environment to loadConfig at most.
// The devnet (seeds/devnet/: DEVNET_PORT, DEVNET_CHAIN_ID, ANVIL_BIN) is development tooling with its own variables.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';

const root = fileURLToPath(new URL('../..', import.meta.url));
/** A read of one variable: `process.env.X`, `process.env['X']`, or destructuring `{ X } = process.env`. */
const READ = /process\.env\s*(\.|\[|\?\.)|=\s*process\.env\b/;

function files(dir: string, deep: boolean): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return deep ? files(path, deep) : [];
    return e.name.endsWith('.ts') ? [path] : [];
  });
}

t.test('the check sees a read', async (t) => {
  t.ok(READ.test('const n = Number(process.env.FOLLOW_STREAM_MAXLEN ?? 1);'));
  t.ok(READ.test("process.env['PORT']"));
  t.ok(READ.test('const { PORT } = process.env;'));
  t.notOk(READ.test('loadConfig({ ...process.env, FOLLOW: "true" })'), 'handing the environment to loadConfig is no read');
});

t.test('no file but src/config.ts reads a variable', async (t) => {
  const checked = [...files('src', true), ...files('workers', true), ...files('seeds', false)];
  t.ok(checked.includes(join('seeds', 'follow.ts')) && checked.includes(join('src', 'config.ts')), 'the entries are checked');
  const readers = checked.filter((f) => f !== join('src', 'config.ts') && READ.test(readFileSync(join(root, f), 'utf8')));
  t.same(
    readers.map((f) => relative('.', f)),
    [],
    'reads outside src/config.ts',
  );
});
