import { type Config, loadConfig } from '../../src/config.ts';
import { projectRoot } from '../../test/helpers/serverProcess.ts';

/** The config of an in-process bench: the shipped catalogue and devnet snapshots, no logging, one pricing worker, plus `env`. */
export function shippedConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    CATALOG_DIR: `${projectRoot}/catalog`,
    SNAPSHOT_DIR: `${projectRoot}/seeds/snapshots`,
    LOG_LEVEL: 'silent',
    WORKER_THREADS: '1',
    ...env,
  });
}
