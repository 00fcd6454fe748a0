/**
 * Prints where a `node --cpu-prof` profile spends its time: self time per function (top N) and the share of
 * a few buckets (GC, idle, program). Usage: `npm run ts -- bench/lib/summarizeCpuProfile.ts <file.cpuprofile> [N] [skip-first-ms]`.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Self time (microseconds) per function label, largest first. */
export function selfTimes(profile: Profile): { label: string; us: number }[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const node = byId.get(profile.samples[i])!;
    const f = node.callFrame;
    const file = f.url.replace(/^.*\/(node_modules\/)?/, (m) => (m.includes('node_modules') ? 'nm:' : ''));
    const label = `${f.functionName || '(anonymous)'} ${file}:${f.lineNumber + 1}`;
    self.set(label, (self.get(label) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  return [...self].map(([label, us]) => ({ label, us })).sort((a, b) => b.us - a.us);
}

/** Inclusive time (microseconds) per function label: samples with the function anywhere on the stack. */
export function totalTimes(profile: Profile): { label: string; us: number }[] {
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const total = new Map<string, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const seen = new Set<string>();
    for (let id: number | undefined = profile.samples[i]; id !== undefined; id = parent.get(id)) {
      const f = byId.get(id)!.callFrame;
      const label = `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\//, '')}:${f.lineNumber + 1}`;
      if (seen.has(label)) continue;
      seen.add(label);
      total.set(label, (total.get(label) ?? 0) + (profile.timeDeltas[i] ?? 0));
    }
  }
  return [...total].map(([label, us]) => ({ label, us })).sort((a, b) => b.us - a.us);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const profile = JSON.parse(readFileSync(process.argv[2], 'utf8')) as Profile;
  // Optional third argument: skip the first N milliseconds (start-up) of the profile.
  const skipMs = Number(process.argv[4] ?? 0);
  if (skipMs > 0) {
    let t = 0;
    let first = 0;
    for (; first < profile.timeDeltas.length; first++) {
      t += profile.timeDeltas[first];
      if (t >= skipMs * 1000) break;
    }
    profile.samples = profile.samples.slice(first);
    profile.timeDeltas = profile.timeDeltas.slice(first);
  }
  const rows = selfTimes(profile);
  const total = rows.reduce((n, r) => n + r.us, 0);
  const idle = rows.filter((r) => r.label.startsWith('(idle)')).reduce((n, r) => n + r.us, 0);
  const busy = total - idle;
  process.stdout.write(
    `total ${(total / 1000).toFixed(0)} ms, idle ${((idle / total) * 100).toFixed(1)}%; shares below are of busy time\n`,
  );
  for (const r of rows.filter((x) => !x.label.startsWith('(idle)')).slice(0, Number(process.argv[3] ?? 40))) {
    process.stdout.write(`${((r.us / busy) * 100).toFixed(1).padStart(5)}%  ${r.label}\n`);
  }
  process.stdout.write('\ninclusive (function and what it calls), share of busy time:\n');
  for (const r of totalTimes(profile)
    .filter((x) => !x.label.startsWith('(idle)') && !x.label.startsWith('(root)'))
    .slice(0, Number(process.argv[3] ?? 40))) {
    process.stdout.write(`${((r.us / busy) * 100).toFixed(1).padStart(5)}%  ${r.label}\n`);
  }
}
