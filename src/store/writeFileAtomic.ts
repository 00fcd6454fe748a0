import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** Options of writeFileAtomic. */
export interface WriteFileAtomicOptions {
  /** Permission bits of a newly created file (before the umask); 0o666 when absent. */
  readonly mode?: number;
}

/**
 * Writes a file atomically and durably: a temporary file in the same folder (named `.<name>.<pid>.<random>.tmp`, so
 * readers that list `*.json` never pick it up), written and fsynced, renamed over the target, then the folder fsynced
 * so the rename itself survives a crash. A reader sees the old file or the new one, never half; the folder is created
 * when missing. On failure the temporary file is removed and the error thrown.
 */
export function writeFileAtomic(path: string, text: string, options: WriteFileAtomicOptions = {}): void {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true });
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    const fd = openSync(temp, 'w', options.mode ?? 0o666);
    try {
      writeFileSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  fsyncDir(dir);
}

/** Flushes a folder's entries (the rename) to disk; a platform or file system that cannot fsync a folder is let be. */
function fsyncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch (error) {
    // Windows cannot open a folder (EISDIR, EPERM); some file systems refuse to fsync one (EINVAL, ENOTSUP).
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EISDIR' && code !== 'EPERM' && code !== 'EINVAL' && code !== 'ENOTSUP') throw error;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
