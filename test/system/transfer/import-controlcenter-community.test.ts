// `import:controlcenter` moves Control Center's votes (`votes`, `vote_options`, `user_vote`), its
// sweatbox bookings (`sweatbooks`) and its facility ratings' `endorsement_type` as tiers (contracts
// §19, §22, §23), from its 6.4.3 and 7.0 schemas in MariaDB into SQLite and PostgreSQL: one process
// per version. Control Center keeps who voted beside the counts; Sector keeps that they voted (a
// day) and the counts apart, and publishes nothing for the moved votes.
import { afterAll, describe, expect, it } from 'vitest';
import { freshDatabaseUrl } from '../../support/context.js';
import { readDatabase, tableRows } from '../../support/db-state.js';
import { runCliAsync } from '../../support/processes.js';
import { controlCenterDatabases } from '../../support/controlcenter-db.js';

const cc = controlCenterDatabases('community');

const VOTES = `
UPDATE ratings SET endorsement_type = 'T1' WHERE id = 8;
UPDATE ratings SET endorsement_type = 'T2' WHERE id = 9;
INSERT INTO ratings (id, name, description, vatsim_rating, endorsement_type) VALUES (10,'T9 EKDK CTR','Old',NULL,'T3');
INSERT INTO votes (id, question, require_active, require_member, closed, created_at, updated_at, end_at) VALUES
 (1,'Who chairs the board?',0,1,1,'2026-01-10 10:00:00','2026-01-10 10:00:00','2026-01-20 18:00:00'),
 (2,'A new logo?',1,0,0,'2026-11-01 09:00:00','2026-11-01 09:00:00','2027-06-30 18:00:00'),
 (3,'Only one option',0,0,0,'2026-11-01 09:00:00','2026-11-01 09:00:00','2027-01-01 00:00:00'),
 (4,'Past, never marked closed',0,0,0,'2026-01-01 09:00:00','2026-01-01 09:00:00','2026-02-01 12:00:00');
INSERT INTO vote_options (id, vote_id, \`option\`, voted) VALUES
 (1,1,'Ada',2),(2,1,'Bo',1),(3,2,'Yes',1),(4,2,'No',0),(5,3,'Alone',0),(6,4,'Up',0),(7,4,'Down',1);
-- A user Sector cannot take (an unknown rating): the count stays, the voter does not come over.
INSERT INTO users (id, email, first_name, last_name, rating, rating_short, rating_long, region, division, subdivision, last_login) VALUES
 (10000009,'zed@example.org','Zed','Odd',99,'XX','Unknown','EMEA','EUD','SCA','2026-10-01 12:00:00');
INSERT INTO user_vote (vote_id, user_id) VALUES (1,10000001),(1,10000002),(1,10000003),(2,10000004),(4,10000005),(2,10000009);
`;
const SWEATBOOKS: Record<'6.4.3' | '7.0', string> = {
  '6.4.3': `INSERT INTO sweatbooks (id, user_id, date, start_at, end_at, position_id, mentor_notes, created_at, updated_at) VALUES
 (1,10000002,'2027-03-01','10:00:00','12:00:00',1,'Radar practice','2026-11-01 08:00:00','2026-11-02 08:00:00'),
 (2,10000001,'2027-03-01','11:00:00','13:00:00',1,NULL,'2026-11-02 08:00:00','2026-11-02 08:00:00'),
 (3,10000003,'2027-03-02','10:00:00','10:05:00',3,NULL,'2026-11-02 08:00:00','2026-11-02 08:00:00'),
 (4,10000001,'2027-03-02','10:00:00','11:00:00',5,NULL,'2026-11-03 08:00:00','2026-11-03 08:00:00'),
 (5,10000004,'2027-03-03','23:00:00','01:00:00',3,NULL,'2026-11-03 08:00:00','2026-11-03 08:00:00');`,
  '7.0': `INSERT INTO sweatbooks (id, user_id, time_start, time_end, position_id, mentor_notes, created_at, updated_at) VALUES
 (1,10000002,'2027-03-01 10:00:00','2027-03-01 12:00:00',1,'Radar practice','2026-11-01 08:00:00','2026-11-02 08:00:00'),
 (2,10000001,'2027-03-01 11:00:00','2027-03-01 13:00:00',1,NULL,'2026-11-02 08:00:00','2026-11-02 08:00:00'),
 (3,10000003,'2027-03-02 10:00:00','2027-03-02 10:05:00',3,NULL,'2026-11-02 08:00:00','2026-11-02 08:00:00'),
 (4,10000001,'2027-03-02 10:00:00','2027-03-02 11:00:00',5,NULL,'2026-11-03 08:00:00','2026-11-03 08:00:00'),
 (5,10000004,'2027-03-03 23:00:00','2027-03-04 01:00:00',3,NULL,'2026-11-03 08:00:00','2026-11-03 08:00:00');`,
};

const controlCenterDatabase = (version: '6.4.3' | '7.0') => cc.create(version, [VOTES, SWEATBOOKS[version]].join('\n'));

afterAll(() => cc.dropAll());

const iso = (ms: number) => new Date(ms).toISOString();

