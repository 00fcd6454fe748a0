import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * One line of the bench table. Every part (http, amm, scale, seed) reports its results as rows so that
 * `npm run bench` can print them all in one table. Values are preformatted text.
 */
export interface BenchRow {
  /** Which part measured it: 'http', 'amm', 'scale', 'seed'. */
  readonly part: string;
  /** What was measured, e.g. 'POST /quotes/routes c=50'. */
  readonly case: string;
  /** The measurement, e.g. '11,204 req/s, p50 3.9 ms, p99 8.1 ms'. */
  readonly result: string;
  /** The comparison in the same run, e.g. '52% of ceiling' or '14x v3-sdk'; '' when none. */
  readonly ratio: string;
  /** The target this row is judged against, e.g. '>= 50%'; '' when none. */
  readonly target: string;
  /** Whether the target is met; null when the row has no target. */
  readonly met: boolean | null;
}

/** Environment variable naming the JSON-lines file `bench/all.ts` collects rows from. */
export const BENCH_ROWS_ENV = 'BENCH_ROWS_FILE';

/** Reports rows: appended as JSON lines to $BENCH_ROWS_FILE when `npm run bench` runs the part, printed as a table always. */
export function reportRows(rows: readonly BenchRow[], print = true): void {
  const file = process.env[BENCH_ROWS_ENV];
  if (file) appendFileSync(file, rows.map((r) => `${JSON.stringify(r)}\n`).join(''));
  if (print) process.stdout.write(`${formatTable(rows)}\n`);
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|');
}

/** Renders rows as one Markdown table (part | case | result | ratio | target | met). */
export function formatTable(rows: readonly BenchRow[]): string {
  const head = ['part', 'case', 'result', 'ratio', 'target', 'met'];
  const body = rows.map((r) => [r.part, r.case, r.result, r.ratio, r.target, r.met === null ? '' : r.met ? 'yes' : '**no**'].map(cell));
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells: string[]): string => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  return [line(head), `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`, ...body.map(line)].join('\n');
}

/** Formats a number with thousands separators and the given decimals. */
export function num(value: number, decimals = 0): string {
  return value.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
}

/** Formats milliseconds with sub-millisecond resolution where it matters. */
export function ms(value: number): string {
  if (value < 1) return `${(value * 1000).toFixed(0)} µs`;
  if (value < 10) return `${value.toFixed(2)} ms`;
  if (value < 100) return `${value.toFixed(1)} ms`;
  return `${value.toFixed(0)} ms`;
}

/**
 * Replaces the text between `<!-- bench:<name>:start -->` and `<!-- bench:<name>:end -->` in bench/README.md
 * (`-- --write-readme`); false, with a message on stderr, when the markers are missing.
 */
export function writeReadmeBlock(name: string, text: string): boolean {
  const start = `<!-- bench:${name}:start -->`;
  const end = `<!-- bench:${name}:end -->`;
  const readme = join(import.meta.dirname, '..', 'README.md');
  const current = readFileSync(readme, 'utf8');
  const a = current.indexOf(start);
  const b = current.indexOf(end);
  if (a < 0 || b < a) {
    process.stderr.write(`bench/README.md has no ${start} ... ${end} block; table not written\n`);
    return false;
  }
  writeFileSync(readme, `${current.slice(0, a + start.length)}\n${text}\n${current.slice(b)}`);
  process.stdout.write('bench/README.md updated\n');
  return true;
}
