/**
 * `npx tsx seeds/devnet/reseedShipped.ts`: regenerates the shipped snapshots seeds/snapshots/devnet.json and
 * devnet-b.json by starting both devnet instances (chain ids 31337 and 31338, free ports) and running the seeding run.
 */
import { fileURLToPath } from 'node:url';
import { loadCatalog } from '../../src/catalog/loadCatalog.ts';
import { formatReport } from '../../src/chain/formatReport.ts';
import { seedChains } from '../../src/chain/seedChains.ts';
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
  console.log(formatReport(report));
  if (report.seeded !== 2) process.exitCode = 1;
} finally {
  await a.stop();
  await b.stop();
}
