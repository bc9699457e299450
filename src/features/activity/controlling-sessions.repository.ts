// Controlling sessions: recorded from the data feed (and the members' ATC history), read for who
// is online and for activity. Set-based: one upsert per few hundred sightings.
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../core/db/schema.js';
import { type Sighting, sessionKey, sightingStart } from './feed.domain.js';
import { chunks } from '../../core/db/chunks.js';

/** A session still seen in the feed: what it was sighted with, and when it was last seen. */
export type OpenSession = Sighting & { last_seen: number };

export interface HistorySession {
  cid: number;
  callsign: string;
  position: string;
  logon_time: number;
  ended_at: number;
}

/**
 * Records one poll of the feed: sessions seen continue or start (again, after a missed poll), and open
 * ones no longer shown end at their last sighting. Returns the cids whose sessions ended.
 */
async function recordPoll(trx: Kysely<Database>, sightings: readonly Sighting[], seenAt: number): Promise<number[]> {
  const skewed = await skewedStarts(trx, sightings);
  const rows = sightings.map((s) => ({
    ...s,
    logon_time: skewed.get(`${s.cid}|${s.callsign}|${s.logon_time}`) ?? sightingStart(s.logon_time, seenAt),
    feed_logon_time: s.logon_time,
  }));
  for (const part of chunks(rows)) {
    await trx
      .insertInto('atc_sessions')
      .values(part.map((s) => ({ ...s, last_seen: seenAt, ended_at: null, source: 'feed' })))
      .onConflict((oc) =>
        oc.columns(['cid', 'callsign', 'logon_time']).doUpdateSet({
          position: (eb) => eb.ref('excluded.position'),
          name: (eb) => eb.ref('excluded.name'),
          frequency: (eb) => eb.ref('excluded.frequency'),
          // A feed older than one already recorded (a stale cache) does not move a session back.
          last_seen: sql`CASE WHEN excluded.last_seen > atc_sessions.last_seen THEN excluded.last_seen ELSE atc_sessions.last_seen END`,
          ended_at: null,
        }),
      )
      .execute();
  }
  // A person erased on request (contract §24) keeps no name here until they sign in again.
  await trx
    .updateTable('atc_sessions')
    .set({ name: null })
    .where('ended_at', 'is', null)
    .where('last_seen', '=', seenAt)
    .where('name', 'is not', null)
    .where('cid', 'in', trx.selectFrom('users').select('id').where('erased_at', 'is not', null))
    .execute();
  const seen = new Set(rows.map(sessionKey));
  const open = await trx
    .selectFrom('atc_sessions')
    .select(['id', 'cid', 'callsign', 'logon_time', 'last_seen'])
    .where('ended_at', 'is', null)
    .where('source', '=', 'feed')
    .execute();
  const gone = open.filter((s) => !seen.has(sessionKey(s)) && s.last_seen < seenAt);
  for (const part of chunks(gone)) {
    await trx
      .updateTable('atc_sessions')
      .set({ ended_at: sql`last_seen` })
      .where(
        'id',
        'in',
        part.map((s) => s.id),
      )
      .execute();
  }
  return [...new Set(gone.map((s) => s.cid))];
}

/**
 * The starts of the feed's sessions that began at their first sighting, before the logon the
 * network gave them (its clock ahead), by `cid|callsign|feed logon`: the next polls continue them.
 */
async function skewedStarts(trx: Kysely<Database>, sightings: readonly Sighting[]): Promise<Map<string, number>> {
  const starts = new Map<string, number>();
  for (const part of chunks([...sightings])) {
    const rows = await trx
      .selectFrom('atc_sessions')
      .select(['cid', 'callsign', 'logon_time', 'feed_logon_time'])
      .where('source', '=', 'feed')
      .where('cid', 'in', [...new Set(part.map((s) => s.cid))])
      .where('feed_logon_time', 'in', [...new Set(part.map((s) => s.logon_time))])
      .whereRef('logon_time', '<', 'feed_logon_time')
      .execute();
    for (const r of rows) starts.set(`${r.cid}|${r.callsign}|${r.feed_logon_time}`, r.logon_time);
  }
  return starts;
}

/** Sessions still open (their controller was in the last feed read), seen at or after `since`, with the user's name when known. */
function openSessions(
  db: Kysely<Database>,
  since: number,
): Promise<Array<OpenSession & { first_name: string | null; last_name: string | null }>> {
  return db
    .selectFrom('atc_sessions as s')
    .leftJoin('users as u', 'u.id', 's.cid')
    .select(['s.cid', 's.callsign', 's.position', 's.name', 's.frequency', 's.logon_time', 's.last_seen', 'u.first_name', 'u.last_name'])
    .where('s.ended_at', 'is', null)
    .where('s.last_seen', '>=', since)
    .execute();
}

// Past sessions of one member; one overlapping a recorded session of the same callsign is the same
// one (the feed sees logons seconds apart from the history). Returns how many were added.
async function recordHistory(trx: Kysely<Database>, cid: number, sessions: readonly HistorySession[]): Promise<number> {
  if (sessions.length === 0) return 0;
  const known = await trx.selectFrom('atc_sessions').select(['callsign', 'logon_time', 'last_seen']).where('cid', '=', cid).execute();
  const fresh = sessions.filter(
    (s) => !known.some((k) => k.callsign === s.callsign && k.logon_time < s.ended_at && s.logon_time < k.last_seen),
  );
  let added = 0;
  for (const part of chunks(fresh)) {
    const r = await trx
      .insertInto('atc_sessions')
      .values(part.map((s) => ({ ...s, last_seen: s.ended_at, name: null, frequency: null, source: 'history' })))
      .onConflict((oc) => oc.columns(['cid', 'callsign', 'logon_time']).doNothing())
      .executeTakeFirst();
    added += Number(r.numInsertedOrUpdatedRows ?? 0);
  }
  return added;
}

export function controllingSessionsRepository(db: Kysely<Database>) {
  return {
    recordPoll: (sightings: readonly Sighting[], seenAt: number) => recordPoll(db, sightings, seenAt),
    recordHistory: (cid: number, sessions: readonly HistorySession[]) => recordHistory(db, cid, sessions),
    open: (since: number) => openSessions(db, since),
    /** How far each member's history backfill has come. */
    backfillProgress: () => db.selectFrom('activity_backfill').select(['cid', 'next_offset', 'done_at']).execute(),
    /** Reads a member's history again from the start. */
    async resetBackfill(cid: number): Promise<void> {
      await db.deleteFrom('activity_backfill').where('cid', '=', cid).execute();
    },
    async noteBackfill(cid: number, nextOffset: number, doneAt: number | null): Promise<void> {
      await db
        .insertInto('activity_backfill')
        .values({ cid, next_offset: nextOffset, done_at: doneAt })
        .onConflict((oc) => oc.column('cid').doUpdateSet({ next_offset: nextOffset, done_at: doneAt }))
        .execute();
    },
  };
}

export type ControllingSessionsRepository = ReturnType<typeof controllingSessionsRepository>;
