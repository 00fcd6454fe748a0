import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadConfig } from '../config.ts';
import { BaseError } from '../errors/BaseError.ts';
import type { ApiKeyRecord } from './apiKeyRecords.ts';
import { ApiKeyInputError } from './apiKeyRecords.ts';
import { type ApiKeyStore, createApiKeyStore } from './apiKeyStore.ts';

const USAGE = `usage: npm run --silent keys -- <command>

commands:
  create --org <name>   create a key for an organization; prints the key alone on one line
                        (shown once: only its SHA-256 is stored)
  list [--json]         list keys: id, org, created, revoked (never keys or hashes)
  revoke <id>           revoke a key by its id (from list); takes effect at once

The store is Redis when REDIS_URL is set, else DATA_DIR/api-keys.json (DATA_DIR default .data/).`;

/** Exit codes: 0 done, 1 the store failed or the id is unknown, 2 bad usage. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

interface Io {
  out: (line: string) => void;
  err: (line: string) => void;
}

class UsageError extends Error {}

/** Runs the `keys` command line against a store; returns the exit code. */
export async function runKeysCli(argv: readonly string[], store: () => ApiKeyStore, io: Io): Promise<number> {
  let command: Command;
  try {
    command = parseArgs(argv);
  } catch (error) {
    io.err(`keys: ${(error as Error).message}`);
    io.err(USAGE);
    return EXIT.usage;
  }
  if (command.name === 'help') {
    io.out(USAGE);
    return EXIT.ok;
  }
  let keys: ApiKeyStore;
  try {
    keys = store();
  } catch (error) {
    io.err(`keys: ${error instanceof Error ? error.message : String(error)}`);
    return EXIT.failed;
  }
  try {
    switch (command.name) {
      case 'create': {
        const { key } = await keys.create(command.org);
        io.out(key);
        return EXIT.ok;
      }
      case 'list': {
        const records = await keys.list();
        if (command.json) io.out(JSON.stringify(records));
        else for (const line of table(records)) io.out(line);
        return EXIT.ok;
      }
      case 'revoke': {
        const record = await keys.revoke(command.id);
        if (!record) {
          io.err(`keys: no API key with id "${command.id}" (see: keys list)`);
          return EXIT.failed;
        }
        io.out(`revoked ${record.id} (org ${record.org}) at ${record.revokedAt}`);
        return EXIT.ok;
      }
    }
  } catch (error) {
    if (error instanceof ApiKeyInputError) {
      io.err(`keys: ${error.message}`);
      return EXIT.usage;
    }
    const reason = error instanceof BaseError && typeof error.details?.reason === 'string' ? ` (${error.details.reason})` : '';
    io.err(`keys: ${error instanceof Error ? error.message : String(error)}${reason}`);
    return EXIT.failed;
  } finally {
    await keys.close();
  }
}

type Command = { name: 'help' } | { name: 'create'; org: string } | { name: 'list'; json: boolean } | { name: 'revoke'; id: string };

function parseArgs(argv: readonly string[]): Command {
  const [name, ...rest] = argv;
  if (name === undefined) throw new UsageError('a command is required');
  if (name === 'help' || name === '--help' || name === '-h') return { name: 'help' };
  if (name === 'create') {
    let org: string | undefined;
    for (let i = 0; i < rest.length; i++) {
      const arg = rest[i];
      if (arg === '--org') {
        if (rest[i + 1] === undefined) throw new UsageError('--org needs a value');
        org = rest[++i];
      } else if (arg.startsWith('--org=')) org = arg.slice('--org='.length);
      else throw new UsageError(`create: unexpected argument "${arg}"`);
    }
    if (org === undefined || org === '') throw new UsageError('create: --org <name> is required');
    return { name: 'create', org };
  }
  if (name === 'list') {
    let json = false;
    for (const arg of rest) {
      if (arg === '--json') json = true;
      else throw new UsageError(`list: unexpected argument "${arg}"`);
    }
    return { name: 'list', json };
  }
  if (name === 'revoke') {
    if (rest.length !== 1 || rest[0].startsWith('-')) throw new UsageError('revoke: exactly one key id is required');
    return { name: 'revoke', id: rest[0] };
  }
  throw new UsageError(`unknown command "${name}"`);
}

function table(records: readonly ApiKeyRecord[]): string[] {
  const rows = [['ID', 'ORG', 'CREATED', 'REVOKED'], ...records.map((r) => [r.id, r.org, r.createdAt, r.revokedAt ?? '-'])];
  const widths = rows[0].map((_, col) => Math.max(...rows.map((row) => row[col].length)));
  return rows.map((row) => row.map((cell, col) => (col === row.length - 1 ? cell : cell.padEnd(widths[col]))).join('  '));
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href;
if (isMain) {
  const code = await runKeysCli(
    process.argv.slice(2),
    // An operator command, not a request: allow a slow first connection.
    () => createApiKeyStore(loadConfig(), { readyWaitMs: 5000, opTimeoutMs: 10_000 }),
    { out: (line) => process.stdout.write(`${line}\n`), err: (line) => process.stderr.write(`${line}\n`) },
  );
  process.exitCode = code;
}
