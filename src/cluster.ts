import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';
import type { Config } from './config.ts';

/** Longest wait for the processes to finish in-flight requests after SIGTERM/SIGINT before they are killed. */
const SHUTDOWN_GRACE_MS = 15_000;
/** Restart delays after a crash: doubling from the first to the last; a process that ran this long resets it. */
const RESTART_FIRST_MS = 500;
const RESTART_MAX_MS = 30_000;
const STABLE_MS = 60_000;

/**
 * The cluster primary (WEB_CONCURRENCY > 1): forks one API process per WEB_CONCURRENCY, all listening on the same port
 * (the primary owns the socket and hands connections out), and serves nothing itself. A process that exits without
 * being asked is replaced after a delay that doubles while crashes repeat. SIGHUP (snapshot reload) is passed to every
 * process; SIGTERM/SIGINT are passed on too and each process finishes its in-flight requests; the primary exits once
 * all have, with 0 when every one closed cleanly.
 */
export function runPrimary(config: Pick<Config, 'webConcurrency' | 'port'>, logger: Logger): void {
  let stopping = false;
  let failed = false;
  let restartDelay = RESTART_FIRST_MS;
  const started = new Map<Worker, number>();

  const fork = (): void => {
    const worker = cluster.fork();
    started.set(worker, Date.now());
    worker.once('online', () => logger.info({ workerPid: worker.process.pid }, 'API process started'));
  };

  cluster.on('exit', (worker, code, signal) => {
    const ranMs = Date.now() - (started.get(worker) ?? Date.now());
    started.delete(worker);
    if (stopping) {
      if (code !== 0) failed = true;
      logger.info({ workerPid: worker.process.pid, code, signal }, 'API process stopped');
      if (started.size === 0) {
        logger.info('closed');
        process.exit(failed ? 1 : 0);
      }
      return;
    }
    if (ranMs >= STABLE_MS) restartDelay = RESTART_FIRST_MS;
    logger.error(
      { workerPid: worker.process.pid, code, signal, restartInMs: restartDelay },
      'API process exited unexpectedly; starting another',
    );
    setTimeout(() => {
      if (!stopping) fork();
    }, restartDelay).unref();
    restartDelay = Math.min(RESTART_MAX_MS, restartDelay * 2);
  });

  const shutdown = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, processes: started.size }, 'shutting down: every API process finishes its in-flight requests');
    if (started.size === 0) process.exit(0);
    for (const worker of started.keys()) worker.process.kill('SIGTERM');
    setTimeout(() => {
      logger.error('API processes did not finish in time; killing them');
      for (const worker of started.keys()) worker.process.kill('SIGKILL');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS).unref();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGHUP', () => {
    for (const worker of started.keys()) worker.process.kill('SIGHUP');
  });

  logger.info({ processes: config.webConcurrency, port: config.port }, 'cluster primary: starting API processes');
  for (let i = 0; i < config.webConcurrency; i++) fork();
}
