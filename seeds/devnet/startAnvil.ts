import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { jsonRpc } from './jsonRpc.ts';

/** anvil's default mnemonic: the devnet's accounts (and so every deployed address) derive from it. */
export const DEVNET_MNEMONIC = 'test test test test test test test test test test test junk';

/** A running anvil process. */
export interface AnvilProcess {
  readonly rpcUrl: string;
  readonly port: number;
  readonly chainId: number;
  readonly pid: number;
  /** Stops the process (SIGTERM, then SIGKILL after 2 s) and resolves once it has exited. */
  stop(): Promise<void>;
}

/** Path of the anvil binary: ANVIL_BIN, else the one shipped by @foundry-rs/anvil-linux-amd64. */
export function anvilBinary(env: NodeJS.ProcessEnv = process.env): string {
  const override = env.ANVIL_BIN;
  if (override !== undefined && override !== '') return override;
  return fileURLToPath(new URL('../../node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil', import.meta.url));
}

/** Finds a free TCP port on 127.0.0.1 (asks the OS for port 0). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Resolves when `port` on 127.0.0.1 can be bound; rejects when it is taken. */
export async function assertPortFree(port: number): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const server = createServer();
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(new Error(`port ${port} is taken (${err.code ?? err.message}); refusing to start a devnet there`)),
    );
    server.listen(port, '127.0.0.1', () => server.close(() => resolve()));
  });
}

const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/**
 * Starts anvil on 127.0.0.1 (a free port unless one is given; a taken port is refused) and waits until it answers;
 * `args` are added to its command line (e.g. --load-state).
 */
export async function startAnvil(
  options: { port?: number; chainId?: number; env?: NodeJS.ProcessEnv; args?: readonly string[] } = {},
): Promise<AnvilProcess> {
  const chainId = options.chainId ?? 31337;
  const port = options.port ?? (await freePort());
  await assertPortFree(port);
  const args = [
    '--host',
    '127.0.0.1',
    '--port',
    String(port),
    '--chain-id',
    String(chainId),
    '--mnemonic',
    DEVNET_MNEMONIC,
    '--silent',
    ...(options.args ?? []),
  ];
  const child = spawn(anvilBinary(options.env), args, { stdio: ['ignore', 'ignore', 'pipe'] });
  running.add(child);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let spawnError: Error | undefined;
  child.once('error', (err) => {
    spawnError = err;
  });
  exited.then(() => running.delete(child));
  const rpcUrl = `http://127.0.0.1:${port}`;
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 2000);
    await exited;
    clearTimeout(timer);
  };
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (spawnError) throw new Error(`anvil failed to start (${anvilBinary(options.env)}): ${spawnError.message}`);
    if (child.exitCode !== null) throw new Error(`anvil exited with code ${child.exitCode}: ${stderr.trim()}`);
    try {
      const id = await jsonRpc<string>(rpcUrl, 'eth_chainId');
      if (Number(id) !== chainId) {
        await stop();
        throw new Error(`node on port ${port} reports chain id ${Number(id)}, expected ${chainId}`);
      }
      break;
    } catch (err) {
      if (err instanceof Error && err.message.startsWith('node on port')) throw err;
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`anvil did not answer on ${rpcUrl} within 15 s: ${stderr.trim()}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return { rpcUrl, port, chainId, pid: child.pid ?? -1, stop };
}
