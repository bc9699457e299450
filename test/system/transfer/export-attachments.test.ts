// Attachments in the export (contract §20): `npx sector export FILE` writes each file beside FILE in
// FILE.attachments/, named by its SHA-256 (which the JSON names), and `import` reads them from there:
// a division exported and imported into an empty database holds the same files, and exports the same.
// A file missing or changed is refused with its path, nothing imported.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, freshDatabaseUrl, tempDir, type TestContext } from '../../support/context.js';
import { ADA, buildDivision, buildEndorsement, buildPosition, buildUser } from '../../support/factories.js';
import { readDatabase } from '../../support/db-state.js';
import { runCli } from '../../support/processes.js';
import { fileForm, PDF, PNG } from '../../support/attachments.js';

const EX = 1000005;
const stored = (databaseUrl: string) =>
  readDatabase(databaseUrl, (db) =>
    db
      .selectFrom('training_attachments')
      .select(['name', 'type', 'size', 'sha256', 'hidden', 'uploader_id', 'uploader', 'created_at', 'content'])
      .orderBy('id')
      .execute(),
  );

describe('attachments in the export and the import', () => {
  let ctx: TestContext;
  let dir: string;
  let file: string;

  beforeAll(async () => {
    ctx = await createTestContext({ now: Date.UTC(2026, 2, 10, 12) });
    await ctx.load(
      buildDivision({
        users: [buildUser({ rating: 'S1' }), buildUser({ id: EX, first_name: 'Ex', rating: 'C3' })],
        positions: [buildPosition('EKCH_TWR')],
        endorsements: [buildEndorsement({ user_id: EX, type: 'examiner', rating: 'S3', areas: ['Denmark'] })],
      }),
    );
    const edit = await ctx.key('edit');
    const post = (url: string, payload: object) => ctx.request({ method: 'POST', url, token: edit, payload });
    const attach = (url: string, name: string, bytes: Buffer, more: Record<string, string> = {}) => {
      const form = fileForm(name, bytes, more);
      return ctx.request({ method: 'POST', url, token: edit, headers: { 'content-type': form.contentType }, payload: form.body });
    };
    const t = (await post('/api/trainings', { user_id: ADA, area: 'Denmark', ratings: ['S2'] })).json().id;
    const r1 = (await post(`/api/trainings/${t}/reports`, { report_date: '2026-03-01', content: 'One' })).json().id;
    const r2 = (await post(`/api/trainings/${t}/reports`, { report_date: '2026-03-02', content: 'Two', draft: true })).json().id;
    const x = (
      await post(`/api/trainings/${t}/examinations`, {
        examination_date: '2026-03-03',
        position: 'EKCH_TWR',
        examiner_id: EX,
        result: 'PASSED',
      })
    ).json().id;
    const note = Buffer.from('Ærlig talt: godt arbejde\n');
    for (const [url, name, bytes, more] of [
      [`/api/trainings/${t}/reports/${r1}/attachments`, 'scan.png', PNG, {}],
      [`/api/trainings/${t}/reports/${r1}/attachments`, 'note.txt', note, {}],
      // The same bytes on two records: one file beside the export.
      [`/api/trainings/${t}/reports/${r2}/attachments`, 'note again.txt', note, { hidden: 'true' }],
      [`/api/trainings/${t}/examinations/${x}/attachments`, 'exam form.pdf', PDF, { hidden: 'true' }],
    ] as const)
      expect((await attach(url, name, bytes, more)).statusCode).toBe(201);
    dir = tempDir();
    file = path.join(dir, 'division.json');
  });
  afterAll(() => ctx.close());

  it('writes each file beside the export, named by its SHA-256, and the import restores them exactly', async () => {
    const exported = runCli(['export', file], { DATABASE_URL: ctx.databaseUrl });
    expect(exported.code, exported.stderr).toBe(0);
    const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
    const [training] = doc.trainings;
    expect(training.reports[0].attachments).toEqual([
      expect.objectContaining({
        name: 'scan.png',
        type: 'image/png',
        size: PNG.length,
        hidden: false,
        uploader: expect.stringMatching(/^key:/),
      }),
      expect.objectContaining({ name: 'note.txt', type: 'text/plain', hidden: false }),
    ]);
    expect(training.reports[1].attachments).toEqual([expect.objectContaining({ name: 'note again.txt', hidden: true })]);
    expect(training.examinations[0].attachments).toEqual([expect.objectContaining({ name: 'exam form.pdf', type: 'application/pdf' })]);
    const before = await stored(ctx.databaseUrl);
    const names = [...new Set(before.map((a) => a.sha256))].sort();
    expect(fs.readdirSync(`${file}.attachments`).sort()).toEqual(names);
    for (const a of before) expect(fs.readFileSync(path.join(`${file}.attachments`, a.sha256)).equals(Buffer.from(a.content))).toBe(true);

    const target = freshDatabaseUrl();
    const imported = runCli(['import', file], { DATABASE_URL: target });
    expect(imported.code, imported.stderr).toBe(0);
    const after = await stored(target);
    expect(after.map((a) => ({ ...a, content: Buffer.from(a.content).toString('base64') }))).toEqual(
      before.map((a) => ({ ...a, content: Buffer.from(a.content).toString('base64') })),
    );
    const again = path.join(dir, 'again.json');
    expect(runCli(['export', again], { DATABASE_URL: target }).code).toBe(0);
    expect(fs.readFileSync(again, 'utf8')).toBe(fs.readFileSync(file, 'utf8'));
  });

  it('refuses an import whose file is missing or altered, naming the record, and imports nothing', async () => {
    const copy = path.join(tempDir(), 'division.json');
    fs.copyFileSync(file, copy);
    fs.mkdirSync(`${copy}.attachments`);
    const target = freshDatabaseUrl();
    const missing = runCli(['import', copy], { DATABASE_URL: target });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(
      /trainings\[0\]\.reports\[0\]\.attachments\[0\]: its file [0-9a-f]{64} is missing; nothing was imported/,
    );
    for (const name of fs.readdirSync(`${file}.attachments`)) fs.writeFileSync(path.join(`${copy}.attachments`, name), 'changed');
    const altered = runCli(['import', copy], { DATABASE_URL: target });
    expect(altered.code).toBe(1);
    expect(altered.stderr).toContain('does not hold what its name says');
    const users = await readDatabase(target, (db) => db.selectFrom('users').select('id').execute());
    expect(users).toEqual([]);
  });
});
