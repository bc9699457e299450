// Who may book follows training (contract §14, §18): any open training of status 1 or above lets
// its student book the training's area, whatever the training's type — the two cases Control
// Center's users reported broken (its issues #1329 and #1453).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../support/context.js';
import { buildDivision, buildPosition, buildUser } from '../../support/factories.js';
import { csrfOf, postForm, SIGN_IN_ENV, signIn, type SignedIn } from '../../support/members.js';

const NOW = Date.UTC(2030, 2, 10, 12);
const FAST = 1000011;
const FAM = 1000012;
// Neither is ATC-active in Denmark: only the training can let them book there.
const fast = buildUser({ id: FAST, first_name: 'Fast', rating: 'S1', division: 'EUD', subdivision: 'SCA' });
const fam = buildUser({ id: FAM, first_name: 'Fam', rating: 'C1', division: 'EUD', subdivision: 'GER' });

describe('trainees book the area of their training, whatever its type', () => {
  let ctx: TestContext;
  let edit: string;
  const session: Record<number, SignedIn> = {};
  const book = async (cid: number, position: string, tag: string) => {
    const form = (await ctx.app.inject({ method: 'GET', url: '/bookings/new', headers: { cookie: session[cid]!.cookie } })).body;
    const fields = {
      _csrf: csrfOf(form),
      position,
      date: '2030-03-12',
      start_at: cid === FAST ? '10:00' : '14:00',
      end_at: cid === FAST ? '11:00' : '15:00',
      tag,
    };
    return postForm(ctx.app, '/bookings', fields, session[cid]!.cookie);
  };
  const training = (user_id: number, type: string, ratings: string[]) =>
    ctx.request({ method: 'POST', url: '/api/trainings', token: edit, payload: { user_id, area: 'Denmark', type, ratings, status: 2 } });

  beforeAll(async () => {
    ctx = await createTestContext({ now: NOW, env: { ...SIGN_IN_ENV, DIVISION: 'EUD', SUBDIVISIONS: 'SCA' } });
    await ctx.load(buildDivision({ users: [fast, fam], positions: [buildPosition('EKCH_APP'), buildPosition('EKCH_DEL')] }));
    edit = await ctx.key('edit');
    session[FAST] = await signIn(ctx.app, ctx.services, fast);
    session[FAM] = await signIn(ctx.app, ctx.services, fam);
  });
  afterAll(() => ctx.close());

  it('a fast-track student books a position of the training’s area up to the rating it trains for (Control Center #1329)', async () => {
    expect((await book(FAST, 'EKCH_APP', '1')).statusCode).toBe(403);
    expect((await training(FAST, 'Fast-track', ['S3'])).statusCode).toBe(201);
    const res = await book(FAST, 'EKCH_APP', '1');
    expect(res.statusCode).toBe(303);
    const made = await ctx.request({ method: 'GET', url: '/api/bookings?callsign=EKCH_APP', token: edit });
    expect(made.json()).toEqual([expect.objectContaining({ user_id: FAST, callsign: 'EKCH_APP', training: 1 })]);
  });

  it('a familiarisation student uses the training tag in the training’s area (Control Center #1453)', async () => {
    expect((await book(FAM, 'EKCH_DEL', '1')).statusCode).toBe(403);
    expect((await training(FAM, 'Familiarisation', ['C1'])).statusCode).toBe(201);
    const res = await book(FAM, 'EKCH_DEL', '1');
    expect(res.statusCode).toBe(303);
    const made = await ctx.request({ method: 'GET', url: '/api/bookings?callsign=EKCH_DEL', token: edit });
    expect(made.json()).toEqual([expect.objectContaining({ user_id: FAM, callsign: 'EKCH_DEL', training: 1 })]);
  });
});
