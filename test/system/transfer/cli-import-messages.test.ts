// What `import` prints about a bad file: one short line naming the path, whatever the file
// holds (huge values, control characters, deep nesting), and a UTF-8 BOM is no error at all.
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/core/db/connection.js';
import { freshDatabaseUrl, writeImportFile } from '../../support/context.js';
import { buildPosition, buildUser } from '../../support/factories.js';
import { runCli } from '../../support/processes.js';

const USER = buildUser({ id: 10000001, rating: 'S3' });
const POSITION = buildPosition('EKCH_TWR');

/** Nothing a terminal would act on: no control characters, no line or paragraph separators. */
const UNPRINTABLE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/;

function importRefused(content: string) {
  const env = { DATABASE_URL: freshDatabaseUrl() };
  const r = runCli(['import', writeImportFile(content)], env);
  expect(r.code).toBe(1);
  const line = r.stderr.replace(/\n$/, '');
  expect(line.split('\n')).toHaveLength(1);
  expect(line).not.toMatch(UNPRINTABLE);
  expect(line).not.toContain('Maximum call stack');
  return line;
}

describe('import error messages', () => {
  it('cut a huge value to its start and say how long it was', () => {
    const huge = 'X'.repeat(5_000_000);
    const line = importRefused(JSON.stringify({ users: [{ ...USER, rating: huge }] }));
    expect(line.length).toBeLessThan(400);
    expect(line).toContain(`users[0].rating: unknown rating "${'X'.repeat(100)}…" (5000000 characters)`);
  });

  it('cut a huge unknown key', () => {
    const line = importRefused(JSON.stringify({ ['k'.repeat(5_000_000)]: [] }));
    expect(line.length).toBeLessThan(400);
    expect(line).toContain(`"${'k'.repeat(100)}…" (5000000 characters): unknown key`);
  });

  it('escape control characters in values, keys and references', () => {
    expect(importRefused(JSON.stringify({ users: [{ ...USER, rating: '\u001b[31mC1\u007f\u2028' }] }))).toContain(
      'users[0].rating: unknown rating "\\u001b[31mC1\\u007f\\u2028"',
    );
    expect(
      importRefused(JSON.stringify({ areas: ['Denmark'], users: [{ ...USER, atc_active_areas: { 'Den\nmark\u0085': 'yes' } }] })),
    ).toContain('users[0].atc_active_areas."Den\\nmark\\u0085": must be true or false');
    expect(
      importRefused(JSON.stringify({ users: [USER], roles: [{ user_id: USER.id, area: 'At\u001blan\ttis', role: 'Mentor' }] })),
    ).toContain('roles[0].area: unknown area "At\\u001blan\\ttis"');
  });

  it('escape control characters the JSON parser quotes from a broken file', () => {
    const line = importRefused('\u001b[2J{"users": [}');
    expect(line).toContain('is not valid JSON');
    expect(line).toContain('\\u001b');
  });

  it('name the path of a deeply nested value instead of overflowing the stack', () => {
    const deep = '['.repeat(200_000) + ']'.repeat(200_000);
    const line = importRefused(
      `{"areas": ["Denmark"], "positions": [${JSON.stringify({ ...POSITION, frequency: 0 }).replace('"frequency":0', `"frequency":${deep}`)}]}`,
    );
    expect(line).toMatch(
      /positions\[0\]\.frequency: must be a VHF frequency from 118\.000 to 136\.999 such as "118\.105" \(got \[\[\[.*\)/,
    );
    expect(line.length).toBeLessThan(400);
  });

  it('accept a file that starts with a UTF-8 byte order mark', async () => {
    const env = { DATABASE_URL: freshDatabaseUrl() };
    const r = runCli(['import', writeImportFile(`\uFEFF${JSON.stringify({ users: [USER] })}`)], env);
    expect(r.stderr).toMatch(/^Imported 1 user\b/);
    expect(r.code).toBe(0);
    const db = openDatabase(env.DATABASE_URL);
    expect(await db.kysely.selectFrom('users').select('first_name').execute()).toEqual([{ first_name: 'Ada' }]);
    await db.close();
  });
});
