// No import loops in src/ and workers/: folders layer one way (protocols below graph below routing, ...), and no two
// files import each other. The import graph is read from the files' import statements (test/helpers/importGraph.ts);
// the fixture under test/fixtures/importCycle/ holds known loops, so the check is seen to find them.
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { cycles, folderGraph, folderOf, importGraph } from '../helpers/importGraph.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Loops that exist today and are being taken apart elsewhere; each entry must still exist (remove it when its loop
 * goes) and no other loop may appear.
 */
const KNOWN_FOLDER_CYCLES: readonly string[][] = [];
const KNOWN_FILE_CYCLES: readonly string[][] = [];

const show = (loops: readonly string[][]): string[] => loops.map((c) => c.join(' <-> ')).sort();

t.test('the check finds loops: between folders, between files (type-only imports count), not through comments', async (t) => {
  const graph = importGraph(fileURLToPath(new URL('../fixtures/importCycle', import.meta.url)), ['src']);
  t.same([...(graph.get('src/a/one.ts') ?? [])], ['src/b/two.ts']);
  t.same([...(graph.get('src/c/y.ts') ?? [])], ['src/c/x.ts'], 'the commented-out import is no edge');
  t.same(show(cycles(graph)), ['src/c/x.ts <-> src/c/y.ts'], 'one loop between files');
  t.same(show(cycles(folderGraph(graph))), ['src/a <-> src/b'], 'one loop between folders, though no file loop joins them');
});

t.test('folderOf: a folder of src/ with its subfolders, a file directly in src/ on its own, other top-level folders', async (t) => {
  t.equal(folderOf('src/protocols/uniswapV3/uniswapV3.ts'), 'src/protocols');
  t.equal(folderOf('src/graph/snapshot.ts'), 'src/graph');
  t.equal(folderOf('src/config.ts'), 'src/config.ts');
  t.equal(folderOf('workers/pricing.ts'), 'workers');
});

t.test('src/ and workers/: no import loop beyond the known ones', async (t) => {
  const graph = importGraph(root, ['src', 'workers']);
  t.ok(graph.size > 50, `the graph holds the tree's files (${graph.size})`);
  t.ok(graph.get('src/graph/snapshot.ts')?.has('src/protocols/registry.ts'), 'an import is read as an edge');
  t.same(show(cycles(folderGraph(graph))), show(KNOWN_FOLDER_CYCLES), 'loops between folders');
  t.same(show(cycles(graph)), show(KNOWN_FILE_CYCLES), 'loops between files');
});

t.test('protocols/ sits below graph/ and routing/: it imports from neither, nor from anything above it', async (t) => {
  const folders = folderGraph(importGraph(root, ['src', 'workers']));
  const below = new Set(['src/amm', 'src/catalog', 'src/config.ts', 'src/errors']);
  t.same(
    [...(folders.get('src/protocols') ?? [])].filter((f) => !below.has(f)),
    [],
  );
});
