/**
 * `npm run bench`: runs every part (amm, http, scale, seed, routing), each in its own process as `npm run bench:<part>`
 * would, collects the rows they report (bench/lib/benchRows.ts) and prints them as ONE table with the machine.
 * `npm run bench -- --write-readme` also replaces the table between the markers in bench/README.md.
 * BENCH_PARTS (comma list, default "amm,http,scale,seed,routing") picks parts.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tsLoader } from '../test/helpers/serverProcess.ts';
import { BENCH_ROWS_ENV, type BenchRow, formatTable, writeReadmeBlock } from './lib/benchRows.ts';
import { describeMachine } from './lib/machine.ts';

/** Repository root. */
const ROOT = join(import.meta.dirname, '..');

const PARTS = (process.env.BENCH_PARTS ?? 'amm,http,scale,seed,routing').split(',').filter(Boolean);

function runPart(part: string, rowsFile: string): Promise<{ code: number; seconds: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', tsLoader(ROOT), join(ROOT, 'bench', `${part}.ts`)], {
      cwd: ROOT,
      env: { ...process.env, [BENCH_ROWS_ENV]: rowsFile },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.on('exit', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), seconds: (performance.now() - started) / 1000 }));
  });
}

const dir = mkdtempSync(join(tmpdir(), 'bench-all-'));
const rows: BenchRow[] = [];
const started = new Date();
try {
  for (const part of PARTS) {
    const script = join(ROOT, 'bench', `${part}.ts`);
    process.stdout.write(`\n=== bench:${part} ===\n`);
    if (!existsSync(script)) {
      rows.push({ part, case: '(part)', result: `not run: bench/${part}.ts does not exist`, ratio: '', target: '', met: null });
      continue;
    }
    const file = join(dir, `${part}.jsonl`);
    writeFileSync(file, '');
    const { code, seconds } = await runPart(part, file);
    const reported = readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as BenchRow);
    rows.push(...reported);
    if (code !== 0)
      rows.push({
        part,
        case: '(part)',
        result: `FAILED: exit code ${code} after ${seconds.toFixed(0)} s (output above)`,
        ratio: '',
        target: '',
        met: false,
      });
    else if (reported.length === 0)
      rows.push({
        part,
        case: '(part)',
        result: `ran in ${seconds.toFixed(0)} s; reports no rows (its own table is above)`,
        ratio: '',
        target: '',
        met: null,
      });
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const table = formatTable(rows);
const header = `Machine: ${describeMachine()}\nCommand: npm run bench (${PARTS.join(', ')}), ${started.toISOString()}\n`;
process.stdout.write(`\n${header}\n${table}\n`);
if (process.argv.includes('--write-readme') && !writeReadmeBlock('table', `${header}\n${table}`)) process.exitCode = 1;
