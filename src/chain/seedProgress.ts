import cliProgress from 'cli-progress';

/** Progress of a seeding run: a bar on a terminal, plain log lines otherwise, or nothing. */
export interface SeedProgress {
  /** A phase of one chain begins, with its number of batches. */
  begin(chain: string, phase: string, batches: number, calls: number): void;
  /** One batch of the current phase finished. */
  tick(): void;
  /** The current phase finished; `summary` is logged in line mode. */
  end(summary: string): void;
  /** A one-line message (skip notices, chain results). */
  log(line: string): void;
}

/** Creates the progress reporter: 'bar' (cli-progress), 'lines' (one line per phase), or 'none'. */
export function createSeedProgress(mode: 'bar' | 'lines' | 'none', write: (line: string) => void): SeedProgress {
  if (mode === 'none') return { begin() {}, tick() {}, end() {}, log() {} };
  if (mode === 'lines') {
    let current = '';
    return {
      begin(chain, phase, batches, calls) {
        current = `[${chain}] ${phase}: ${calls} calls in ${batches} batch${batches === 1 ? '' : 'es'}`;
      },
      tick() {},
      end(summary) {
        write(`${current}${summary ? ` -> ${summary}` : ''}`);
      },
      log: write,
    };
  }
  let bar: cliProgress.SingleBar | undefined;
  let label = '';
  return {
    begin(chain, phase, batches, calls) {
      label = `[${chain}] ${phase} (${calls} calls)`;
      bar = new cliProgress.SingleBar(
        { format: '{label} [{bar}] {value}/{total} batches', hideCursor: true, clearOnComplete: true, stream: process.stderr },
        cliProgress.Presets.shades_classic,
      );
      bar.start(Math.max(batches, 1), 0, { label });
    },
    tick() {
      bar?.increment();
    },
    end(summary) {
      bar?.stop();
      bar = undefined;
      write(`${label}${summary ? ` -> ${summary}` : ''}`);
    },
    log: write,
  };
}
