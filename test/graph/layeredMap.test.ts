// LayeredMap (the maps a followed block derives instead of copying: PoolGraph's pools by address, the pricing index's
// entries and lists) against a plain Map copied at every derivation: over long chains of derivations of random sets
// and deletes (small and large ones, so every tier is folded and merged), each derived map reads exactly as its
// copy, key by key and in entries() (same keys, same values, same order: a key keeps its place when its value
// changes, new keys come after), and the maps derived from earlier never change.
import t from 'tap';
import { LayeredMap } from '../../src/graph/layeredMap.ts';
import { seededRandom } from '../helpers/seededRandom.ts';

/** How a derived map reads otherwise than its copy (a key or entries()), or undefined when it reads the same. */
function mismatch(layered: LayeredMap<number, string>, oracle: Map<number, string>, keys: number): string | undefined {
  const entries = [...layered.entries()];
  if (entries.length !== oracle.size) return `${entries.length} entries, the copy has ${oracle.size}`;
  for (let k = 0; k < keys; k++) if (layered.get(k) !== oracle.get(k)) return `key ${k} reads ${layered.get(k)}, the copy ${oracle.get(k)}`;
  const values = new Map(entries);
  for (const [k, v] of oracle) if (values.get(k) !== v) return `entries() gives ${values.get(k)} for ${k}, the copy ${v}`;
  return undefined;
}

t.test('a chain of derived maps reads as maps copied at each derivation', async (t) => {
  for (const [seed, keys, changes] of [
    [1, 2_000, 5],
    [2, 2_000, 60],
    [3, 500, 200],
    [4, 10_000, 1],
  ] as const) {
    const random = seededRandom(seed);
    const first = new LayeredMap<number, string>();
    const oracle = new Map<number, string>();
    for (let k = 0; k < keys; k += 2) {
      first.set(k, `v${k}`);
      oracle.set(k, `v${k}`);
    }
    const history: [LayeredMap<number, string>, Map<number, string>][] = [[first, new Map(oracle)]];
    let map = first;
    let problem: string | undefined;
    for (let block = 1; block <= 300 && !problem; block++) {
      map = new LayeredMap(map);
      // Now and then a large derivation (a block changing many keys), else `changes` keys.
      const n = block % 97 === 0 ? keys / 2 : changes;
      for (let i = 0; i < n; i++) {
        const k = Math.floor(random() * keys);
        if (random() < 0.3) {
          map.delete(k);
          oracle.delete(k);
        } else {
          map.set(k, `b${block}:${k}`);
          oracle.set(k, `b${block}:${k}`);
        }
      }
      const found = mismatch(map, oracle, keys);
      if (found) problem = `block ${block}: ${found}`;
      if (block % 50 === 0) history.push([map, new Map(oracle)]);
    }
    t.equal(problem, undefined, `seed ${seed}: ${keys} keys, 300 derivations of ${changes} changes read as copies`);
    t.same(
      history.map(([m, o]) => mismatch(m, o, keys)),
      history.map(() => undefined),
      `seed ${seed}: the ${history.length} maps kept along the chain did not change`,
    );
  }
});

t.test('entries keep their place when their value changes, new keys come after', async (t) => {
  const map = new LayeredMap<string, number>();
  for (const k of ['a', 'b', 'c', 'd']) map.set(k, 0);
  const next = new LayeredMap(new LayeredMap(map));
  next.set('b', 1);
  next.set('e', 2);
  next.delete('c');
  t.same(
    [...next.entries()],
    [
      ['a', 0],
      ['b', 1],
      ['d', 0],
      ['e', 2],
    ],
  );
  t.same(
    [...map.entries()].map(([k]) => k),
    ['a', 'b', 'c', 'd'],
    'the map derived from is unchanged',
  );
});
