// loadServedSnapshots: the snapshots an instance serves from SNAPSHOT_DIR over the shipped read-only folder. Per chain
// the higher block wins, SNAPSHOT_DIR's on a tie; a missing SNAPSHOT_DIR holds nothing yet; one folder given twice is
// read once; a refused shipped file is named with its folder. Files are copies of the shipped devnet snapshots with
// their blockNumber set by hand.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { projectRoot } from '../../src/config.ts';
import { loadServedSnapshots } from '../../src/graph/snapshot.ts';

const shippedText = (file: string): Record<string, unknown> =>
  JSON.parse(readFileSync(join(projectRoot, 'seeds', 'snapshots', file), 'utf8')) as Record<string, unknown>;

function folder(t: { teardown(fn: () => void): void }, files: Record<string, Record<string, unknown> | string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'sqs-served-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  for (const [name, content] of Object.entries(files))
    writeFileSync(join(dir, name), typeof content === 'string' ? content : JSON.stringify(content));
  return dir;
}

const blocks = (load: ReturnType<typeof loadServedSnapshots>) => load.snapshots.map((s) => [s.chainId, s.blockNumber]);

t.test('per chain the newer block, SNAPSHOT_DIR on a tie; chains of either folder', async (t) => {
  const a = shippedText('devnet.json');
  const b = shippedText('devnet-b.json');
  const shipped = folder(t, { 'devnet.json': { ...a, blockNumber: 100 }, 'devnet-b.json': { ...b, blockNumber: 100 } });

  const newer = folder(t, { 'devnet.json': { ...a, blockNumber: 150 } });
  const load = loadServedSnapshots({ snapshotDir: newer, shippedSnapshotDir: shipped });
  t.same(load.errors, []);
  t.same(
    blocks(load),
    [
      [31338, 100],
      [31337, 150],
    ],
    'in file-name order, as loadSnapshots',
  );
  t.same(
    [...load.files],
    [
      [31338, join(shipped, 'devnet-b.json')],
      [31337, join(newer, 'devnet.json')],
    ],
    'the file of each chain',
  );

  const older = folder(t, { 'devnet.json': { ...a, blockNumber: 99 } });
  const fromOlder = loadServedSnapshots({ snapshotDir: older, shippedSnapshotDir: shipped });
  t.same(blocks(fromOlder), [
    [31338, 100],
    [31337, 100],
  ]);
  t.equal(fromOlder.files.get(31337), join(shipped, 'devnet.json'), 'an older seeded snapshot loses to the shipped one');

  const tie = folder(t, { 'devnet.json': { ...a, blockNumber: 100, seededAt: '2030-01-01T00:00:00.000Z' } });
  const tied = loadServedSnapshots({ snapshotDir: tie, shippedSnapshotDir: shipped });
  t.equal(tied.snapshots.find((x) => x.chainId === 31337)!.seededAt, '2030-01-01T00:00:00.000Z', "same block: SNAPSHOT_DIR's");
  t.equal(tied.files.get(31337), join(tie, 'devnet.json'));
});

t.test('a missing SNAPSHOT_DIR holds nothing; no shipped folder; one folder twice', async (t) => {
  const shipped = folder(t, { 'devnet.json': { ...shippedText('devnet.json'), blockNumber: 7 } });
  const missing = join(shipped, 'not-yet', 'snapshots');
  const fresh = loadServedSnapshots({ snapshotDir: missing, shippedSnapshotDir: shipped });
  t.same(fresh.errors, [], 'a folder nothing was seeded into yet is no error');
  t.same(blocks(fresh), [[31337, 7]], 'the shipped snapshot');

  const own = folder(t, { 'devnet-b.json': shippedText('devnet-b.json') });
  t.same(blocks(loadServedSnapshots({ snapshotDir: own, shippedSnapshotDir: undefined })), [[31338, 180]], 'no shipped layer');
  t.same(loadServedSnapshots({ snapshotDir: missing, shippedSnapshotDir: undefined }), { snapshots: [], errors: [], files: new Map() });

  const twice = loadServedSnapshots({ snapshotDir: shipped, shippedSnapshotDir: `${shipped}/` });
  t.same(twice.errors, [], 'no "already has snapshot" error');
  t.same(blocks(twice), [[31337, 7]]);
});

t.test('refused files: SNAPSHOT_DIR by file name, the shipped folder by path', async (t) => {
  const shipped = folder(t, { 'devnet.json': '{"formatVersion": 1,' });
  const own = folder(t, { 'devnet-b.json': '[]' });
  const load = loadServedSnapshots({ snapshotDir: own, shippedSnapshotDir: shipped });
  t.equal(load.snapshots.length, 0);
  t.equal(load.errors.length, 2);
  t.match(load.errors[0], /^devnet-b\.json: /);
  t.match(load.errors[1], `${join(shipped, 'devnet.json')}: not valid JSON`);
});
