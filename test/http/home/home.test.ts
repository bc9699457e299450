// The member's home, "My students" and names instead of numbers (contract §20) over HTTP on both
// databases, from one known division: a student with a completed training in Sweden and an open one
// in Denmark (a mentor, a draft and a published report, an examination ahead), a solo endorsement, a
// booking; a mentor, a Moderator, an examiner, and another student waiting in the queue.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../support/context.js';
import {
  buildBooking,
  buildDivision,
  buildEndorsement,
  buildPosition,
  buildRole,
  buildTraining,
  buildUser,
} from '../../support/factories.js';
import { csrfOf, postForm, SIGN_IN_ENV, signIn, type SignedIn } from '../../support/members.js';
import type { AuditActor } from '../../../src/core/domain/audit.js';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 5, 1, 12);
const STU = 1000040;
const MOD = 1000041;
const MEN = 1000042;
const EXA = 1000043;
const OLA = 1000044;
const NY = 1000045;
const people = {
  stu: buildUser({ id: STU, first_name: 'Sofie', last_name: 'Student', rating: 'S1', email: 'sofie@example.org' }),
  mod: buildUser({ id: MOD, first_name: 'Mona', last_name: 'Moderator', rating: 'C1' }),
  men: buildUser({ id: MEN, first_name: 'Mats', last_name: 'Mentor', rating: 'C1' }),
  exa: buildUser({ id: EXA, first_name: 'Erik', last_name: 'Examiner', rating: 'C3' }),
  ola: buildUser({ id: OLA, first_name: 'Ola', last_name: 'Waiting', rating: 'S1' }),
  ny: buildUser({ id: NY, first_name: 'Nils', last_name: 'Ny', rating: 'S1' }),
};
const member = (cid: number, name: string): AuditActor => ({ kind: 'member', cid, name });

