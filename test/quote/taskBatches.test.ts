import t from 'tap';
import { TaskBatches } from '../../src/quote/taskBatches.ts';

/** A runner that answers each batch when told to (release), recording the batches it was given. */
function manualRunner(fail?: (task: number) => boolean) {
  const batches: number[][] = [];
  const pending: (() => void)[] = [];
  const run = (tasks: number[]) =>
    new Promise<string[]>((resolve, reject) => {
      batches.push(tasks);
      pending.push(() => (fail && tasks.some(fail) ? reject(new Error('worker died')) : resolve(tasks.map((n) => `answer ${n}`))));
    });
  /** Answers the oldest batch still running and lets the promises settle. */
  const release = async () => {
    pending.shift()?.();
    await new Promise((r) => setImmediate(r));
  };
  return { batches, run, release };
}

t.test('TaskBatches: a task that finds a runner free goes alone; those that wait go together in order, at most maxBatch', async (t) => {
  const runner = manualRunner();
  const batches = new TaskBatches<number, string>(1, 4, runner.run);
  const answers = Array.from({ length: 11 }, (_v, i) => batches.submit(i));
  t.same(runner.batches, [[0]], 'the first task is sent at once, alone');
  t.equal(batches.waiting, 10);
  await runner.release();
  t.same(runner.batches, [[0], [1, 2, 3, 4]], 'when the runner is free, the next four waiting go in one batch');
  await runner.release();
  await runner.release();
  await runner.release();
  t.same(runner.batches, [[0], [1, 2, 3, 4], [5, 6, 7, 8], [9, 10]]);
  t.same(
    await Promise.all(answers),
    Array.from({ length: 11 }, (_v, i) => `answer ${i}`),
    'each task gets its own answer',
  );
  t.equal(batches.waiting, 0);
});

t.test('TaskBatches: two runners take a batch each', async (t) => {
  const runner = manualRunner();
  const batches = new TaskBatches<number, string>(2, 8, runner.run);
  const answers = Array.from({ length: 5 }, (_v, i) => batches.submit(i));
  t.same(runner.batches, [[0], [1]]);
  await runner.release();
  t.same(runner.batches, [[0], [1], [2, 3, 4]]);
  await runner.release();
  await runner.release();
  t.same(await Promise.all(answers), ['answer 0', 'answer 1', 'answer 2', 'answer 3', 'answer 4']);
});

t.test('TaskBatches: a failed batch is run again task by task, first in line; only the task that fails alone is rejected', async (t) => {
  const runner = manualRunner((n) => n === 2);
  const batches = new TaskBatches<number, string>(1, 8, runner.run);
  const answers = Array.from({ length: 6 }, (_v, i) => batches.submit(i));
  const settled = Promise.allSettled(answers);
  await runner.release(); // [0]
  const late = batches.submit(6);
  await runner.release(); // [1..5] fails
  t.same(runner.batches, [[0], [1, 2, 3, 4, 5], [1]], 'its tasks run again one by one, before a task that came later');
  for (let i = 0; i < 6; i++) await runner.release();
  t.same(runner.batches.slice(2), [[1], [2], [3], [4], [5], [6]]);
  t.same(
    [...(await settled), ...(await Promise.allSettled([late]))].map((s) =>
      s.status === 'fulfilled' ? s.value : (s.reason as Error).message,
    ),
    ['answer 0', 'answer 1', 'worker died', 'answer 3', 'answer 4', 'answer 5', 'answer 6'],
  );
});
