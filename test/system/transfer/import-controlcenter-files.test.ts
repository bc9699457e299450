// `import:controlcenter --files DIR` (contract §20): Control Center's files on training reports and
// examinations (its training_object_attachments rows and the files they name under its storage
// folder) move with their records; a file missing or of a refused type is skipped with the reason.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabaseUrl, tempDir } from '../../support/context.js';
import { readDatabase } from '../../support/db-state.js';
import { runCliAsync } from '../../support/processes.js';
import { PNG } from '../../support/attachments.js';
import { controlCenterDatabases } from '../../support/controlcenter-db.js';

const cc = controlCenterDatabases('files');

// Control Center's own tables for files (its migrations: files, training_object_attachments).
const FILES_SQL = `
CREATE TABLE files (id varchar(255) PRIMARY KEY, uploaded_by bigint unsigned NULL, name varchar(255) NOT NULL, path varchar(255) NOT NULL, created_at timestamp NULL, updated_at timestamp NULL);
CREATE TABLE training_object_attachments (id bigint unsigned AUTO_INCREMENT PRIMARY KEY, object_type varchar(255) NOT NULL, object_id bigint unsigned NOT NULL, file_id varchar(255) NOT NULL, hidden tinyint(1) NOT NULL DEFAULT 0, created_at timestamp NULL, updated_at timestamp NULL);
INSERT INTO files (id, uploaded_by, name, path, created_at) VALUES
 ('f1', 10000001, 'scan.pdf', 'public/files/f1.pdf', '2026-06-10 20:05:00'),
 ('f2', 10000004, 'exam sheet.txt', 'public/files/f2.txt', '2026-08-09 20:10:00'),
 ('f3', 10000001, 'gone.pdf', 'public/files/f3.pdf', '2026-06-10 20:06:00'),
 ('f4', 10000001, 'tool.exe', 'public/files/f4.exe', '2026-06-10 20:07:00');
INSERT INTO training_object_attachments (object_type, object_id, file_id, hidden, created_at) VALUES
 ('App\\\\Models\\\\TrainingReport', 1, 'f1', 0, '2026-06-10 20:05:00'),
 ('App\\\\Models\\\\TrainingExamination', 2, 'f2', 1, '2026-08-09 20:10:00'),
 ('App\\\\Models\\\\TrainingReport', 1, 'f3', 0, '2026-06-10 20:06:00'),
 ('App\\\\Models\\\\TrainingReport', 3, 'f4', 0, '2026-06-10 20:07:00');
`;

let url: string;
let storage: string;

beforeAll(async () => {
  url = await cc.create('7.0', FILES_SQL);
  storage = tempDir();
  fs.mkdirSync(path.join(storage, 'public/files'), { recursive: true });
  fs.writeFileSync(path.join(storage, 'public/files/f1.pdf'), PNG);
  fs.writeFileSync(path.join(storage, 'public/files/f2.txt'), 'Exam sheet: passed.\n');
  fs.writeFileSync(path.join(storage, 'public/files/f4.exe'), Buffer.concat([Buffer.from('MZ'), Buffer.alloc(100, 0x90)]));
});

afterAll(() => cc.dropAll());

describe('import:controlcenter --files', () => {
  it('moves the files of reports and examinations, typed from their content, skipping what cannot be kept', async () => {
    const databaseUrl = freshDatabaseUrl();
    const r = await runCliAsync(['import:controlcenter', url, '--files', storage, '--json'], { DATABASE_URL: databaseUrl });
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout).report.training_attachments;
    expect(report).toMatchObject({ read: 4, imported: 2 });
    expect(report.skipped).toEqual([
      { row: 'attachment 3', reason: `its file public/files/f3.pdf is not in ${storage}` },
      { row: 'attachment 4', reason: 'not a PDF, PNG, JPEG or plain text file' },
    ]);
    const rows = await readDatabase(databaseUrl, (db) =>
      db
        .selectFrom('training_attachments as a')
        .leftJoin('training_reports as r', 'r.id', 'a.report_id')
        .leftJoin('training_examinations as x', 'x.id', 'a.examination_id')
        .select([
          'a.name',
          'a.type',
          'a.size',
          'a.hidden',
          'a.uploader_id',
          'a.created_at',
          'a.content',
          'r.report_date',
          'x.examination_date',
        ])
        .orderBy('a.id')
        .execute(),
    );
    expect(rows.map((a) => ({ ...a, content: Buffer.from(a.content).toString() }))).toEqual([
      {
        name: 'scan.pdf.png',
        type: 'image/png',
        size: PNG.length,
        hidden: 0,
        uploader_id: 10000001,
        created_at: Date.UTC(2026, 5, 10, 20, 5),
        content: PNG.toString(),
        report_date: '2026-06-10',
        examination_date: null,
      },
      {
        name: 'exam sheet.txt',
        type: 'text/plain',
        size: 20,
        hidden: 1,
        uploader_id: 10000004,
        created_at: Date.UTC(2026, 7, 9, 20, 10),
        content: 'Exam sheet: passed.\n',
        report_date: null,
        examination_date: '2026-08-09',
      },
    ]);
  });

  it('without --files says that each file was left, in a dry run as in a move', async () => {
    const r = await runCliAsync(['import:controlcenter', url, '--dry-run', '--json'], { DATABASE_URL: freshDatabaseUrl() });
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout).report.training_attachments;
    expect(report.imported).toBe(0);
    expect(report.skipped).toContainEqual({ row: 'attachment 1', reason: 'no --files DIR was given' });
  });
});
