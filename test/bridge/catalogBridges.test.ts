// The catalogue's bridge entries against independent oracles:
// - every production SpokePool address equals the `SpokePool` of @across-protocol/contracts'
//   dist/broadcast/deployed-addresses.json for that chain id, and every EVM chain that file gives a SpokePool
//   (and the catalogue can quote) lists Across;
// - every bridgeable asset's token address and decimals equal @across-protocol/constants TOKEN_SYMBOLS_MAP
//   (the BNB Smart Chain variants USDC-BNB / USDT-BNB / WBTC-BNB on chain 56);
// - the devnet files name the deterministic devnet SpokePool of seeds/devnet/deployAcross.ts;
// - the loader refuses broken bridge entries with a message naming the file and field.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { getAddress } from 'viem';
import { resolveArtifact } from '../../seeds/devnet/artifacts.ts';
import { acrossDevnetAddresses } from '../../seeds/devnet/deployAcross.ts';
import { CatalogError } from '../../src/catalog/Catalog.ts';
import { loadCatalog } from '../../src/catalog/loadCatalog.ts';

const require = createRequire(import.meta.url);
const deployed = JSON.parse(readFileSync(resolveArtifact('@across-protocol/contracts/dist/broadcast/deployed-addresses.json'), 'utf8')) as {
  chains: Record<string, { chain_name: string; contracts: Record<string, { address: string }> }>;
};
const { TOKEN_SYMBOLS_MAP } = require('@across-protocol/constants') as {
  TOKEN_SYMBOLS_MAP: Record<string, { decimals: number; addresses: Record<string, string> }>;
};

const catalog = loadCatalog();
const CATALOG_DIR = join(import.meta.dirname, '..', '..', 'catalog');
const PRODUCTION = ['ethereum', 'optimism', 'bsc', 'polygon', 'base', 'arbitrum', 'avalanche'];

/** The Across constants symbol of an asset key on a chain. */
function acrossSymbol(asset: string, chainId: number): string {
  if (asset === 'ETH') return 'WETH';
  if (chainId === 56 && ['USDC', 'USDT', 'WBTC'].includes(asset)) return `${asset}-BNB`;
  return asset;
}

t.test('production SpokePool addresses equal @across-protocol/contracts deployed-addresses.json', async (t) => {
  for (const slug of PRODUCTION) {
    const chain = catalog.chain(slug)!;
    t.ok(chain, `${slug} is in the catalogue`);
    const across = chain.bridges.find((b) => b.slug === 'across');
    t.ok(across, `${slug} lists Across`);
    const oracle = deployed.chains[String(chain.chainId)]?.contracts.SpokePool?.address;
    t.equal(across!.spokePoolAddress, getAddress(oracle!), `${slug} (${chain.chainId}) SpokePool`);
    t.strictSame([across!.protocol, across!.network], ['across', 'mainnet']);
  }
  // every EVM chain with a deployed SpokePool that the catalogue can quote has the bridge
  for (const chain of catalog.chains) {
    if (chain.ecosystem !== 'evm' || chain.dexes.length === 0 || chain.chainId > 1_000_000) continue;
    if (deployed.chains[String(chain.chainId)]?.contracts.SpokePool)
      t.ok(chain.bridges.length > 0, `${chain.slug} has a SpokePool and lists a bridge`);
  }
});

t.test('bridgeable assets equal @across-protocol/constants token addresses and decimals', async (t) => {
  let count = 0;
  for (const slug of PRODUCTION) {
    const chain = catalog.chain(slug)!;
    for (const asset of chain.bridges[0].assets) {
      const oracle = TOKEN_SYMBOLS_MAP[acrossSymbol(asset.asset, chain.chainId)];
      const address = oracle?.addresses[String(chain.chainId)];
      t.ok(address, `${slug} ${asset.asset}: Across knows the token`);
      t.equal(asset.token, getAddress(address!), `${slug} ${asset.asset} address`);
      const token = catalog.token(chain.chainId, asset.token)!;
      t.equal(token.decimals, oracle!.decimals, `${slug} ${asset.asset} (${token.symbol}) decimals`);
      count++;
    }
  }
  t.equal(count, 30, 'assets checked');
  const bscUsdc = catalog.token(56, catalog.chain('bsc')!.bridges[0].assets.find((a) => a.asset === 'USDC')!.token)!;
  t.equal(bscUsdc.decimals, 18, 'USDC has 18 decimals on BNB Smart Chain (6 on Ethereum): scaled by the fee model');
});

t.test('devnet files name the devnet SpokePool', async (t) => {
  const { spokePool, wrappedNativeToken } = acrossDevnetAddresses();
  for (const slug of ['devnet', 'devnet-b']) {
    const chain = catalog.chain(slug)!;
    t.equal(chain.bridges[0].spokePoolAddress, spokePool, slug);
    t.equal(chain.bridges[0].assets.find((a) => a.asset === 'ETH')!.token, wrappedNativeToken, `${slug}: ETH is the devnet WETH9`);
  }
});

t.test('the loader refuses broken bridge entries', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'bridge-catalog-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const base = JSON.parse(readFileSync(join(CATALOG_DIR, 'devnet.json'), 'utf8')) as { bridges: Array<Record<string, unknown>> };
  const write = (mutate: (bridge: Record<string, unknown>) => void): void => {
    const copy = structuredClone(base);
    mutate(copy.bridges[0]);
    writeFileSync(join(dir, 'devnet.json'), JSON.stringify(copy));
  };
  write((b) => {
    (b.assets as Array<Record<string, unknown>>)[0].token = '0x0000000000000000000000000000000000000001';
  });
  t.throws(
    () => loadCatalog(dir),
    new CatalogError('devnet.json: /bridges/0/assets/0/token: 0x0000000000000000000000000000000000000001 is not a token of this chain'),
  );
  write((b) => {
    (b.assets as Array<Record<string, unknown>>)[1].asset = 'ETH';
  });
  t.throws(() => loadCatalog(dir), new CatalogError('devnet.json: /bridges/0/assets/1/asset: "ETH" listed twice'));
  write((b) => {
    (b.assets as Array<Record<string, unknown>>)[0].fixedFee = '1e-3';
  });
  t.throws(() => loadCatalog(dir), /devnet\.json: \/bridges\/0\/assets\/0\/fixedFee: must match pattern/);
  write((b) => {
    b.fillDeadlineOffsetSeconds = 30_000;
  });
  t.throws(() => loadCatalog(dir), /devnet\.json: \/bridges\/0\/fillDeadlineOffsetSeconds: must be <= 21600/);
});
