/** `npm run ts -- seeds/devnet/writeCatalog.ts`: regenerates catalog/devnet.json and catalog/devnet-b.json from the devnet plan. */
import { writeFileSync } from 'node:fs';
import { devnetCatalog } from './devnetCatalog.ts';

for (const variant of ['devnet', 'devnet-b'] as const) {
  const path = new URL(`../../catalog/${variant}.json`, import.meta.url);
  writeFileSync(path, `${JSON.stringify(devnetCatalog(variant), null, 2)}\n`);
  console.log(`wrote catalog/${variant}.json`);
}