describe.each(['6.4.3', '7.0'] as const)('import:controlcenter from Control Center %s: votes, sweatbooks, tiers', (version) => {
  it('moves votes with their counts and voters, sweatbox sessions and tiers; reports what it skipped; publishes nothing', async () => {
    const databaseUrl = freshDatabaseUrl();
    const r = await runCliAsync(['import:controlcenter', await controlCenterDatabase(version), '--json'], { DATABASE_URL: databaseUrl });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const { report } = JSON.parse(r.stdout);
    expect(report.votes).toMatchObject({ read: 4, imported: 3 });
    expect(report.votes.skipped).toEqual([{ row: 'vote 3', reason: 'options: must hold 2 to 10 options' }]);
    expect(report.votes.changed).toEqual(
      expect.arrayContaining([
        { row: 'vote 1', reason: 'its 3 voters recorded as voting on 2026-01-10 (Control Center keeps no time of a ballot)' },
        {
          row: 'vote 2',
          reason:
            'required ATC activity but not membership: Sector asks both; its 1 voter recorded as voting on 2026-11-01 (Control Center keeps no time of a ballot); 1 voter not imported (their user is not)',
        },
      ]),
    );
    expect(report.sweatbox).toMatchObject({ read: 5, imported: 3 });
    expect(report.sweatbox.skipped).toEqual([
      { row: 'sweatbook 3', reason: 'time_end: must be 15 minutes to 8 hours after time_start' },
      { row: 'sweatbook 2', reason: 'overlaps an earlier-made session of EKCH_TWR from 2027-03-01 10:00:00' },
    ]);
    if (version === '6.4.3')
      expect(report.sweatbox.changed).toEqual([{ row: 'sweatbook 5', reason: 'ends before it starts: the end taken as the next day' }]);
    expect(report.facility_tiers).toMatchObject({
      read: 3,
      imported: 2,
      skipped: [{ row: 'rating 10 T9 EKDK CTR', reason: 'endorsement_type T3 is not a tier (T1, T2)' }],
    });

    const moved = await readDatabase(databaseUrl, async (db) => ({
      votes: await db.selectFrom('votes').selectAll().orderBy('closes_at').execute(),
      options: await db
        .selectFrom('vote_options')
        .select(['vote_id', 'position', 'text', 'count'])
        .orderBy('vote_id')
        .orderBy('position')
        .execute(),
      voters: await db.selectFrom('vote_voters').selectAll().orderBy('vote_id').orderBy('user_id').execute(),
      sessions: await db
        .selectFrom('sweatbox_sessions as s')
        .innerJoin('positions as p', 'p.id', 's.position_id')
        .select(['p.callsign', 's.user_id', 's.time_start', 's.time_end', 's.notes', 's.created_at', 's.updated_at'])
        .orderBy('s.time_start')
        .execute(),
      facilities: await db.selectFrom('facilities').select(['name', 'tier']).orderBy('name').execute(),
    }));
    const byQuestion = new Map(moved.votes.map((v) => [v.question, v]));
    const board = byQuestion.get('Who chairs the board?')!;
    const logo = byQuestion.get('A new logo?')!;
    const past = byQuestion.get('Past, never marked closed')!;
    expect(board).toMatchObject({ eligibility: 'members', closed_at: board.closes_at, created_by: 0 });
    expect(iso(board.closes_at)).toBe('2026-01-20T18:00:00.000Z');
    expect(logo).toMatchObject({ eligibility: 'active', closed_at: null });
    // Past its time in Control Center but never marked closed: closed at its time, so no vote.closed is published for it.
    expect(past.closed_at).toBe(past.closes_at);
    expect(moved.options.filter((o) => o.vote_id === board.id)).toEqual([
      { vote_id: board.id, position: 1, text: 'Ada', count: 2 },
      { vote_id: board.id, position: 2, text: 'Bo', count: 1 },
    ]);
    // Who voted, with the day the vote was made (Control Center keeps no time of a ballot), and no option;
    // Zed, not moved, is not among the voters (the counts stay as Control Center has them).
    expect(moved.voters).toEqual([
      { vote_id: board.id, user_id: 10000001, voted_on: '2026-01-10' },
      { vote_id: board.id, user_id: 10000002, voted_on: '2026-01-10' },
      { vote_id: board.id, user_id: 10000003, voted_on: '2026-01-10' },
      { vote_id: logo.id, user_id: 10000004, voted_on: '2026-11-01' },
      { vote_id: past.id, user_id: 10000005, voted_on: '2026-01-01' },
    ]);
    expect(
      moved.sessions.map((s) => ({
        ...s,
        time_start: iso(s.time_start),
        time_end: iso(s.time_end),
        created_at: iso(s.created_at),
        updated_at: iso(s.updated_at),
      })),
    ).toEqual([
      {
        callsign: 'EKCH_TWR',
        user_id: 10000002,
        time_start: '2027-03-01T10:00:00.000Z',
        time_end: '2027-03-01T12:00:00.000Z',
        notes: 'Radar practice',
        created_at: '2026-11-01T08:00:00.000Z',
        updated_at: '2026-11-02T08:00:00.000Z',
      },
      // Control Center's second EKCH_GND (position 5) is the first one's.
      expect.objectContaining({ callsign: 'EKCH_GND', user_id: 10000001, time_start: '2027-03-02T10:00:00.000Z', notes: '' }),
      expect.objectContaining({ callsign: 'EKDK_CTR', time_start: '2027-03-03T23:00:00.000Z', time_end: '2027-03-04T01:00:00.000Z' }),
    ]);
    expect(moved.facilities).toEqual([
      { name: 'T1 EKCH TWR', tier: 'T1' },
      { name: 'T1 ENGM APP', tier: 'T2' },
    ]);
    expect((await tableRows(databaseUrl, ['events'])).events).toEqual([]);
  });
});
