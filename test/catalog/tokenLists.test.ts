import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { getAddress } from 'viem';
import { CatalogError, NATIVE_TOKEN_ADDRESS } from '../../src/catalog/Catalog.ts';
import { loadCatalog } from '../../src/catalog/loadCatalog.ts';
import { fixtureCatalogDir } from '../helpers/testApp.ts';

const require = createRequire(import.meta.url);
const ROOT = join(import.meta.dirname, '..', '..');

interface Entry {
  chainId: number;
  address: string;
  symbol: string;
  name: string;
  decimals: number;
  logoURI?: string;
  extensions?: { bridgeInfo?: Record<string, { tokenAddress: string }> };
}
/** The Uniswap default list as published on npm, read directly (not through the code under test). */
const defaultList = require('@uniswap/default-token-list') as {
  name: string;
  version: { major: number; minor: number; patch: number };
  tokens: Entry[];
};
const catalog = loadCatalog(join(ROOT, 'catalog'));
const rawFile = (file: string) =>
  JSON.parse(readFileSync(join(ROOT, 'catalog', file), 'utf8')) as {
    tokenLists?: string[];
    excludeTokens?: string[];
    tokens: { address: string }[];
  };

t.test('every production EVM chain takes the Uniswap default list; every list entry is valid and catalogued once', async (t) => {
  const listed = catalog.chains.filter((c) => rawFile(c.file).tokenLists?.includes('@uniswap/default-token-list'));
  t.same(listed.map((c) => c.slug).sort(), ['arbitrum', 'avalanche', 'base', 'bsc', 'ethereum', 'optimism', 'polygon']);
  for (const chain of listed) {
    const excluded = new Set((rawFile(chain.file).excludeTokens ?? []).map((a) => a.toLowerCase()));
    const own = new Set(rawFile(chain.file).tokens.map((x) => x.address.toLowerCase()));
    const entries = defaultList.tokens.filter((e) => e.chainId === chain.chainId && !excluded.has(e.address.toLowerCase()));
    t.ok(entries.length > 40, `${chain.slug}: ${entries.length} list entries`);
    for (const e of entries) {
      t.equal(e.address, getAddress(e.address), `${chain.slug} ${e.symbol}: address checksummed`);
      t.ok(
        Number.isInteger(e.decimals) && e.decimals >= 0 && e.decimals <= 36,
        `${chain.slug} ${e.symbol}: decimals ${e.decimals} in 0..36`,
      );
      const found = chain.tokens.filter((x) => x.address.toLowerCase() === e.address.toLowerCase());
      t.equal(found.length, 1, `${chain.slug} ${e.symbol}: catalogued once`);
      t.equal(found[0].decimals, e.decimals, `${chain.slug} ${e.symbol}: decimals as listed`);
      // A list token's logo is its logoURI; an own token keeps its logo or takes the list's when it had none.
      if (!own.has(e.address.toLowerCase())) {
        t.equal(found[0].logo, e.logoURI ?? '', `${chain.slug} ${e.symbol}: logo from logoURI`);
        t.equal(found[0].symbol, e.symbol);
      } else if (e.logoURI) {
        t.not(found[0].logo, '', `${chain.slug} ${e.symbol}: own token has a logo`);
      }
    }
    t.equal(
      chain.tokens.length,
      new Set([...entries.map((e) => e.address.toLowerCase()), ...own]).size,
      `${chain.slug}: own tokens + list entries, nothing else`,
    );
  }
});

t.test(
  'no chain has two tokens at one address or two tokens a symbol lookup could confuse; native and wrapped native once each',
  async (t) => {
    for (const chain of catalog.chains) {
      const addresses = chain.tokens.map((x) => (chain.ecosystem === 'evm' ? x.address.toLowerCase() : x.address));
      t.equal(new Set(addresses).size, addresses.length, `${chain.slug}: addresses unique`);
      const symbols = new Map<string, string[]>();
      for (const x of chain.tokens) symbols.set(x.symbol.toUpperCase(), [...(symbols.get(x.symbol.toUpperCase()) ?? []), x.address]);
      t.same(
        [...symbols].filter(([, a]) => a.length > 1),
        [],
        `${chain.slug}: symbols unique (case-insensitive)`,
      );
      if (chain.ecosystem !== 'evm') continue;
      t.equal(chain.tokens.filter((x) => x.address === NATIVE_TOKEN_ADDRESS).length, 1, `${chain.slug}: native asset once`);
      t.equal(
        chain.tokens.find((x) => x.address === NATIVE_TOKEN_ADDRESS)!.symbol,
        chain.symbol,
        `${chain.slug}: native asset carries the chain's symbol`,
      );
      if (chain.wrappedNativeToken)
        t.equal(chain.tokens.filter((x) => x.address === chain.wrappedNativeToken).length, 1, `${chain.slug}: wrapped native once`);
    }
    // Polygon's native-asset ERC-20 stand-in (the MRC20 at 0x…1010, listed as MATIC) would be the native asset twice.
    t.notOk(catalog.token(137, '0x0000000000000000000000000000000000001010'), 'polygon: the 0x…1010 stand-in is excluded');
    // Ethereum: the list has two LIT tokens (Litentry and Lighter); the second is excluded.
    t.same(
      catalog
        .chain(1)!
        .tokens.filter((x) => x.symbol === 'LIT')
        .map((x) => x.name),
      ['Litentry'],
    );
  },
);

