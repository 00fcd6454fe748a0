import { cpus, totalmem } from 'node:os';

/** One line describing the machine the bench ran on: CPU model, core count, memory, Node version. */
export function describeMachine(): string {
  const list = cpus();
  const model = (list[0]?.model ?? 'unknown CPU').replace(/\s+/g, ' ').trim();
  return `${list.length} x ${model}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM, Node ${process.version}, ${process.platform}/${process.arch}`;
}
