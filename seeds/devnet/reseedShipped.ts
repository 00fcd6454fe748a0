/**
 * `npm run ts -- seeds/devnet/reseedShipped.ts`: regenerates the shipped snapshots seeds/snapshots/devnet.json and
 * devnet-b.json by starting both devnet instances (chain ids 31337 and 31338, free ports) and running the seeding run.
 * The files are written without `blockHash`: a devnet started later has the same blocks with other timestamps, so
 * other hashes, and a follower would take the shipped snapshot's block for one a reorg removed and seed afresh.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadCatalog } from '../../src/catalog/loadCatalog.ts';
import { formatReport } from '../../src/chain/formatReport.ts';
import { seedChains } from '../../src/chain/seedChains.ts';
import type { Snapshot } from '../../src/graph/snapshot.ts';
import { writeFileAtomic } from '../../src/store/writeFileAtomic.ts';
import { startDevnet } from './startDevnet.ts';

const a = await startDevnet({ chainId: 31337 });
const b = await startDevnet({ chainId: 31338 });
try {
  const catalog = loadCatalog(fileURLToPath(new URL('../../catalog', import.meta.url)));
  const chains = [catalog.chain('devnet'), catalog.chain('devnet-b')].filter((c) => c !== undefined);
  const report = await seedChains({
    chains,
    rpcUrls: new Map([
      [a.chainId, a.rpcUrl],
      [b.chainId, b.rpcUrl],
    ]),
    snapshotDir: fileURLToPath(new URL('../snapshots', import.meta.url)),
  });
  for (const seeded of report.chains) {
    if (!seeded.file) continue;
    const { blockHash: _, ...shipped } = JSON.parse(readFileSync(seeded.file, 'utf8')) as Snapshot;
    writeFileAtomic(seeded.file, `${JSON.stringify(shipped, null, 1)}\n`);
  }
  console.log(formatReport(report));
  if (report.seeded !== 2) process.exitCode = 1;
} finally {
  await a.stop();
  await b.stop();
}
