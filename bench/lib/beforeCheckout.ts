import { execFileSync } from 'node:child_process';
import { mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../../test/helpers/serverProcess.ts';

/** A detached worktree of a git ref (BENCH_BEFORE) beside this checkout, sharing its node_modules (removeCheckout at the end). */
export function beforeCheckout(ref: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'bench-before-'));
  execFileSync('git', ['worktree', 'add', '--detach', dir, ref], { cwd: projectRoot, stdio: 'ignore' });
  symlinkSync(join(projectRoot, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

/** Removes a worktree beforeCheckout made. */
export function removeCheckout(dir: string): void {
  execFileSync('git', ['worktree', 'remove', '--force', dir], { cwd: projectRoot, stdio: 'ignore' });
}
