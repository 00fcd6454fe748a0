import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/** Relative `.ts` imports of one file: static imports and re-exports (type-only ones included), dynamic `import('…')`. */
const IMPORT =
  /(?:^|[\s;])(?:import|export)\s[^'"`;]*?\sfrom\s*['"](\.{1,2}\/[^'"]+)['"]|(?:^|[\s;])import\s*['"](\.{1,2}\/[^'"]+)['"]|\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/gm;

/** Every `.ts` file under `dir` (recursively), as absolute paths. */
function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : tsFiles(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Comments stripped (a commented-out import is no edge); string contents are left alone. */
function stripComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/(^|[^:'"`])\/\/[^\n]*/g, '$1');
}

/**
 * The import graph of the TypeScript files under `dirs` (paths relative to `root`): each file to the files it
 * imports among them. Imports of files outside `dirs` (packages, other folders) are left out.
 */
export function importGraph(root: string, dirs: readonly string[]): Map<string, Set<string>> {
  const files = dirs.flatMap((d) => tsFiles(resolve(root, d)));
  const known = new Set(files);
  const graph = new Map<string, Set<string>>();
  for (const file of files) {
    const edges = new Set<string>();
    for (const m of stripComments(readFileSync(file, 'utf8')).matchAll(IMPORT)) {
      const target = resolve(dirname(file), m[1] ?? m[2] ?? m[3]);
      if (known.has(target)) edges.add(relative(root, target).split(sep).join('/'));
    }
    graph.set(relative(root, file).split(sep).join('/'), edges);
  }
  return graph;
}

/**
 * The folder a file belongs to for layering: `src/<area>` for a file in a folder of src/ (its subfolders included,
 * `src/protocols/uniswapV3/…` is `src/protocols`), the file itself for a file directly in src/ (each is a module of
 * its own: config.ts, app.ts), else its top-level folder (`workers`).
 */
export function folderOf(file: string): string {
  const parts = file.split('/');
  if (parts.length <= 2) return parts[0] === 'src' ? file : parts[0];
  return `${parts[0]}/${parts[1]}`;
}

/** The graph between folders (folderOf), self-edges left out. */
export function folderGraph(files: ReadonlyMap<string, ReadonlySet<string>>): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const [file, targets] of files) {
    const from = folderOf(file);
    const edges = out.get(from) ?? new Set<string>();
    out.set(from, edges);
    for (const target of targets) if (folderOf(target) !== from) edges.add(folderOf(target));
  }
  return out;
}

/** The strongly connected components of more than one node (Tarjan): each is a set of nodes importing each other in a loop. */
export function cycles(graph: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop() as string;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || graph.get(v)?.has(v)) out.push(component.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return out;
}
