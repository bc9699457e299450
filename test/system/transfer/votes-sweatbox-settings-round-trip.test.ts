// Votes, sweatbox sessions and members' settings (contract §23, §24) in the export and the import:
// made through the features' own services, exported, imported into an empty database and exported
// again to the same bytes; the ballot stays secret (who voted and the counts, never who chose what);
// the import publishes nothing (no vote.closed for a vote past its time); a bad record is refused
// with one line naming its path and changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, writeImportFile } from '../../support/context.js';
import { tableRows } from '../../support/db-state.js';
import { buildDivision, buildPosition, buildRole, buildUser } from '../../support/factories.js';
import { runCliAsync } from '../../support/processes.js';

const ADMIN = 10000001;
const BO = 10000002;
const CY = 10000003;
const T0 = Date.parse('2026-05-01T08:00:00Z');
const COMMUNITY_TABLES = [
  'votes',
  'vote_options',
  'vote_voters',
  'sweatbox_sessions',
  'member_settings',
  'mail_choices',
  'events',
  'audit_log',
] as const;
const member = (cid: number) => ({ kind: 'member' as const, cid, name: `Member ${cid}` });

interface Doc {
  votes?: Array<Record<string, unknown> & { voters: Array<Record<string, unknown>> }>;
  sweatbox?: Array<Record<string, unknown>>;
  settings?: Array<Record<string, unknown>>;
}

