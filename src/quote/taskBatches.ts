/** A task waiting for a runner, with its promise's ends; `alone`: run in a batch of its own (after a failed batch). */
interface Waiting<T, R> {
  readonly task: T;
  readonly alone: boolean;
  resolve(result: R): void;
  reject(error: unknown): void;
}

/**
 * Hands tasks to `slots` runners (the pricing workers) in batches, in the order they came: a task that finds a runner
 * free is sent at once, alone; tasks that arrive while every runner is busy wait and go together, up to `maxBatch`
 * in one run, as soon as a runner is free. Under load this is one message each way per batch instead of per task: the
 * API thread is woken, and a worker waits for it, once per batch (bench/HISTORY.md, issue 24, batched pricing tasks).
 * `run` answers a batch with one result per task, in order. When it fails (a worker that died), the batch's tasks
 * are run again one by one, first in line, so only the task that fails on its own gets the error.
 */
export class TaskBatches<T, R> {
  readonly #waiting: Waiting<T, R>[] = [];
  #running = 0;

  constructor(
    private readonly slots: number,
    private readonly maxBatch: number,
    private readonly run: (tasks: T[]) => Promise<R[]>,
  ) {}

  /** Tasks waiting for a runner. */
  get waiting(): number {
    return this.#waiting.length;
  }

  /** The task's result, once a runner has answered its batch. */
  submit(task: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.#waiting.push({ task, alone: false, resolve, reject });
      this.#dispatch();
    });
  }

  #dispatch(): void {
    const waiting = this.#waiting;
    while (this.#running < this.slots && waiting.length > 0) {
      let size = 1;
      if (!waiting[0].alone) while (size < this.maxBatch && size < waiting.length && !waiting[size].alone) size++;
      this.#running++;
      void this.#runBatch(waiting.splice(0, size));
    }
  }

  async #runBatch(batch: Waiting<T, R>[]): Promise<void> {
    let results: R[];
    try {
      results = await this.run(batch.map((w) => w.task));
    } catch (error) {
      this.#running--;
      if (batch.length === 1) batch[0].reject(error);
      else this.#waiting.unshift(...batch.map((w) => ({ ...w, alone: true })));
      this.#dispatch();
      return;
    }
    this.#running--;
    // The next batch goes out before these answers are handled: the worker is not kept waiting for them.
    this.#dispatch();
    for (let i = 0; i < batch.length; i++) batch[i].resolve(results[i]);
  }
}
