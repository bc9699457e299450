// Child processes of the benchmark: started on 127.0.0.1 only, always stopped — on success,
// on error, on Ctrl-C — and, through the orphan guard, even when this process is killed outright.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const ROOT = path.resolve(here, '../..');
const ORPHAN_GUARD = pathToFileURL(path.join(here, 'orphan-guard.js')).href;

const live = new Set();
const cleanups = [];

/** Runs fn at exit (normal, error or signal), after the children are killed. */
export function atExit(fn) {
  cleanups.push(fn);
}

function killAll() {
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
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.once(signal, () => {
    process.stderr.write(`\nbench: ${signal}, stopping child processes\n`);
    killAll();
    process.exit(130);
  });
}

export async function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts `node [nodeArgs] script [args]`. Its stdin is a pipe held by this process: the orphan
 * guard loaded into the child stops it when the pipe closes, i.e. when the benchmark dies.
 */
export function startNode(script, { args = [], nodeArgs = [], env = {}, name = path.basename(script) } = {}) {
  const child = spawn(process.execPath, ['--import', ORPHAN_GUARD, ...nodeArgs, script, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  live.add(child);
  const tail = [];
  const keep = (chunk) => {
    tail.push(chunk.toString());
    if (tail.length > 50) tail.shift();
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise((resolve) => {
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
    onStdout: (fn) => child.stdout.on('data', fn),
    /** SIGTERM, then SIGKILL if it has not exited within graceMs. */
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
export function runNode(script, args, { env = {}, timeoutMs = 120_000 } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    live.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      live.delete(child);
      if (code === 0) resolve({ stdout, stderr });
      else reject(new Error(`${path.basename(script)} ${args.join(' ')} failed (${signal ?? `exit ${code}`}): ${stderr.trim() || stdout.trim()}`));
    });
  });
}

/** The process's peak resident set size so far (VmHWM), in MB; null once it is gone. */
export function peakRssMb(pid) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/^VmHWM:\s+(\d+)\s+kB/m.exec(status)?.[1]);
    return Number.isFinite(kb) ? kb / 1024 : null;
  } catch {
    return null;
  }
}

/** Resolves once `probe` succeeds, or rejects after timeoutMs (or when the process exits first). */
export async function waitUntil(probe, { timeoutMs = 20_000, process: proc } = {}) {
  const deadline = Date.now() + timeoutMs;
  let gone = false;
  proc?.exited.then(() => (gone = true));
  let last;
  while (Date.now() < deadline) {
    if (gone) throw new Error(`${proc.name} exited during start-up:\n${proc.output()}`);
    try {
      return await probe();
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${proc?.name ?? 'process'} not ready after ${timeoutMs} ms: ${last?.message ?? ''}\n${proc?.output() ?? ''}`);
}
