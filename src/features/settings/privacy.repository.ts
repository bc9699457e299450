// Everything Sector holds about one member (contract §24, GET /my/data): one statement per kind of
// row, each limited to the member's own rows, so nothing about anyone else is read.
import type { Kysely } from 'kysely';
import type { Database } from '../../core/db/schema.js';

export function privacyRepository(db: Kysely<Database>) {
  return {
    async memberData(cid: number) {
      const trainingIds = db.selectFrom('trainings').select('id').where('user_id', '=', cid);
      const [profile, look, choices, bookings, trainings, ratings, reports, examinations, endorsements, roles, sessions, activity] =
        await Promise.all([
          db
            .selectFrom('users')
            .select([
              'id',
              'first_name',
              'last_name',
              'email',
              'rating',
              'region',
              'division',
              'subdivision',
              'created_at',
              'updated_at',
              'last_login_at',
            ])
            .where('id', '=', cid)
            .executeTakeFirst(),
          db.selectFrom('member_settings').select(['look', 'updated_at']).where('user_id', '=', cid).executeTakeFirst(),
          db.selectFrom('mail_choices').select(['kind', 'enabled']).where('user_id', '=', cid).orderBy('kind').execute(),
          db
            .selectFrom('bookings as b')
            .innerJoin('positions as p', 'p.id', 'b.position_id')
            .select([
              'b.id',
              'p.callsign',
              'b.time_start',
              'b.time_end',
              'b.training',
              'b.event',
              'b.exam',
              'b.deleted',
              'b.created_at',
              'b.updated_at',
            ])
            .where('b.user_id', '=', cid)
            .orderBy('b.id')
            .execute(),
          db
            .selectFrom('trainings as t')
            .innerJoin('areas as a', 'a.id', 't.area_id')
            .select([
              't.id',
              'a.name as area',
              't.type',
              't.status',
              't.created_at',
              't.started_at',
              't.closed_at',
              't.closed_reason',
              't.motivation',
              't.experience',
              't.english_only',
            ])
            .where('t.user_id', '=', cid)
            .orderBy('t.id')
            .execute(),
          db.selectFrom('training_ratings').select(['training_id', 'rating']).where('training_id', 'in', trainingIds).execute(),
          db
            .selectFrom('training_reports')
            .select(['id', 'training_id', 'report_date', 'content', 'improve', 'position', 'created_at'])
            .where('training_id', 'in', trainingIds)
            .where('draft', '=', 0)
            .orderBy('id')
            .execute(),
          db
            .selectFrom('training_examinations')
            .select(['id', 'training_id', 'examination_date', 'position', 'start', 'result'])
            .where('training_id', 'in', trainingIds)
            .orderBy('id')
            .execute(),
          db
            .selectFrom('endorsements as e')
            .select(['e.id', 'e.type', 'e.rating', 'e.valid_from', 'e.valid_to', 'e.revoked', 'e.revoked_at', 'e.created_at'])
            .where('e.user_id', '=', cid)
            .orderBy('e.id')
            .execute(),
          db
            .selectFrom('roles as r')
            .leftJoin('areas as a', 'a.id', 'r.area_id')
            .select(['r.role', 'a.name as area'])
            .where('r.user_id', '=', cid)
            .execute(),
          db
            .selectFrom('atc_sessions')
            .select(['callsign', 'position', 'logon_time', 'last_seen', 'ended_at', 'source'])
            .where('cid', '=', cid)
            .orderBy('logon_time')
            .execute(),
          db
            .selectFrom('user_area_activity as ua')
            .innerJoin('areas as a', 'a.id', 'ua.area_id')
            .select(['a.name as area', 'ua.active', 'ua.granted_at'])
            .where('ua.user_id', '=', cid)
            .execute(),
        ]);
      const endorsementIds = db.selectFrom('endorsements').select('id').where('user_id', '=', cid);
      const [endorsementPositions, endorsementAreas] = await Promise.all([
        db
          .selectFrom('endorsement_positions as ep')
          .innerJoin('positions as p', 'p.id', 'ep.position_id')
          .select(['ep.endorsement_id', 'p.callsign'])
          .where('ep.endorsement_id', 'in', endorsementIds)
          .execute(),
        db
          .selectFrom('endorsement_areas as ea')
          .innerJoin('areas as a', 'a.id', 'ea.area_id')
          .select(['ea.endorsement_id', 'a.name'])
          .where('ea.endorsement_id', 'in', endorsementIds)
          .execute(),
      ]);
      const owned = [
        `user:${cid}`,
        ...bookings.map((b) => `booking:${b.id}`),
        ...endorsements.map((e) => `endorsement:${e.id}`),
        ...trainings.map((t) => `training:${t.id}`),
      ];
      const audit = await db
        .selectFrom('audit_log')
        .select(['at', 'action', 'target', 'before', 'after'])
        .where('target', 'in', owned)
        .orderBy('id')
        .execute();
      // What they wrote or took part in beyond their training: feedback sent (not staff's comments on
      // it), sweatbox sessions, the votes they voted in (the day; the option is stored nowhere),
      // tasks about them (not the staff's messages) and the notifications they were sent.
      const [feedback, sweatbox, votes, tasks, notices] = await Promise.all([
        db
          .selectFrom('feedback as f')
          .leftJoin('positions as p', 'p.id', 'f.position_id')
          .select(['f.id', 'f.controller', 'p.callsign as position', 'f.text', 'f.created_at'])
          .where('f.sender_id', '=', cid)
          .orderBy('f.id')
          .execute(),
        db
          .selectFrom('sweatbox_sessions as s')
          .innerJoin('positions as p', 'p.id', 's.position_id')
          .select(['s.id', 'p.callsign', 's.time_start', 's.time_end', 's.notes', 's.created_at'])
          .where('s.user_id', '=', cid)
          .orderBy('s.id')
          .execute(),
        db
          .selectFrom('vote_voters as v')
          .innerJoin('votes', 'votes.id', 'v.vote_id')
          .select(['v.vote_id', 'votes.question', 'v.voted_on'])
          .where('v.user_id', '=', cid)
          .orderBy('v.vote_id')
          .execute(),
        db
          .selectFrom('tasks')
          .select(['id', 'type', 'status', 'rating', 'created_at', 'closed_at'])
          .where('subject_user_id', '=', cid)
          .orderBy('id')
          .execute(),
        db.selectFrom('notices_sent').select(['key', 'sent_at']).where('user_id', '=', cid).orderBy('sent_at').execute(),
      ]);
      return {
        feedback,
        sweatbox,
        votes,
        tasks,
        notices,
        profile,
        look,
        choices,
        bookings,
        trainings,
        ratings,
        reports,
        examinations,
        endorsements,
        endorsementPositions,
        endorsementAreas,
        roles,
        sessions,
        activity,
        audit,
      };
    },
  };
}

export type MemberData = Awaited<ReturnType<ReturnType<typeof privacyRepository>['memberData']>>;
