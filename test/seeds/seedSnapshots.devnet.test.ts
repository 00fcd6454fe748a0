// Where snapshots live: seeding never writes the tracked seeds/snapshots; it writes SNAPSHOT_DIR (default
// <DATA_DIR>/snapshots). An API started on a fresh checkout (empty DATA_DIR) serves the shipped devnet snapshot; once
// `npm run seed` has written a newer snapshot of the chain, the running API reloads and serves that one. Independent
// views: the files on disk (bytes of the shipped file before and after) and the chain's own block number.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { startDevnet } from '../../seeds/devnet/startDevnet.ts';
import { projectRoot, startServer, tsLoader, untrackedNode } from '../helpers/serverProcess.ts';

const SHIPPED = join(projectRoot, 'seeds', 'snapshots', 'devnet.json');
const sha = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');

t.test('npm run seed writes DATA_DIR/snapshots, never the shipped file; the API prefers the newer seeded snapshot', async (t) => {
  const shippedBefore = sha(SHIPPED);
  const shippedBlock = (JSON.parse(readFileSync(SHIPPED, 'utf8')) as { blockNumber: number }).blockNumber;
  const devnet = await startDevnet();
  t.teardown(() => devnet.stop());
  const dataDir = mkdtempSync(join(tmpdir(), 'sqs-seed-data-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  // No SNAPSHOT_DIR, no SHIPPED_SNAPSHOT_DIR: the defaults, as on a fresh checkout (undefined removes a variable).
  const unset = Object.fromEntries(
    Object.keys(process.env)
      .filter((key) => key.startsWith('RPC_URL_') || key.includes('SNAPSHOT') || key === 'REDIS_URL')
      .map((key) => [key, undefined]),
  );
  const env: NodeJS.ProcessEnv = { ...unset, DATA_DIR: dataDir, LOG_LEVEL: 'info', WORKER_THREADS: '1' };
  const processEnv = Object.fromEntries(Object.entries({ ...process.env, ...env }).filter(([, v]) => v !== undefined));

  const server = await startServer({ env });
  t.teardown(() => server.stop());
  const quoteBlock = async (): Promise<number> => {
    const res = await fetch(`${server.url}/quotes/routes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        originChainId: 31337,
        destinationChainId: 31337,
        tokenIn: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
        tokenOut: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512',
        amount: '1',
        recipientAddress: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      }),
    });
    const body = (await res.json()) as { data: { snapshot: { blockNumber: number } }[] };
    if (res.status !== 200) throw new Error(`status ${res.status}: ${JSON.stringify(body)}`);
    return body.data[0].snapshot.blockNumber;
  };
  t.equal(await quoteBlock(), shippedBlock, `fresh checkout: the shipped snapshot is served (block ${shippedBlock})`);

  // Two more blocks on the chain, so that the seeded snapshot is newer than the shipped one.
  for (let i = 0; i < 2; i++)
    await fetch(devnet.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'evm_mine', params: [] }),
    });
  const head = Number(
    (
      (await (
        await fetch(devnet.rpcUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }),
        })
      ).json()) as { result: string }
    ).result,
  );
  t.ok(head > shippedBlock, `the chain is at block ${head}`);

  const child = spawn(...untrackedNode(['--import', tsLoader(projectRoot), 'seeds/seed.ts', '--chain', 'devnet', '--progress', 'none']), {
    cwd: projectRoot,
    env: { ...processEnv, RPC_URL_31337: devnet.rpcUrl },
  });
  let stdout = '';
  child.stdout.on('data', (d: Buffer) => {
    stdout += d;
  });
  child.stderr.on('data', (d: Buffer) => {
    stdout += d;
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  t.equal(code, 0, `npm run seed exits 0: ${stdout.trim()}`);
  const written = join(dataDir, 'snapshots', 'devnet.json');
  t.match(stdout, `  devnet (31337): seeded, block ${head}, `, 'one line for the chain');
  t.match(stdout, `-> ${written}`, 'it names the file written');
  t.ok(existsSync(written), 'the snapshot is in DATA_DIR/snapshots');
  t.equal((JSON.parse(readFileSync(written, 'utf8')) as { blockNumber: number }).blockNumber, head, 'at the head');
  t.equal(sha(SHIPPED), shippedBefore, 'seeds/snapshots/devnet.json is untouched');

  // The running API watches SNAPSHOT_DIR: it reloads and now serves the newer seeded snapshot.
  const reloaded = await server.waitForLog((l) => l.msg === 'snapshots reloaded', 30_000);
  t.same(
    (reloaded.chains as { chainId: number; block: number; previousBlock: number; file: string }[]).find((c) => c.chainId === 31337),
    { chainId: 31337, pools: 20, block: head, previousBlock: shippedBlock, file: written },
    'the reload names the seeded file',
  );
  t.equal(await quoteBlock(), head, `the seeded snapshot is served (block ${head})`);
});
