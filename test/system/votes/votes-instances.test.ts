// Votes over two server processes on one database (contract §23): 50 members voting at once, split
// across both instances, leave exactly 50 ballots and counts that add up; one member's two ballots
// sent at once, one to each instance, leave one (the database refuses the other: 409); a vote whose
// closing time has passed when both instances start is closed once, with one vote.closed event.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabaseUrl } from '../../support/context.js';
import { readDatabase } from '../../support/db-state.js';
import { buildDivision, buildUser } from '../../support/factories.js';
import { csrfOf, SIGN_IN_ENV, signInAllOnDatabase } from '../../support/members.js';
import { startServer, type ServerProcess } from '../../support/processes.js';
import { importData } from '../../support/seed.js';
import { openDatabase } from '../../../src/core/db/connection.js';

const DAY = 86_400_000;
const VOTERS = Array.from({ length: 50 }, (_, i) =>
  buildUser({ id: 1_200_001 + i, first_name: 'Vera', last_name: `Voter${i}`, rating: 'S2' }),
);

describe('votes over two instances', () => {
  const env = { DATABASE_URL: freshDatabaseUrl(), ...SIGN_IN_ENV };
  let servers: ServerProcess[] = [];
  let cookies: string[] = [];
  /** Vote id -> its option ids in order. */
  const votes: Record<'open' | 'twice' | 'past', { id: number; options: number[] }> = {
    open: { id: 0, options: [] },
    twice: { id: 0, options: [] },
    past: { id: 0, options: [] },
  };

  beforeAll(async () => {
    await importData(env, buildDivision({ users: VOTERS }));
    const db = openDatabase(env.DATABASE_URL);
    try {
      const now = Date.now();
      const add = async (question: string, closesAt: number, texts: string[]) => {
        const vote = await db.kysely
          .insertInto('votes')
          .values({
            question,
            eligibility: 'members',
            closes_at: closesAt,
            closed_at: null,
            created_by: VOTERS[0]!.id,
            created_at: now,
            updated_at: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        const options = await db.kysely
          .insertInto('vote_options')
          .values(texts.map((text, i) => ({ vote_id: vote.id, position: i + 1, text })))
          .returning('id')
          .execute();
        return { id: vote.id, options: options.map((o) => o.id).sort((a, b) => a - b) };
      };
      votes.open = await add('Who chairs the division?', now + 7 * DAY, ['Ada', 'Bo', 'Cy']);
      votes.twice = await add('Keep the Friday events?', now + 7 * DAY, ['Yes', 'No']);
      votes.past = await add('Which logo?', now - 60_000, ['Blue', 'Green']);
    } finally {
      await db.close();
    }
    cookies = await signInAllOnDatabase(env.DATABASE_URL, VOTERS);
    servers = await Promise.all([startServer(env), startServer(env)]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
  });

  /** Voter i's ballot for the option, through instance `on`: the vote's page for the form's token, then the form. */
  async function ballot(i: number, on: number, voteId: number, option: number): Promise<number> {
    const base = servers[on % 2]!.url;
    const headers = { cookie: `sector_session=${cookies[i]}` };
    const page = await fetch(`${base}/votes/${voteId}`, { headers });
    expect(page.status).toBe(200);
    const body = new URLSearchParams({ _csrf: csrfOf(await page.text()), option: String(option) });
    const sent = await fetch(`${base}/votes/${voteId}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
      body,
      redirect: 'manual',
    });
    await sent.arrayBuffer();
    return sent.status;
  }
  const figures = (voteId: number) =>
    readDatabase(env.DATABASE_URL, async (db) => ({
      voters: (await db.selectFrom('vote_voters').select('user_id').where('vote_id', '=', voteId).execute()).length,
      counts: (await db.selectFrom('vote_options').select('count').where('vote_id', '=', voteId).orderBy('id').execute()).map(
        (o) => o.count,
      ),
    }));

  it('counts 50 ballots sent at once over both instances, each once, the counts adding up', async () => {
    const statuses = await Promise.all(VOTERS.map((_, i) => ballot(i, i, votes.open.id, votes.open.options[i % 3]!)));
    expect(statuses.filter((s) => s === 303)).toHaveLength(50);
    expect(await figures(votes.open.id)).toEqual({ voters: 50, counts: [17, 17, 16] });
  });

  it("takes one of a member's two ballots sent at once, one to each instance; the other is 409", async () => {
    for (let i = 0; i < 5; i++) {
      const both = await Promise.all([0, 1].map((on) => ballot(i, on, votes.twice.id, votes.twice.options[on]!)));
      expect({ i, statuses: both.sort() }).toEqual({ i, statuses: [303, 409] });
    }
    const { voters, counts } = await figures(votes.twice.id);
    expect({ voters, ballots: counts.reduce((a, b) => a + b, 0) }).toEqual({ voters: 5, ballots: 5 });
  });

  it('closes a vote past its time once while both instances run, publishing vote.closed once', async () => {
    const closed = () =>
      readDatabase(env.DATABASE_URL, async (db) => ({
        closedAt: (await db.selectFrom('votes').select('closed_at').where('id', '=', votes.past.id).executeTakeFirstOrThrow()).closed_at,
        events: (await db.selectFrom('events').select('body').where('type', '=', 'vote.closed').execute()).filter(
          (e) => (JSON.parse(e.body) as { data: { vote: { id: number } } }).data.vote.id === votes.past.id,
        ).length,
      }));
    for (let waited = 0; (await closed()).closedAt === null; waited += 200) {
      if (waited > 40_000) throw new Error('the vote was not closed');
      await new Promise((r) => setTimeout(r, 200));
    }
    expect((await closed()).events).toBe(1);
    // Still one after both instances have had time for another run.
    await new Promise((r) => setTimeout(r, 1500));
    expect((await closed()).events).toBe(1);
  }, 60_000);
});
