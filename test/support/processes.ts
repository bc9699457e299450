// The CLI and the server as real processes, built from dist/ (npm test builds first).
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CLI = path.join(ROOT, 'dist/cli/index.js');
const SERVER = path.join(ROOT, 'dist/server.js');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], env: Record<string, string>, input = ''): CliResult {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    input,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * The CLI as a process without blocking this one: several can run at once, and a server or stand-in
 * responding from this process keeps responding meanwhile (runCli's spawnSync would hold it back).
 */
export function runCliAsync(args: string[], env: Record<string, string>, timeoutMs = 60_000): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, env: { ...process.env, LOG_LEVEL: 'silent', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    // A hung CLI is a failed test, not a stuck run.
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The CLI as a process the test can kill midway (a crash); `done` settles when it has exited. */
export function spawnCli(args: string[], env: Record<string, string>): { kill(signal: NodeJS.Signals): void; done: Promise<CliResult> } {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, env: { ...process.env, LOG_LEVEL: 'silent', ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<CliResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
  return { kill: (signal) => void child.kill(signal), done };
}

/** Runs the CLI on a pseudo-terminal (via script(1)), replying to prompts as they appear. */
export function runCliInteractive(
  args: string[],
  env: Record<string, string>,
  replies: Array<[prompt: RegExp, keys: string]>,
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const command = [process.execPath, CLI, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
    const child = spawn('script', ['-qec', command, '/dev/null'], { cwd: ROOT, env: { ...process.env, LOG_LEVEL: 'silent', ...env } });
    let out = '';
    const pending = [...replies];
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`interactive CLI timed out; output so far:\n${out}`));
    }, 30_000);
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const next = pending[0];
      if (next && next[0].test(out)) {
        pending.shift();
        out += '\u0000'; // consume: later prompts must appear after this point
        child.stdin.write(next[1]);
      }
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: out, stderr: '' });
    });
  });
}

export interface ServerProcess {
  url: string;
  logs(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** How long a stopped server may take to exit (its shutdown waits at most for in-flight work). */
const STOP_MS = 20_000;

export function startServer(env: Record<string, string>, cwd = ROOT, args: string[] = []): Promise<ServerProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SERVER, ...args], {
      cwd,
      // No poll of the real network's feed from a test (a test that wants one points DATA_FEED_URL at a stand-in).
      env: { ...process.env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', RATE_LIMIT: '0', DATA_FEED_URL: 'off', ...env },
    });
    let logs = '';
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${logs}`)), 30_000);
    let started = false;
    const onData = (chunk: Buffer) => {
      logs += chunk.toString();
      // Once started, the log only grows: searching all of it again for every chunk is quadratic.
      const m = started ? null : /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(logs);
      if (m) {
        started = true;
        clearTimeout(timer);
        resolve({
          url: m[1]!,
          logs: () => logs,
          stop: async (signal = 'SIGTERM') => {
            child.kill(signal);
            // A server that does not exit is a defect: say so with its log, instead of a bare hook timeout.
            let hung: NodeJS.Timeout | undefined;
            const deadline = new Promise<never>((_, fail) => {
              hung = setTimeout(() => {
                child.kill('SIGKILL');
                fail(new Error(`server did not exit within ${STOP_MS} ms of ${signal}:\n${logs}`));
              }, STOP_MS);
            });
            try {
              return await Promise.race([exited, deadline]);
            } finally {
              clearTimeout(hung);
            }
          },
        });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${logs}`));
    });
  });
}