t.test("bridgeInfo links of the list agree with the catalogue's Across asset mapping", async (t) => {
  let checked = 0;
  for (const a of catalog.chains) {
    for (const b of catalog.chains) {
      const from = a.bridges.find((x) => x.network === 'mainnet');
      const to = b.bridges.find((x) => x.network === 'mainnet');
      if (a === b || !from || !to) continue;
      for (const asset of from.assets) {
        const there = to.assets.find((x) => x.asset === asset.asset);
        const entry = defaultList.tokens.find((e) => e.chainId === a.chainId && e.address.toLowerCase() === asset.token.toLowerCase());
        const link = entry?.extensions?.bridgeInfo?.[String(b.chainId)]?.tokenAddress;
        if (!there || !link) continue;
        t.equal(getAddress(link), there.token, `${asset.asset} ${a.slug} -> ${b.slug}`);
        checked++;
      }
    }
  }
  t.equal(checked, 30, 'links checked');
});

t.test('USDT on Ethereum is flagged for an approval reset; nothing else on the production chains is', async (t) => {
  const flagged = catalog.chains.flatMap((c) => c.tokens.filter((x) => x.approvalReset).map((x) => `${c.slug}:${x.symbol}:${x.address}`));
  t.same(flagged, ['ethereum:USDT:0xdAC17F958D2ee523a2206206994597C13D831ec7']);
});

/** A fixture catalogue whose testchain.json gets `extra` fields, plus files written beside it. */
function catalogWith(t: { teardown(fn: () => void): void }, extra: Record<string, unknown>, files: Record<string, unknown> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-lists-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  cpSync(fixtureCatalogDir, dir, { recursive: true });
  const chain = JSON.parse(readFileSync(join(dir, 'testchain.json'), 'utf8')) as Record<string, unknown>;
  writeFileSync(join(dir, 'testchain.json'), JSON.stringify({ ...chain, ...extra }));
  mkdirSync(join(dir, 'lists'), { recursive: true });
  for (const [name, content] of Object.entries(files))
    writeFileSync(join(dir, name), typeof content === 'string' ? content : JSON.stringify(content));
  return dir;
}

const list = (name: string, tokens: Partial<Entry>[]) => ({
  name,
  timestamp: '2026-01-01T00:00:00.000Z',
  version: { major: 1, minor: 2, patch: 3 },
  tokens,
});
const ABC = {
  chainId: 1001,
  address: '0x00000000000000000000000000000000000000AB',
  name: 'Abc Token',
  symbol: 'A.B-C',
  decimals: 9,
  logoURI: 'ipfs://QmAbc',
};

t.test(
  'a list file beside the chain file: entries of the chain id join, with slug and logo; own tokens win and take the logo',
  async (t) => {
    const dir = catalogWith(
      t,
      { tokenLists: ['./lists/mine.json'] },
      {
        'lists/mine.json': list('Mine', [
          ABC,
          { ...ABC, chainId: 1, address: '0x00000000000000000000000000000000000000CD', symbol: 'OTHER' },
          {
            chainId: 1001,
            address: '0x2222222222222222222222222222222222222222',
            name: 'USD Coin (list)',
            symbol: 'USDC',
            decimals: 6,
            logoURI: 'https://logo.test/usdc.png',
          },
        ]),
      },
    );
    const chain = loadCatalog(dir).chain(1001)!;
    t.same(
      chain.tokens.map((x) => x.symbol),
      ['A.B-C', 'DAI', 'ETH', 'USDC', 'WETH'],
    );
    t.same(chain.tokens[0], {
      address: '0x00000000000000000000000000000000000000AB',
      symbol: 'A.B-C',
      name: 'Abc Token',
      slug: 'a-b-c',
      decimals: 9,
      logo: 'ipfs://QmAbc',
      blockchainId: 1001,
    });
    t.same(chain.tokens[3], {
      address: '0x2222222222222222222222222222222222222222',
      symbol: 'USDC',
      name: 'USD Coin',
      slug: 'usdc',
      decimals: 6,
      logo: 'https://logo.test/usdc.png',
      blockchainId: 1001,
    });
  },
);

