// `npm run seed` (seeds/seed.ts) as operators run it, in its own process: a chain it tries and cannot seed, a chain named
// with --chain that has no RPC URL, and a run that seeds nothing each end with exit code 1, one line per chain and the
// failure on stderr; nothing is written to the snapshot folder. (Seeding a live chain: test/chain/seedChains.test.ts.)
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { freePort } from '../helpers/freePort.ts';
import { projectRoot, tsLoader, untrackedNode } from '../helpers/serverProcess.ts';

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs seeds/seed.ts with `args`, no RPC_URL_* but those given, and a fresh SNAPSHOT_DIR (returned for inspection). */
async function seed(args: string[], rpcUrls: Record<string, string>): Promise<Run & { files: string[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'sqs-seed-cli-'));
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('RPC_URL_')) env[key] = value;
  Object.assign(env, rpcUrls, { SNAPSHOT_DIR: dir });
  const child = spawn(...untrackedNode(['--import', tsLoader(projectRoot), 'seeds/seed.ts', '--progress', 'lines', ...args]), {
    cwd: projectRoot,
    env,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => {
    stdout += d;
  });
  child.stderr.on('data', (d: Buffer) => {
    stderr += d;
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const files = readdirSync(dir);
  rmSync(dir, { recursive: true, force: true });
  return { code, stdout, stderr, files };
}

/** The per-chain lines of the final report (two-space indent). */
const chainLines = (stdout: string): string[] => stdout.split('\n').filter((l) => /^ {2}\S/.test(l));

t.test('a named chain whose endpoint does not answer: exit 1, the chain FAILED', async (t) => {
  const port = await freePort();
  const run = await seed(['--chain', 'devnet-b'], { RPC_URL_31338: `http://127.0.0.1:${port}` });
  t.equal(run.code, 1, `exit code 1 (stderr: ${run.stderr.trim()})`);
  const lines = chainLines(run.stdout);
  t.equal(lines.length, 1, 'one line for the one chain');
  t.match(lines[0], /^ {2}devnet-b \(31338\): FAILED, endpoint did not answer \(.*ECONNREFUSED.*\)$/);
  t.match(run.stdout, /^seeding done: 0 chain\(s\) seeded, 1 failed, 0 skipped,/m);
  t.equal(run.stderr.trim(), 'seed: 1 of 1 chain(s) failed: devnet-b (31338)');
  t.same(run.files, [], 'no snapshot written');
});

t.test('a named chain without an RPC URL fails; the other named chain too', async (t) => {
  const port = await freePort();
  const run = await seed(['--chain', 'devnet,31338'], { RPC_URL_31338: `http://127.0.0.1:${port}` });
  t.equal(run.code, 1);
  t.same(
    chainLines(run.stdout).map((l) => l.replace(/did not answer \(.*ECONNREFUSED.*\)$/, 'did not answer (…)')),
    ['  devnet (31337): FAILED, no RPC URL (set RPC_URL_31337)', '  devnet-b (31338): FAILED, endpoint did not answer (…)'],
    'one line per named chain, in the order named',
  );
  t.equal(run.stderr.trim(), 'seed: 2 of 2 chain(s) failed: devnet (31337), devnet-b (31338)');
});

t.test('every chain: those without an RPC URL are skipped, the dead one fails the run', async (t) => {
  const port = await freePort();
  const run = await seed([], { RPC_URL_31337: `http://127.0.0.1:${port}` });
  t.equal(run.code, 1);
  const lines = chainLines(run.stdout);
  t.ok(lines.length > 2, `one line per catalogue chain (${lines.length})`);
  t.equal(lines.filter((l) => l.includes(': FAILED, ')).length, 1, 'one chain failed');
  t.match(
    lines.find((l) => l.startsWith('  devnet (31337)')),
    /^ {2}devnet \(31337\): FAILED, endpoint did not answer/,
  );
  t.ok(
    lines
      .filter((l) => !l.startsWith('  devnet (31337)'))
      .every((l) => /: skipped, (no RPC URL \(set RPC_URL_\d+\)|ecosystem \w+ is not seeded over EVM RPC)$/.test(l)),
    'every other chain skipped with its reason',
  );
  t.equal(run.stderr.trim(), 'seed: 1 of 1 chain(s) failed: devnet (31337)');
});

t.test('no RPC URL at all: nothing seeded is a failure', async (t) => {
  const run = await seed([], {});
  t.equal(run.code, 1);
  t.equal(chainLines(run.stdout).filter((l) => l.includes(': FAILED, ')).length, 0, 'no chain tried');
  t.equal(run.stderr.trim(), 'seed: no chain seeded: set RPC_URL_<chainId> for each chain to seed, or name chains with --chain');
});
