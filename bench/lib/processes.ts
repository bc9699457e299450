// Child processes of the benchmark: started on 127.0.0.1 only, always stopped — on success,
// on error, on Ctrl-C — and, through the orphan guard, even when this process is killed outright.
import { spawn, spawnSync, type ChildProcess, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const ROOT = path.resolve(here, '../..');
const BENCH = path.join(ROOT, 'bench');

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface NodeProcess {
  name: string;
  child: ChildProcessWithoutNullStreams;
  pid: number | undefined;
  exited: Promise<Exit>;
  /** The last 50 chunks of its stdout and stderr. */
  output(): string;
  onStdout(fn: (chunk: Buffer) => void): void;
  /** SIGTERM, then SIGKILL if it has not exited within graceMs. */
  stop(graceMs?: number): Promise<Exit>;
}

const live = new Set<ChildProcess>();
const cleanups: Array<() => void> = [];

/** Runs fn at exit (normal, error or signal), after the children are killed. */
export function atExit(fn: () => void): void {
  cleanups.push(fn);
}

function killAll(): void {
  for (const child of live) {
    try {
      child.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
  live.clear();
  for (const fn of cleanups.splice(0)) {
    try {
      fn();
    } catch {
      // best effort at exit
    }
  }
}

process.on('exit', killAll);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.once(signal, () => {
    process.stderr.write(`\nbench: ${signal}, stopping child processes\n`);
    killAll();
    process.exit(130);
  });
}

// The orphan guard is loaded into every child process, on bare node with no TypeScript loader: tsc
// transpiles it (`npm run typecheck` checks its types) once per run, in a process of its own, so
// the compiler does not stay in the memory of the load generator.
const PLAIN_NODE_SOURCES = ['lib/orphan-guard.ts'] as const;
export type PlainNodeSource = (typeof PLAIN_NODE_SOURCES)[number];
let plainNodeDir: string | null = null;

/** The plain JavaScript of a script of the benchmark (`source` relative to bench/), for node to run as it is. */
export function plainNodeScript(source: PlainNodeSource): string {
  if (plainNodeDir === null) {
    const cache = path.join(ROOT, 'node_modules/.cache');
    fs.mkdirSync(cache, { recursive: true });
    const dir = fs.mkdtempSync(path.join(cache, 'sector-bench-js-'));
    atExit(() => fs.rmSync(dir, { recursive: true, force: true }));
    fs.writeFileSync(path.join(dir, 'package.json'), '{ "type": "module" }\n');
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    const options = ['--ignoreConfig', '--noCheck', '--module', 'esnext', '--target', 'es2022', '--rootDir', BENCH, '--outDir', dir];
    const sources = PLAIN_NODE_SOURCES.map((s) => path.join(BENCH, s));
    const run = spawnSync(process.execPath, [tsc, ...options, ...sources], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    if (run.status !== 0) {
      throw new Error(
        `tsc could not transpile ${PLAIN_NODE_SOURCES.join(', ')} (${run.signal ?? `exit ${run.status}`}): ${`${run.stdout}${run.stderr}`.trim() || run.error?.message}`,
      );
    }
    plainNodeDir = dir;
  }
  return path.join(plainNodeDir, source.replace(/\.ts$/, '.js'));
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface StartOptions {
  args?: string[];
  nodeArgs?: string[];
  env?: Record<string, string>;
  name?: string;
}

/**
 * Starts `node [nodeArgs] script [args]`. Its stdin is a pipe held by this process: the orphan
 * guard loaded into the child stops it when the pipe closes, i.e. when the benchmark dies.
 */
export function startNode(
  script: string,
  { args = [], nodeArgs = [], env = {}, name = path.basename(script) }: StartOptions = {},
): NodeProcess {
  const orphanGuard = pathToFileURL(plainNodeScript('lib/orphan-guard.ts')).href;
  const child = spawn(process.execPath, ['--import', orphanGuard, ...nodeArgs, script, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  live.add(child);
  const tail: string[] = [];
  const keep = (chunk: Buffer): void => {
    tail.push(chunk.toString());
    if (tail.length > 50) tail.shift();
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise<Exit>((resolve) => {
    child.once('exit', (code, signal) => {
      live.delete(child);
      resolve({ code, signal });
    });
  });
  return {
    name,
    child,
    pid: child.pid,
    exited,
    output: () => tail.join(''),
    onStdout: (fn) => void child.stdout.on('data', fn),
    async stop(graceMs = 10_000) {
      if (child.exitCode !== null || child.signalCode !== null) return exited;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const result = await exited;
      clearTimeout(timer);
      return result;
    },
  };
}

/** Runs a CLI command of the project to completion (bounded by timeoutMs); resolves with its output. */
export function runNode(
  script: string,
  args: string[],
  { env = {}, timeoutMs = 120_000 }: { env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    live.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      live.delete(child);
      if (code === 0) resolve({ stdout, stderr });
      else
        reject(
          new Error(`${path.basename(script)} ${args.join(' ')} failed (${signal ?? `exit ${code}`}): ${stderr.trim() || stdout.trim()}`),
        );
    });
  });
}

/** The process's peak resident set size so far (VmHWM), in MB; null once it is gone. */
export function peakRssMb(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/^VmHWM:\s+(\d+)\s+kB/m.exec(status)?.[1]);
    return Number.isFinite(kb) ? kb / 1024 : null;
  } catch {
    return null;
  }
}

/** Runs the CLI with `args` to its end: its seconds, its peak RSS (MB, read every 20 ms) and its stdout; throws when it fails. */
export async function measureCli(args: string[], env: Record<string, string>) {
  const started = Date.now();
  const proc = startNode(path.join(ROOT, 'dist/cli/index.js'), { args, env, name: args[0] });
  const stdout: Buffer[] = [];
  proc.onStdout((chunk) => stdout.push(chunk));
  let peak = 0;
  const timer = setInterval(() => (peak = Math.max(peak, peakRssMb(proc.pid) ?? 0)), 20);
  const exit = await proc.exited;
  clearInterval(timer);
  if (exit.code !== 0) throw new Error(`${args[0]} failed: ${proc.output()}`);
  return { peak, seconds: (Date.now() - started) / 1000, stdout: Buffer.concat(stdout).toString('utf8') };
}

/** Resolves once `probe` succeeds, or rejects after timeoutMs (or when the process exits first). */
export async function waitUntil<T>(
  probe: () => Promise<T>,
  { timeoutMs = 20_000, process: proc }: { timeoutMs?: number; process?: NodeProcess } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let gone = false;
  void proc?.exited.then(() => (gone = true));
  let last: unknown;
  while (Date.now() < deadline) {
    // `gone` is set by the exit callback above, which the checker cannot see.
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition
    if (proc && gone) throw new Error(`${proc.name} exited during start-up:\n${proc.output()}`);
    try {
      return await probe();
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(
    `${proc?.name ?? 'process'} not ready after ${timeoutMs} ms: ${last instanceof Error ? last.message : ''}\n${proc?.output() ?? ''}`,
  );
}
