// Summarises a V8 .cpuprofile (node --cpu-prof): the functions with the most self time, and self
// time by module (project file, package, or Node internals).
// Usage: npx tsx bench/profile.ts FILE.cpuprofile [--top N]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// Not work of the process itself: time spent waiting (idle) is excluded from the percentages.
const IDLE = new Set(['(idle)']);
const V8_ENTRIES = new Set(['(garbage collector)', '(program)', '(root)']);

/** A V8 CPU profile as node --cpu-prof writes it (the fields read here). */
export interface CpuProfile {
  nodes: Array<{
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
    children?: number[];
  }>;
  samples: number[];
  /** µs before each sample. */
  timeDeltas: number[];
}

interface Timed {
  ms: number;
  /** Share of busy time, in %. */
  pct: number;
}

export interface ProfileSummary {
  totalMs: number;
  busyMs: number;
  idleMs: number;
  functions: Array<Timed & { name: string; place: string; us: number }>;
  modules: Array<Timed & { name: string }>;
}

function where(url: string): string {
  if (!url) return '(native)';
  const file = url.startsWith('file://') ? fileURLToPath(url) : url;
  if (file.startsWith('node:')) return file;
  const nm = file.lastIndexOf('node_modules/');
  if (nm >= 0) return file.slice(nm + 'node_modules/'.length);
  return path.relative(ROOT, file);
}

function moduleOf(url: string): string {
  const place = where(url);
  if (place === '(native)' || place.startsWith('node:')) return place === '(native)' ? '(native/V8)' : 'node: internals';
  if (url.includes('node_modules/')) {
    const [scope = '', name = ''] = place.split('/');
    return scope.startsWith('@') ? `${scope}/${name}` : scope;
  }
  return place;
}

/** Self time per function (by name and location) and per module, in ms. */
export function summariseProfile(profile: CpuProfile): ProfileSummary {
  type ProfileNode = CpuProfile['nodes'][number];
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parentOf = new Map<number, ProfileNode>();
  for (const n of profile.nodes) for (const child of n.children ?? []) parentOf.set(child, n);
  const self = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i]!;
    // timeDeltas[i] is the time before sample i; attribute the following interval to it instead.
    const dt = profile.timeDeltas[i + 1] ?? 0;
    self.set(id, (self.get(id) ?? 0) + dt);
  }
  const functions = new Map<string, { name: string; place: string; us: number }>();
  const modules = new Map<string, number>();
  let total = 0;
  let idle = 0;
  for (const [id, us] of self) {
    const node = byId.get(id);
    if (!node) throw new Error(`profile: sample of unknown node ${id}`);
    const { callFrame } = node;
    const name = callFrame.functionName || '(anonymous)';
    total += us;
    if (IDLE.has(name)) {
      idle += us;
      continue;
    }
    // Native frames (no script) say little by themselves: name the JavaScript function that called them.
    const caller = parentOf.get(id)?.callFrame;
    const place = callFrame.url
      ? `${where(callFrame.url)}:${callFrame.lineNumber + 1}`
      : caller?.url
        ? `(native, called by ${caller.functionName || '(anonymous)'} ${where(caller.url)}:${caller.lineNumber + 1})`
        : '';
    const key = `${name}\u0000${place}`;
    const f = functions.get(key) ?? { name, place, us: 0 };
    f.us += us;
    functions.set(key, f);
    const mod = callFrame.url ? moduleOf(callFrame.url) : V8_ENTRIES.has(name) ? name : caller?.url ? moduleOf(caller.url) : '(native/V8)';
    modules.set(mod, (modules.get(mod) ?? 0) + us);
  }
  const busy = total - idle;
  const pct = (us: number): number => (busy > 0 ? (100 * us) / busy : 0);
  return {
    totalMs: total / 1000,
    busyMs: busy / 1000,
    idleMs: idle / 1000,
    functions: [...functions.values()].sort((a, b) => b.us - a.us).map((f) => ({ ...f, ms: f.us / 1000, pct: pct(f.us) })),
    modules: [...modules.entries()].sort((a, b) => b[1] - a[1]).map(([name, us]) => ({ name, ms: us / 1000, pct: pct(us) })),
  };
}

export function formatSummary(summary: ProfileSummary, { top = 25 }: { top?: number } = {}): string {
  const lines = [
    `profiled ${summary.totalMs.toFixed(0)} ms: busy ${summary.busyMs.toFixed(0)} ms, idle ${summary.idleMs.toFixed(0)} ms (percentages are of busy time)`,
    '',
    'top self time by function:',
  ];
  for (const f of summary.functions.slice(0, top)) {
    lines.push(`  ${f.pct.toFixed(1).padStart(5)}%  ${f.ms.toFixed(0).padStart(7)} ms  ${f.name}  ${f.place}`);
  }
  lines.push('', 'self time by module:');
  for (const m of summary.modules.slice(0, Math.min(top, 15))) {
    lines.push(`  ${m.pct.toFixed(1).padStart(5)}%  ${m.ms.toFixed(0).padStart(7)} ms  ${m.name}`);
  }
  return lines.join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const file = args.find((a) => !a.startsWith('--') && !/^\d+$/.test(a));
  const topAt = args.indexOf('--top');
  const top = topAt >= 0 ? Number(args[topAt + 1]) : 25;
  if (!file || !Number.isInteger(top) || top < 1) {
    process.stderr.write('usage: npx tsx bench/profile.ts FILE.cpuprofile [--top N]\n');
    process.exit(2);
  }
  try {
    process.stdout.write(`${formatSummary(summariseProfile(JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile), { top })}\n`);
  } catch (err) {
    process.stderr.write(`bench/profile.ts: cannot read ${file}: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
}
