// What the docs give operators to copy runs as the docs say: the alert rules load in Prometheus,
// and the Python webhook verifier raises only its documented ValueError.
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir, TEST_DIALECT } from '../../support/context.js';
import { ROOT, startServer } from '../../support/processes.js';

/** The first fenced block of `language` in a doc whose text starts with `opening`. */
function block(doc: string, language: string, opening: string): string {
  const text = fs.readFileSync(path.join(ROOT, doc), 'utf8');
  const found = [...text.matchAll(new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\``, 'gm'))].map((m) => m[1]!);
  const wanted = found.find((b) => b.startsWith(opening));
  if (wanted === undefined) throw new Error(`no ${language} block starting with ${JSON.stringify(opening)} in ${doc}`);
  return wanted;
}

function has(command: string): boolean {
  return spawnSync(command, ['--version'], { encoding: 'utf8' }).status === 0;
}

const PROMTOOL = has('promtool');
const PYTHON = has('python3');

// SQLite is enough: these are about the docs, not the database.
describe.runIf(TEST_DIALECT === 'sqlite')('snippets of the docs', () => {
  it('docs/cli.md describes every command the CLI has', () => {
    const help = spawnSync(process.execPath, [path.join(ROOT, 'dist/cli/index.js'), '--help'], {
      encoding: 'utf8',
      env: { ...process.env, COLUMNS: '200' },
    });
    const commands = [...help.stdout.matchAll(/^ {2}([a-z]+(?::[a-z]+)?) /gm)].map((m) => m[1]!).filter((c) => c !== 'help');
    expect(commands.length).toBeGreaterThan(25);
    const doc = fs.readFileSync(path.join(ROOT, 'docs/cli.md'), 'utf8');
    expect(commands.filter((c) => !doc.includes(`\`${c}`))).toEqual([]);
  });

  it('the README Quick start: a command that runs until stopped ends its block, and the first lines speak to members and staff', () => {
    const text = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const quickStart = text.slice(text.indexOf('## Quick start'), text.indexOf('\n## ', text.indexOf('## Quick start') + 1));
    const blocks = [...quickStart.matchAll(/^```sh\n([\s\S]*?)^```/gm)].map((m) => m[1]!.trim().split('\n'));
    const serving = blocks.filter((lines) => lines.some((l) => /npm (start|run demo)\b/.test(l)));
    expect(serving.length).toBeGreaterThan(0);
    // Pasted whole, a block runs line after line: nothing after the server would ever run.
    for (const lines of serving) expect(lines.findIndex((l) => /npm (start|run demo)\b/.test(l))).toBe(lines.length - 1);
    const opening = text.slice(0, text.indexOf('\n- '));
    expect(opening).toMatch(/members/i);
    expect(opening).toMatch(/staff/i);
  });

  it('the README tour works every time it is run, a key made by each run', { timeout: 180_000 }, async () => {
    const database = { DATABASE_URL: `sqlite:${path.join(tempDir(), 'tour.db')}` };
    const env = { ...process.env, LOG_LEVEL: 'silent', ...database };
    const server = await startServer(database);
    try {
      const tour = block('README.md', 'sh', 'npx sector seed:demo')
        .replaceAll('npx sector', `node ${JSON.stringify(path.join(ROOT, 'dist/cli/index.js'))}`)
        .replaceAll('http://127.0.0.1:8080', server.url);
      for (const run of [1, 2]) {
        const r = spawnSync('bash', ['-c', tour], { cwd: path.join(ROOT, 'docs'), env, encoding: 'utf8', timeout: 120_000 });
        expect(r.status, `run ${run}: ${r.stderr}`).toBe(0);
        const users = JSON.parse(r.stdout) as Array<{ id: number }>;
        expect(users.length, `run ${run}`).toBeGreaterThan(0);
        if (run === 2) expect(r.stderr).toContain('The demo division (seed 1) is already loaded; nothing was changed.');
        // The tour names its key after the second it is made: the next run starts in another second.
        await new Promise((resolve) => setTimeout(resolve, 1100));
      }
      // Each run made a key of its own (a name taken by the first run left TOKEN empty).
      const keys = spawnSync(process.execPath, [path.join(ROOT, 'dist/cli/index.js'), 'apikey:list', '--json'], { env, encoding: 'utf8' });
      expect(
        (JSON.parse(keys.stdout) as Array<{ name: string; expires_at: string | null }>).map((k) => [
          /^tour \d+$/.test(k.name),
          k.expires_at !== null,
        ]),
      ).toEqual([
        [true, true],
        [true, true],
      ]);
    } finally {
      await server.stop();
    }
  });

  it.skipIf(!PROMTOOL)(
    'the alert rules of docs/operations.md pass `promtool check rules` (skipped without promtool: apt-get install prometheus)',
    () => {
      const file = path.join(tempDir(), 'sector-alerts.yml');
      fs.writeFileSync(file, block('docs/operations.md', 'yaml', 'groups:'));
      const r = spawnSync('promtool', ['check', 'rules', file], { encoding: 'utf8' });
      expect(`${r.stdout}${r.stderr}`).toMatch(/SUCCESS: \d+ rules found/);
      expect(r.status).toBe(0);
      // Every sector metric a rule names is one the service exports (docs/operations.md's table).
      const table = fs.readFileSync(path.join(ROOT, 'docs/operations.md'), 'utf8');
      for (const metric of new Set(fs.readFileSync(file, 'utf8').match(/sector_[a-z_]+/g))) {
        expect(table, metric).toContain(`| \`${metric.replace(/_bucket$/, '')}\``);
      }
    },
  );

  it.skipIf(!PYTHON)(
    'the Python verifier of docs/events.md accepts a signed event and raises only ValueError otherwise (skipped without python3)',
    () => {
      const secret = `whsec_${crypto.randomBytes(32).toString('base64')}`;
      const body = JSON.stringify({ id: 'evt_1', type: 'booking.created', timestamp: '2026-01-01T00:00:00.000000Z', data: {} });
      const now = Math.floor(Date.now() / 1000);
      const sign = (id: string, ts: string) =>
        `v1,${crypto
          .createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64'))
          .update(`${id}.${ts}.${body}`)
          .digest('base64')}`;
      const good = { 'webhook-id': 'evt_1', 'webhook-timestamp': String(now), 'webhook-signature': sign('evt_1', String(now)) };
      const cases: Record<string, Record<string, string>> = {
        good,
        'another signature first': { ...good, 'webhook-signature': `v1,AAAA ${good['webhook-signature']}` },
        'no webhook-id': { 'webhook-timestamp': good['webhook-timestamp'], 'webhook-signature': good['webhook-signature'] },
        'no webhook-signature': { 'webhook-id': 'evt_1', 'webhook-timestamp': good['webhook-timestamp'] },
        'no headers': {},
        'a timestamp that is no number': { ...good, 'webhook-timestamp': 'soon' },
        'an old timestamp': { ...good, 'webhook-timestamp': String(now - 3600), 'webhook-signature': sign('evt_1', String(now - 3600)) },
        'a wrong signature': { ...good, 'webhook-signature': 'v1,bm9wZQ==' },
        'a signature with non-ASCII characters': { ...good, 'webhook-signature': 'v1,\u00e9\u00e9' },
        'another id': { ...good, 'webhook-id': 'evt_2' },
      };
      const driver = `
import sys
for name, headers in json.loads(sys.stdin.read()).items():
    try:
        print(name, "->", verify_sector(${JSON.stringify(secret)}, headers, ${JSON.stringify(body)}.encode())["type"])
    except ValueError:
        print(name, "-> ValueError")
    except Exception as e:
        print(name, "->", type(e).__name__)
`;
      const script = path.join(tempDir(), 'verify.py');
      fs.writeFileSync(script, `${block('docs/events.md', 'python', 'import base64')}${driver}`);
      const r = spawnSync('python3', [script], { input: JSON.stringify(cases), encoding: 'utf8' });
      expect(r.stderr).toBe('');
      expect(r.stdout.trimEnd().split('\n')).toEqual(
        Object.keys(cases).map(
          (name) => `${name} -> ${name === 'good' || name === 'another signature first' ? 'booking.created' : 'ValueError'}`,
        ),
      );
    },
  );
});