t.test('a decimals conflict stops loading, naming both sources', async (t) => {
  const dir = catalogWith(
    t,
    { tokenLists: ['./lists/a.json', './lists/b.json'] },
    {
      'lists/a.json': list('List A', [ABC]),
      'lists/b.json': list('List B', [
        { chainId: 1001, address: '0x3333333333333333333333333333333333333333', name: 'Dai', symbol: 'DAI', decimals: 6 },
        { ...ABC, decimals: 18 },
      ]),
    },
  );
  t.throws(
    () => loadCatalog(dir),
    new CatalogError(
      'testchain.json: token 0x3333333333333333333333333333333333333333 has 18 decimals in testchain.json /tokens/3 but 6 in ./lists/b.json (List B 1.2.3) /tokens/0',
    ),
  );
  writeFileSync(join(dir, 'lists/b.json'), JSON.stringify(list('List B', [{ ...ABC, decimals: 18 }])));
  t.throws(
    () => loadCatalog(dir),
    new CatalogError(
      'testchain.json: token 0x00000000000000000000000000000000000000AB has 9 decimals in ./lists/a.json (List A 1.2.3) /tokens/0 but 18 in ./lists/b.json (List B 1.2.3) /tokens/0',
    ),
  );
});

t.test('excludeTokens leaves entries out; an exclusion that matches no entry is refused', async (t) => {
  const files = { 'lists/a.json': list('List A', [ABC]) };
  t.same(
    loadCatalog(catalogWith(t, { tokenLists: ['./lists/a.json'], excludeTokens: [ABC.address.toLowerCase()] }, files))
      .chain(1001)!
      .tokens.map((x) => x.symbol),
    ['DAI', 'ETH', 'USDC', 'WETH'],
  );
  t.throws(
    () =>
      loadCatalog(catalogWith(t, { tokenLists: ['./lists/a.json'], excludeTokens: ['0x2222222222222222222222222222222222222222'] }, files)),
    new CatalogError(
      'testchain.json: /excludeTokens/0: 0x2222222222222222222222222222222222222222 is not an entry of this chain in any of its tokenLists',
    ),
  );
});

t.test('a list that breaks the token-list schema, a missing list, a clashing slug', async (t) => {
  t.throws(
    () => loadCatalog(catalogWith(t, { tokenLists: ['./lists/bad.json'] }, { 'lists/bad.json': list('Bad', [{ ...ABC, decimals: 300 }]) })),
    new CatalogError('testchain.json: /tokenLists/0: ./lists/bad.json: not a valid token list (/tokens/0/decimals: must be <= 255)'),
  );
  t.throws(() => loadCatalog(catalogWith(t, { tokenLists: ['./lists/none.json'] })), {
    name: 'CatalogError',
    message: /^testchain\.json: \/tokenLists\/0: \.\/lists\/none\.json: not a readable JSON file/,
  });
  t.throws(() => loadCatalog(catalogWith(t, { tokenLists: ['no-such-token-list-package'] })), {
    name: 'CatalogError',
    message: /^testchain\.json: \/tokenLists\/0: no-such-token-list-package: cannot be found/,
  });
  const dai2 = { chainId: 1001, address: '0x00000000000000000000000000000000000000DA', name: 'Other Dai', symbol: 'DAI', decimals: 18 };
  const chain = loadCatalog(catalogWith(t, { tokenLists: ['./lists/a.json'] }, { 'lists/a.json': list('A', [dai2]) })).chain(1001)!;
  t.same(
    chain.tokens.filter((x) => x.symbol === 'DAI').map((x) => x.slug),
    ['dai-00000000', 'dai'],
  );
});

t.test('explicit pairs are checksummed tokens of the chain', async (t) => {
  const pair = ['0x2222222222222222222222222222222222222222', '0x3333333333333333333333333333333333333333'];
  t.same(loadCatalog(catalogWith(t, { pairs: [pair] })).chain(1001)!.pairs, [pair]);
  t.throws(
    () => loadCatalog(catalogWith(t, { pairs: [[pair[0], '0x00000000000000000000000000000000000000AB']] })),
    new CatalogError('testchain.json: /pairs/0/1: 0x00000000000000000000000000000000000000AB is not an ERC-20 token of this chain'),
  );
  t.throws(
    () => loadCatalog(catalogWith(t, { pairs: [[pair[0], NATIVE_TOKEN_ADDRESS]] })),
    new CatalogError(`testchain.json: /pairs/0/1: ${NATIVE_TOKEN_ADDRESS} is not an ERC-20 token of this chain`),
  );
});