describe('the member home, my students and names (contract §20)', () => {
  let ctx: TestContext;
  const session: Record<string, SignedIn> = {};
  const get = (url: string, who: string) => ctx.app.inject({ method: 'GET', url, headers: { cookie: session[who]!.cookie } });
  let openId = 0;
  let pastId = 0;
  let olaId = 0;

  beforeAll(async () => {
    ctx = await createTestContext({
      now: NOW - 60 * DAY,
      env: { ...SIGN_IN_ENV, ACTIVITY_HOURS: '10', SMTP_URL: 'smtp://127.0.0.1:9', MAIL_FROM: 'Sector <sector@example.org>' },
    });
    await ctx.load(
      buildDivision({
        areas: ['Denmark', 'Sweden'],
        users: Object.values(people),
        positions: [buildPosition('EKCH_DEL'), buildPosition('EKCH_TWR'), buildPosition('ESSA_TWR')],
        roles: [
          buildRole({ user_id: MOD, area: 'Denmark', role: 'Moderator' }),
          buildRole({ user_id: MOD, area: 'Sweden', role: 'Moderator' }),
          buildRole({ user_id: MEN, area: 'Denmark', role: 'Mentor' }),
        ],
        endorsements: [
          buildEndorsement({ user_id: EXA, type: 'examiner', rating: 'S3', areas: ['Denmark', 'Sweden'] }),
          buildEndorsement({ user_id: MOD, type: 'examiner', rating: 'S3', areas: ['Sweden'] }),
          buildEndorsement({ user_id: STU, type: 'solo', rating: null, positions: ['EKCH_TWR'], valid_to: '2026-06-10T00:00:00Z' }),
        ],
        trainings: [buildTraining({ user_id: OLA, area: 'Denmark', created_at: '2026-05-01T10:00:00Z' })],
        bookings: [buildBooking({ user_id: STU, callsign: 'EKCH_DEL' })],
      }),
    );
    const s = ctx.services;
    const mona = member(MOD, 'Mona Moderator');
    // The past training: Sweden, S2, a report and a passed examination, completed.
    pastId = (await s.trainings.create({ user_id: STU, area: 'Sweden', ratings: ['S2'], status: 2 }, mona)).id;
    await s.trainingRecords.addReport(pastId, { report_date: '2026-04-05', content: 'Swedish session went well.', draft: false }, mona);
    await s.trainingExaminations.add(
      pastId,
      { examination_date: '2026-04-10', position: 'ESSA_TWR', examiners: [EXA, MOD], result: 'PASSED' },
      mona,
    );
    ctx.setNow(NOW - 40 * DAY);
    await s.trainings.update(pastId, { status: -1 }, mona);
    // The open training: Denmark, in the queue, then active with a mentor.
    ctx.setNow(NOW - 30 * DAY);
    openId = (await s.trainings.create({ user_id: STU, area: 'Denmark', ratings: ['S2'], status: 0 }, mona)).id;
    ctx.setNow(NOW - 20 * DAY);
    await s.trainings.update(openId, { status: 2, mentors: [MEN] }, mona);
    const mats = member(MEN, 'Mats Mentor');
    await s.trainingRecords.addReport(openId, { report_date: '2026-05-20', content: 'Good radio work on EKCH_DEL.', draft: false }, mats);
    await s.trainingRecords.addReport(
      openId,
      { report_date: '2026-05-25', content: 'Draft notes, not for the student.', draft: true },
      mats,
    );
    await s.trainingExaminations.add(
      openId,
      { examination_date: '2026-06-20', position: 'EKCH_TWR', examiner_id: EXA, result: 'POSTPONED' },
      mona,
    );
    ctx.setNow(NOW);
    olaId = (await s.trainings.list({ user_id: OLA }))[0]!.id;
    for (const [who, u] of Object.entries(people)) session[who] = await signIn(ctx.app, ctx.services, u);
  }, 60_000);
  afterAll(() => ctx.close());

  it('is for signed-in members: signed out, /my sends to sign-in and back', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/my' });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/auth/login?next=%2Fmy');
  });

  it("shows the student's open training first, by name, with the next examination and published reports only", async () => {
    const res = await get('/my', 'stu');
    expect(res.statusCode).toBe(200);
    const body = res.body;
    expect(body).toContain('<a href="/my">My page</a>');
    const open = body.slice(body.indexOf('id="open-title"'), body.indexOf('id="bookings-title"'));
    expect(open).toContain('Your training: S2 in Denmark');
    expect(open).toContain('Active training');
    expect(open).toContain(`<dt>Mentors</dt><dd>Mats Mentor (${MEN})</dd>`);
    expect(open).toContain(`Next examination:</strong> 2026-06-20, EKCH_TWR, examiner Erik Examiner (${EXA})`);
    expect(open).toContain('Good radio work on EKCH_DEL.');
    expect(open).toContain(`by Mats Mentor (${MEN})`);
    expect(body).not.toContain('Draft notes');
    expect(body).not.toContain('Apply for training');
    // The sections in the order of the page: training, bookings, endorsements, hours, past; no
    // "examinations as examiner" for a member who examines nothing.
    const order = ['open-title', 'bookings-title', 'endorsements-title', 'hours-title', 'past-title'].map((id) =>
      body.indexOf(`id="${id}"`),
    );
    expect(order.every((at, i) => at > 0 && (i === 0 || at > order[i - 1]!))).toBe(true);
    expect(body).not.toContain('id="examining-title"');
    expect(body).not.toContain('id="attention-title"');
  });

  it('keeps the past training with its report, examination and what happens after completion', async () => {
    for (const url of ['/my', '/my/training']) {
      const body = (await get(url, 'stu')).body;
      const past = body.slice(body.indexOf('id="past-title"'));
      expect(past, url).toContain('S2 in Sweden: Completed');
      expect(past, url).toContain('Swedish session went well.');
      expect(past, url).toContain(
        `2026-04-10, ESSA_TWR, examiners Erik Examiner (${EXA}) and Mona Moderator (${MOD}): <strong>Passed</strong>`,
      );
      expect(past, url).toContain('The S2 rating itself is given by the network, not by this site');
    }
  });

  it('lists bookings, the solo with its end, ATC hours with the grace, and examinations as examiner', async () => {
    const body = (await get('/my', 'stu')).body;
    expect(body).toContain('<strong class="callsign">EKCH_DEL</strong>');
    expect(body).toContain('Solo on EKCH_TWR, until 2026-06-10 00:00 UTC');
    const hours = body.slice(body.indexOf('id="hours-title"'), body.indexOf('id="past-title"'));
    expect(hours).toContain('<strong>Sweden</strong>: 0.00 h of 10 h — active (grace period); grace until');
    const erik = (await get('/my', 'exa')).body;
    expect(erik).toContain('id="examining-title"');
    expect(erik).toContain(`2026-06-20, EKCH_TWR: Sofie Student (${STU}) (Denmark)`);
    expect(erik).toContain('Apply for training');
    // Nothing to show, no section: Erik has never trained here nor controlled this period.
    expect(erik).not.toContain('id="past-title"');
    expect(erik).not.toContain('id="hours-title"');
  });

  it('shows a waiting member their place, and staff what needs attention with only links they may open', async () => {
    const ola = (await get('/my', 'ola')).body;
    expect(ola).toContain('You are <strong>1st of 1</strong> in the queue for S2 in Denmark.');
    const mona = (await get('/my', 'mod')).body;
    expect(mona).toContain('id="attention-title"');
    expect(mona).toContain(`href="/staff/trainings/${olaId}"`);
    const mats = (await get('/my', 'men')).body;
    expect(mats).toContain('My students (1)');
    expect(mats).toContain(`Ola Waiting (${OLA}): Denmark, S2`);
    expect(mats).not.toContain(`href="/staff/trainings/${olaId}"`);
  });

  it('gives a mentor their own trainees on /staff/students and first on /staff, and no link that would end in 404', async () => {
    const res = await get('/staff/students', 'men');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(`<a href="/staff/trainings/${openId}">Sofie Student (${STU})</a>: Denmark, S2`);
    expect(res.body).toContain('Active training, 20 days in training');
    expect(res.body).toContain('Last report: 2026-05-25, 7 days ago. Next examination: 2026-06-20.');
    const overview = (await get('/staff', 'men')).body;
    expect(overview.indexOf('id="students-title"')).toBeGreaterThan(0);
    expect(overview.indexOf('id="students-title"')).toBeLessThan(overview.indexOf('id="you-title"'));
    for (const page of ['/staff', '/staff/trainings', '/staff/students', '/my']) {
      const links = [...(await get(page, 'men')).body.matchAll(/href="(\/staff\/trainings\/\d+)"/g)].map((m) => m[1]!);
      for (const link of new Set(links)) expect((await get(link, 'men')).statusCode, `${page} → ${link}`).toBe(200);
    }
    expect((await get('/staff/trainings', 'men')).body).not.toContain('Create a training');
    expect((await get('/staff/trainings', 'mod')).body).toContain('Create a training');
    expect((await get('/staff', 'mod')).body).not.toContain('id="students-title"');
  });

  it('orders trainees by the oldest last report first', async () => {
    await ctx.services.trainings.update(olaId, { status: 1, mentors: [MEN] }, member(MOD, 'Mona Moderator'));
    const body = (await get('/staff/students', 'men')).body;
    expect(body.indexOf(`Ola Waiting (${OLA})`)).toBeGreaterThan(0);
    expect(body.indexOf(`Ola Waiting (${OLA})`)).toBeLessThan(body.indexOf(`Sofie Student (${STU})`));
    expect(body).toContain('Last report: none yet.');
  });

  it('names people on the staff pages and speaks words in the timeline', async () => {
    const body = (await get(`/staff/trainings/${openId}`, 'mod')).body;
    expect(body).toContain(`Status changed from In queue to Active training by Mona Moderator (${MOD})`);
    expect(body).toContain(`Mentors changed from none to Mats Mentor (${MEN}) by Mona Moderator (${MOD})`);
    expect(body).toContain(`Draft report written by Mats Mentor (${MEN})`);
    expect(body).toContain(`Examination at EKCH_TWR recorded: postponed by Mona Moderator (${MOD})`);
    expect(body).not.toMatch(/status from|; to |report id|draft true/);
    const list = (await get('/staff/trainings', 'mod')).body;
    expect(list).toContain(`mentors Mats Mentor (${MEN})`);
    expect(list).not.toContain(`mentors ${MEN}`);
    const past = (await get(`/staff/trainings/${pastId}`, 'mod')).body;
    expect(past).toContain('the S2 rating is not changed by completing the training here');
    expect(past).toContain('Training created (Active training, for S2) by Mona Moderator');
    expect(past).toContain('Activity grace started in Sweden');
  });

  it('mails the student the mentor by name', async () => {
    const mails = await ctx.services.db.kysely
      .selectFrom('mail_outbox')
      .select(['to_address', 'text_body'])
      .where('to_address', '=', 'sofie@example.org')
      .execute();
    const mentor = mails.find((m) => m.text_body.includes('A mentor was assigned'));
    expect(mentor?.text_body).toContain(`A mentor was assigned: Mats Mentor (${MEN}).`);
    expect(mails.map((m) => m.text_body).join('\n')).not.toMatch(/CID \d/);
  });

  it('pre-selects the only choice on the apply form and writes the limits beside the motivation', async () => {
    const body = (await get('/training/apply', 'ny')).body;
    expect(body).toContain('<input type="checkbox" name="ratings" value="S2" checked> The S2 rating');
    expect(body).toContain('id="motivation-hint">Why you want to train: at least 50 and at most 1500 characters.');
    // Two areas to choose from: none is chosen for the member.
    expect(body).not.toMatch(/<option value="(Denmark|Sweden)" selected>/);
    // Sent back with an error, the form keeps what was sent (nothing ticked).
    const back = await postForm(
      ctx.app,
      '/training/apply',
      { _csrf: csrfOf(body), area: 'Denmark', motivation: 'short', experience: '1' },
      session.ny!.cookie,
    );
    expect(back.statusCode).toBe(422);
    expect(back.body).not.toContain('value="S2" checked');
    expect(back.body).toContain('<option value="Denmark" selected>');
  });
});
