// A clean install is clean: every package the lockfile installs accepts every Node.js line package.json `engines`
// promises (checked at the lowest version of each line, and at the running Node), as npm's EBADENGINE check decides it
// (npm-install-checks: semver.satisfies(node, engines.node, { includePrerelease: true })). Exceptions would be named
// below and must still exist, so the list shrinks when one is fixed. @across-protocol/contracts (node >=22.18.0) is
// not in the root install: seeds/devnet/acrossContracts.ts installs it into its own folder when a devnet or test
// first reads its artifacts.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import t from 'tap';

const require = createRequire(import.meta.url);
// The semver npm itself checks engines with (installed with npm's own libraries in the dev tree).
const semver = require('semver') as {
  Range: new (range: string) => { set: readonly (readonly { semver: { version: string } }[])[] };
  minVersion(range: string): { version: string } | null;
  satisfies(version: string, range: string, options: { includePrerelease: boolean }): boolean;
};

const root = fileURLToPath(new URL('../..', import.meta.url));
const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(`${root}package-lock.json`, 'utf8')) as {
  packages: Record<string, { version?: string; engines?: { node?: string } | string[] }>;
};

/** Packages known to refuse a supported Node today, and why they stay (the issue that tracks them). */
const KNOWN: Record<string, string> = {};

t.test('every locked package accepts each Node line package.json promises', async (t) => {
  const lines = new semver.Range(pkg.engines.node).set.map(
    (comparators) => semver.minVersion(comparators.map((c) => String(c)).join(' '))!.version,
  );
  const nodes = [...new Set([...lines, process.versions.node])];
  t.ok(nodes.length >= 2, `checked at ${nodes.join(', ')}`);
  const refusing = new Map<string, string>();
  for (const [path, entry] of Object.entries(lock.packages)) {
    const range = !Array.isArray(entry.engines) ? entry.engines?.node : undefined;
    if (!path || !range) continue;
    const name = path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
    const refused = nodes.filter((v) => !semver.satisfies(v, range, { includePrerelease: true }));
    if (refused.length > 0) refusing.set(`${name}@${entry.version}`, `${range} (refuses ${refused.join(', ')})`);
  }
  t.same(
    [...refusing.keys()].map((k) => k.slice(0, k.lastIndexOf('@'))).sort(),
    Object.keys(KNOWN).sort(),
    `packages refusing a supported Node: ${[...refusing].map(([k, v]) => `${k} ${v}`).join('; ')}`,
  );
});
