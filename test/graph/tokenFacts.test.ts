// tokenFacts / servedToken: what a snapshot records about a chain's tokens, applied to its catalogue entries. A token
// left out is served quotable: false with the finding's words (the native asset with its wrapped token); a found
// approve-reset rule adds approvalReset: true, as the catalogue flag does; tokens without a finding are the very
// catalogue objects. A followed block keeps its snapshot's findings (same TokenFacts), a reload with others does not.
import t from 'tap';
import { loadCatalog } from '../../src/catalog/loadCatalog.ts';
import { PoolGraph } from '../../src/graph/PoolGraph.ts';
import { loadSnapshots, type Snapshot } from '../../src/graph/snapshot.ts';
import { servedToken, servedTokens, tokenFacts } from '../../src/graph/tokenFacts.ts';
import { fixtureCatalogDir, fixtureSnapshotDir } from '../helpers/testApp.ts';

const catalog = loadCatalog(fixtureCatalogDir);
const chain = catalog.chain(1001)!;
const [seeded] = loadSnapshots(fixtureSnapshotDir).snapshots;
const token = (symbol: string) => chain.tokens.find((x) => x.symbol === symbol)!;
const detail = 'decimals() is 8 on chain, 18 in the catalogue';

t.test('no findings: the catalogue tokens themselves', async (t) => {
  const facts = tokenFacts(seeded);
  t.equal(facts, tokenFacts(undefined), 'one shared empty set of findings');
  t.equal(servedTokens(facts, chain), chain.tokens, "the catalogue's list");
  for (const x of chain.tokens) t.equal(servedToken(facts, chain, x), x, `${x.symbol}: the same object`);
});

t.test('findings: not quotable with the reason, the reset rule as approvalReset, the rest untouched', async (t) => {
  const snapshot: Snapshot = {
    ...seeded,
    excludedTokens: [{ address: token('WETH').address, reason: 'metadata', detail, pools: [] }],
    approvalResetTokens: [token('USDC').address.toLowerCase()],
  };
  const facts = tokenFacts(snapshot);
  t.same(servedToken(facts, chain, token('WETH')), { ...token('WETH'), quotable: false, reason: detail });
  t.same(
    servedToken(facts, chain, token('ETH')),
    { ...token('ETH'), quotable: false, reason: detail },
    'the native asset answers for WETH',
  );
  t.same(servedToken(facts, chain, token('USDC')), { ...token('USDC'), approvalReset: true }, 'address compared in any letter case');
  t.equal(servedToken(facts, chain, token('DAI')), token('DAI'));
  t.same(
    servedTokens(facts, chain).map((x) => x.symbol),
    chain.tokens.map((x) => x.symbol),
    'catalogue order',
  );

  // A catalogue-flagged token keeps its flag whatever the snapshot says.
  const flagged = { ...token('DAI'), approvalReset: true as const };
  t.equal(servedToken(tokenFacts(seeded), chain, flagged), flagged);

  // A followed block keeps the findings object; a snapshot with equal but other lists is another set.
  const graph = new PoolGraph([snapshot], catalog);
  const followed = graph.withUpdate({
    chainId: 1001,
    blockNumber: snapshot.blockNumber + 1,
    blockHash: `0x${'11'.repeat(32)}`,
    parentHash: `0x${'22'.repeat(32)}`,
    blockTimestamp: snapshot.blockTimestamp + 12,
    gasPriceWei: '1',
    pools: [],
    removed: [],
  });
  t.not(followed.snapshot(1001), graph.snapshot(1001), 'a new snapshot object for the block');
  t.equal(tokenFacts(followed.snapshot(1001)), tokenFacts(graph.snapshot(1001)), 'the same findings');
  const reloaded = tokenFacts({ ...snapshot, approvalResetTokens: [...snapshot.approvalResetTokens!] });
  t.not(reloaded.id, facts.id, 'a reload is another set of findings');
});
