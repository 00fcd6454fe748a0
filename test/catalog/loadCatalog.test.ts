import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { CatalogError } from '../../src/catalog/Catalog.ts';
import { loadCatalog } from '../../src/catalog/loadCatalog.ts';
import { fixtureCatalogDir } from '../helpers/testApp.ts';

/** A copy of the fixture catalogue in which testchain.json is replaced by `text`. */
function catalogWith(t: { teardown(fn: () => void): void }, text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  cpSync(fixtureCatalogDir, dir, { recursive: true });
  writeFileSync(join(dir, 'testchain.json'), text);
  return dir;
}

const good = JSON.parse(readFileSync(join(fixtureCatalogDir, 'testchain.json'), 'utf8')) as Record<string, unknown>;

t.test('a broken chain file stops loading with the file and the field named', async (t) => {
  t.throws(() => loadCatalog(catalogWith(t, '{ "name": ')), { name: 'CatalogError', message: /^testchain\.json: not valid JSON/ });

  const noSymbol = { ...good };
  delete noSymbol.symbol;
  t.throws(
    () => loadCatalog(catalogWith(t, JSON.stringify(noSymbol))),
    new CatalogError("testchain.json: (root): must have required property 'symbol'"),
  );

  t.throws(
    () => loadCatalog(catalogWith(t, JSON.stringify({ ...good, ecosystem: 'cosmos' }))),
    new CatalogError('testchain.json: /ecosystem: must be equal to one of the allowed values'),
  );
  t.throws(
    () => loadCatalog(catalogWith(t, JSON.stringify({ ...good, rpcUrl: 'https://secret.example' }))),
    new CatalogError('testchain.json: (root): must NOT have additional properties "rpcUrl"'),
    'an RPC URL is refused: it is deployment configuration',
  );
  const badDex = {
    ...good,
    dexes: [
      {
        name: 'X',
        slug: 'x',
        version: 'v2',
        v2FactoryAddress: '0x1234',
        v2RouterAddress: '',
        feeBps: 30,
        pairInitCodeHash: `0x${'00'.repeat(32)}`,
      },
    ],
  };
  t.throws(() => loadCatalog(catalogWith(t, JSON.stringify(badDex))), {
    name: 'CatalogError',
    message: /^testchain\.json: \/dexes\/0\/v2FactoryAddress: must match pattern/,
  });
});

t.test('a Balancer v2 DEX names its Vault, which the catalogue keeps checksummed', async (t) => {
  const balancer = { name: 'Balancer V2', slug: 'balancer', version: 'balancerV2' };
  t.throws(
    () => loadCatalog(catalogWith(t, JSON.stringify({ ...good, dexes: [balancer] }))),
    new CatalogError(
      "testchain.json: /dexes/0: must have required property 'balancerVaultAddress'; /dexes/0: must have required property 'balancerQueriesAddress'; /dexes/0: must have required property 'balancerWeightedPoolFactories'; /dexes/0: must have required property 'balancerStablePoolFactories'; /dexes/0: must match \"then\" schema",
    ),
  );
  const vault = '0xba12222222228d8ba445958a75a0704d566bf2c8';
  const queries = '0xe39b5e3b6d74016b2f6a9673d7d7493b6df549d5';
  const weighted = '0x897888115ada5773e02aa29f775430bfb5f34c51';
  const stable = '0xdb8d758bcb971e482b2c45f7f8a7740283a1bd3a';
  const full = {
    ...balancer,
    balancerVaultAddress: vault,
    balancerQueriesAddress: queries,
    balancerWeightedPoolFactories: [weighted],
    balancerStablePoolFactories: [stable],
  };
  const chain = loadCatalog(catalogWith(t, JSON.stringify({ ...good, dexes: [full] }))).chain(1001);
  t.strictSame(
    chain?.dexes.map((d) => [
      d.version,
      d.balancerVaultAddress,
      d.balancerQueriesAddress,
      d.balancerWeightedPoolFactories,
      d.balancerStablePoolFactories,
      d.v2RouterAddress,
    ]),
    [
      [
        'balancerV2',
        '0xBA12222222228d8Ba445958a75a0704d566BF2C8',
        '0xE39B5e3B6D74016b2F6A9673D7d7493B6DF549d5',
        ['0x897888115Ada5773E02aA29F775430BFB5F34c51'],
        ['0xDB8d758BCb971e482B2C45f7F8a7740283A1bd3A'],
        '',
      ],
    ],
  );
});

t.test('two files cannot claim one chain id', async (t) => {
  const dir = catalogWith(t, JSON.stringify(good));
  writeFileSync(join(dir, 'again.json'), JSON.stringify({ ...good, slug: 'again' }));
  t.throws(() => loadCatalog(dir), new CatalogError('testchain.json: chainId 1001 / slug "testchain" already defined by again.json'));
});

t.test('the format is the shipped schema, whatever folder the chain files are in', async (t) => {
  const catalog = loadCatalog(fixtureCatalogDir);
  t.same(
    catalog.chains.map((c) => c.chainId),
    [1001, 1002, 728126428],
  );
  t.equal(
    catalog.token(1001, '0xEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEE')?.address,
    '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE',
    'lookups accept any case',
  );
});