describe('votes, sweatbox sessions and settings in the export and the import', () => {
  let a: TestContext;
  let b: TestContext;
  let text: string;
  beforeAll(async () => {
    [a, b] = await Promise.all([createTestContext({ now: T0 }), createTestContext({ now: T0 })]);
  });
  afterAll(async () => {
    await Promise.all([a.close(), b.close()]);
  });

  it('leaves the sections out of a division without them', async () => {
    await a.load(
      buildDivision({
        users: [buildUser({ id: ADMIN }), buildUser({ id: BO, first_name: 'Bo' }), buildUser({ id: CY, first_name: 'Cy' })],
        positions: [buildPosition('EKCH_TWR'), buildPosition('EKCH_GND')],
        roles: [buildRole({ user_id: ADMIN, area: null, role: 'Administrator' }), buildRole({ user_id: BO, role: 'Mentor' })],
      }),
    );
    const doc = JSON.parse(await a.services.exports.text()) as Doc;
    expect(Object.keys(doc)).not.toEqual(expect.arrayContaining(['votes']));
    expect(doc.sweatbox ?? doc.settings).toBeUndefined();
  });

  it('writes what the features stored, and an import of the export gives the same bytes and rows', async () => {
    const vote = (question: string, close_date: string, options: string) =>
      a.services.votes.create({ question, options, close_date, close_time: '18:00', eligibility: 'all' }, member(ADMIN));
    const board = await vote('Who chairs the board?', '2026-05-10', 'Ada\nBo');
    const logo = await vote('A new logo?', '2026-06-30', 'Yes\nNo\nLater');
    const [yes, , later] = (await a.services.votes.one(logo, ADMIN))!.options;
    const [ada] = (await a.services.votes.one(board, ADMIN))!.options;
    await a.services.votes.cast(logo, yes!.id, BO);
    await a.services.votes.cast(logo, later!.id, CY);
    await a.services.votes.cast(board, ada!.id, CY);
    a.setNow(Date.parse('2026-05-11T00:00:00Z'));
    expect(await a.services.votes.closeDue()).toBe(1);
    await a.services.sweatbox.create(
      { position: 'EKCH_TWR', date: '2026-05-20', start: '22:00', end: '01:30', notes: 'Night ops' },
      member(BO),
    );
    await a.services.sweatbox.create({ position: 'EKCH_GND', date: '2026-05-20', start: '10:00', end: '10:15', notes: '' }, member(ADMIN));
    await a.services.settings.save(member(BO), 'dark', new Set(['training', 'feedback'] as const));
    await a.services.settings.save(member(CY), 'device', new Set(['endorsements', 'activity', 'tasks', 'training'] as const));

    text = await a.services.exports.text();
    const doc = JSON.parse(text) as Doc;
    expect(doc.votes).toEqual([
      {
        question: 'Who chairs the board?',
        closes_at: '2026-05-10T18:00:00.000000Z',
        eligibility: 'all',
        created_by: ADMIN,
        closed_at: '2026-05-11T00:00:00.000000Z',
        created_at: '2026-05-01T08:00:00.000000Z',
        updated_at: '2026-05-01T08:00:00.000000Z',
        options: [
          { text: 'Ada', count: 1 },
          { text: 'Bo', count: 0 },
        ],
        voters: [{ user_id: CY, voted_on: '2026-05-01' }],
      },
      expect.objectContaining({
        question: 'A new logo?',
        closed_at: null,
        options: [
          { text: 'Yes', count: 1 },
          { text: 'No', count: 0 },
          { text: 'Later', count: 1 },
        ],
        voters: [
          { user_id: BO, voted_on: '2026-05-01' },
          { user_id: CY, voted_on: '2026-05-01' },
        ],
      }),
    ]);
    // Who voted carries nothing but the member and the day.
    for (const v of doc.votes!) for (const voter of v.voters) expect(Object.keys(voter)).toEqual(['user_id', 'voted_on']);
    expect(doc.sweatbox).toEqual([
      {
        callsign: 'EKCH_GND',
        time_start: '2026-05-20 10:00:00',
        time_end: '2026-05-20 10:15:00',
        user_id: ADMIN,
        notes: '',
        created_at: '2026-05-11T00:00:00.000000Z',
        updated_at: '2026-05-11T00:00:00.000000Z',
      },
      expect.objectContaining({
        callsign: 'EKCH_TWR',
        time_start: '2026-05-20 22:00:00',
        time_end: '2026-05-21 01:30:00',
        notes: 'Night ops',
      }),
    ]);
    expect(doc.settings).toEqual([
      {
        user_id: BO,
        look: 'dark',
        mail: { activity: false, endorsements: false, feedback: true, tasks: false, training: true },
        updated_at: '2026-05-11T00:00:00.000000Z',
      },
      {
        user_id: CY,
        look: 'device',
        mail: { activity: true, endorsements: true, feedback: false, tasks: true, training: true },
        updated_at: '2026-05-11T00:00:00.000000Z',
      },
    ]);

    // Into an empty database a month after the first vote closed: the same bytes, and no vote.closed then.
    b.setNow(Date.parse('2026-06-10T00:00:00Z'));
    await b.load(doc);
    expect(await b.services.exports.text()).toBe(text);
    expect(await b.services.votes.closeDue()).toBe(0);
    const rows = await tableRows(b.databaseUrl, ['events']);
    expect(rows.events).toEqual([]);
    expect((await b.services.settings.of(BO)).look).toBe('dark');
    expect((await b.services.votes.one(logo, CY))!.voted).toBe(true);
  });

  it('keeps no link from a member to an option: the schema has none, and a file that gives one is refused', async () => {
    // The columns of the stored rows (b holds ballots): who voted and the counts, apart.
    const stored = await tableRows(b.databaseUrl, ['vote_voters', 'vote_options']);
    const columns = (table: keyof typeof stored) => Object.keys(JSON.parse(stored[table][0]!) as object).sort();
    expect(columns('vote_voters')).toEqual(['user_id', 'vote_id', 'voted_on']);
    expect(columns('vote_options')).toEqual(['count', 'id', 'position', 'text', 'vote_id']);
    const doc = JSON.parse(text) as Doc;
    doc.votes![1]!.voters[0]!.option = 'Yes';
    await expect(b.load({ votes: doc.votes })).rejects.toThrow(
      /^votes\[1\]\.voters\[0\]\.option: unknown field; expected one of user_id, voted_on$/,
    );
  });

  it('refuses bad records by their path in one line and changes nothing', async () => {
    const before = await tableRows(b.databaseUrl, COMMUNITY_TABLES);
    const vote = {
      question: 'Q?',
      closes_at: '2027-01-01T00:00:00Z',
      eligibility: 'members',
      created_by: ADMIN,
      options: [
        { text: 'A', count: 0 },
        { text: 'B', count: 0 },
      ],
    };
    const session = { callsign: 'EKCH_TWR', time_start: '2027-01-01 10:00:00', time_end: '2027-01-01 11:00:00', user_id: BO };
    const refused: Array<[unknown, RegExp]> = [
      [
        { votes: [{ ...vote, voters: [{ user_id: 999, voted_on: '2026-12-01' }] }] },
        /^votes\[0\]\.voters\[0\]\.user_id: unknown user 999$/,
      ],
      [{ votes: [{ ...vote, created_by: 998 }] }, /^votes\[0\]\.created_by: unknown user 998$/],
      [{ votes: [{ ...vote, eligibility: 'staff' }] }, /^votes\[0\]\.eligibility: must be members, active, all/],
      [{ votes: [{ ...vote, options: [{ text: 'A', count: 1 }] }] }, /^votes\[0\]\.options: must hold 2 to 10 options$/],
      [{ votes: [vote, { ...vote }] }, /^votes\[1\]: duplicates votes\[0\] \(same question and closes_at\)$/],
      [{ sweatbox: [{ ...session, callsign: 'ESSA_TWR' }] }, /^sweatbox\[0\]\.callsign: unknown position "ESSA_TWR"$/],
      [{ sweatbox: [{ ...session, user_id: 997 }] }, /^sweatbox\[0\]\.user_id: unknown user 997$/],
      [
        { sweatbox: [{ ...session, time_end: '2027-01-01 19:00:00' }] },
        /^sweatbox\[0\]\.time_end: must be 15 minutes to 8 hours after time_start$/,
      ],
      [
        { sweatbox: [{ ...session, time_start: '2026-05-20 23:00:00', time_end: '2026-05-21 00:00:00' }] },
        /^sweatbox\[0\]: overlaps a stored session of EKCH_TWR \(2026-05-20 22:00:00 to 2026-05-21 01:30:00\)$/,
      ],
      [
        { sweatbox: [session, { ...session, time_start: '2027-01-01 10:30:00', time_end: '2027-01-01 11:30:00' }] },
        /^sweatbox\[1\]: overlaps sweatbox\[0\] of EKCH_TWR/,
      ],
      [{ settings: [{ user_id: 996, look: 'dark' }] }, /^settings\[0\]\.user_id: unknown user 996$/],
      [{ settings: [{ user_id: BO, mail: { newsletter: true } }] }, /^settings\[0\]\.mail\.newsletter: unknown kind of mail/],
      [{ settings: [{ user_id: BO, look: 'pink' }] }, /^settings\[0\]\.look: must be device, light, dark or null/],
      // A good section does not pass a bad one: the whole file is one transaction.
      [
        { settings: [{ user_id: BO, look: 'light' }], sweatbox: [{ ...session, user_id: 997 }] },
        /^sweatbox\[0\]\.user_id: unknown user 997$/,
      ],
    ];
    for (const [file, message] of refused) await expect(b.load(file)).rejects.toThrow(message);
    expect(await tableRows(b.databaseUrl, COMMUNITY_TABLES)).toEqual(before);

    // The command line says it in one line, and the counts of a good file.
    const bad = await runCliAsync(['import', writeImportFile({ sweatbox: [{ ...session, user_id: 997 }] })], {
      DATABASE_URL: b.databaseUrl,
    });
    expect(bad.code).not.toBe(0);
    expect(bad.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/sweatbox\[0\]\.user_id: unknown user 997; nothing was imported$/),
    ]);
    expect(await tableRows(b.databaseUrl, COMMUNITY_TABLES)).toEqual(before);
  });

  it('updates by key: a vote by question and closing time, a session by callsign and start, settings by member', async () => {
    const doc = JSON.parse(text) as Doc;
    const logo = {
      ...doc.votes![1]!,
      options: [
        { text: 'Yes', count: 5 },
        { text: 'No', count: 2 },
      ],
    };
    delete (logo as Record<string, unknown>).voters;
    await b.load({
      votes: [logo],
      sweatbox: [{ ...doc.sweatbox![0]!, time_end: '2026-05-20 11:00:00', notes: 'Longer' }],
      settings: [{ user_id: BO, mail: { tasks: true } }],
    });
    const after = JSON.parse(await b.services.exports.text()) as Doc;
    expect(after.votes).toHaveLength(2);
    expect(after.votes![1]).toMatchObject({ options: logo.options, voters: doc.votes![1]!.voters });
    expect(after.sweatbox).toHaveLength(2);
    expect(after.sweatbox![0]).toMatchObject({ time_end: '2026-05-20 11:00:00', notes: 'Longer' });
    expect(after.settings![0]).toMatchObject({ look: 'dark', mail: { tasks: true, training: true, feedback: true, activity: false } });
  });
});
