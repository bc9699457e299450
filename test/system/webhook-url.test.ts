// webhook:add refuses URLs with control characters or whitespace, raw or %-encoded (contract §10):
// one line on stderr, a non-zero exit, nothing stored. The CLI as a process.
import { describe, expect, it } from 'vitest';
import { freshDatabaseUrl } from '../support/context.js';
import { runCli } from '../support/processes.js';

const HOSTILE = [
  'http://example.org/hook\r\nX-Injected: 1',
  'http://example.org/hook\n',
  'http://example.org/ho\tok',
  'http://example.org/\u001b]0;owned\u0007',
  'http://example.org/\u001b[31mred',
  ' http://example.org/hook',
  'http://example.org/hook ',
  'http://example.org/a b',
  'http://example.org/\u00a0',
  'http://example.org/\u2028',
  'http://example.org/\u202egnp.kooh',
  'http://example.org/hook%0d%0aX-Injected:%201',
  'http://example.org/hook%09',
  'http://example.org/hook?x=%1B%5B31m',
  'http://example.org/hook?x=%C2%85',
  'http://example.org/hook?x=%20',
  'http://example.org/hook?x=%E2%80%AE',
  'http://example.org/hook?x=%FF%0A',
];

describe('webhook:add and hostile URLs', { timeout: 180_000 }, () => {
  const env = { DATABASE_URL: freshDatabaseUrl() };

  it('refuses every URL with a control character or whitespace, with one line, storing nothing', () => {
    expect(runCli(['migrate'], env).code).toBe(0);
    for (const url of HOSTILE) {
      const r = runCli(['webhook:add', '--url', url, '--json'], env);
      expect(r.code, JSON.stringify(url)).not.toBe(0);
      expect(r.stdout, JSON.stringify(url)).toBe('');
      expect(r.stderr.trim().split('\n'), JSON.stringify(url)).toHaveLength(1);
      expect(r.stderr, JSON.stringify(url)).toMatch(/control characters or whitespace/);
      // Nothing of the URL reaches the terminal raw.
      expect(r.stderr.slice(0, -1), JSON.stringify(url)).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202e]/);
    }
    expect(JSON.parse(runCli(['webhook:list', '--json'], env).stdout)).toEqual([]);
    // The same URL without them is taken.
    const ok = runCli(['webhook:add', '--url', 'http://example.org/hook?x=%41', '--json'], env);
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(runCli(['webhook:list', '--json'], env).stdout)).toHaveLength(1);
  });
});
