import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixtureCatalogDir } from './testApp.ts';

/** A catalogue file's token entry. */
export interface FixtureToken {
  readonly address: string;
  readonly symbol: string;
  readonly name: string;
  readonly slug: string;
  readonly decimals: number;
  readonly logo: string;
}

/** A temporary copy of the fixture catalogue whose testchain (1001) also lists `tokens`; removed at teardown. */
export function fixtureCatalogWith(t: { teardown(fn: () => void): void }, tokens: readonly FixtureToken[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'fixture-catalog-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  cpSync(fixtureCatalogDir, dir, { recursive: true });
  const chain = JSON.parse(readFileSync(join(dir, 'testchain.json'), 'utf8')) as { tokens: FixtureToken[] };
  chain.tokens.push(...tokens);
  writeFileSync(join(dir, 'testchain.json'), JSON.stringify(chain));
  return dir;
}
