// The staff reports over HTTP (contract §25), on both databases, against a division whose answers are
// known by hand (test/support/report-division.ts): each figure through its CSV (the page's own tables),
// months with nothing and an area without trainings, a chart's bars against its table, the CSV's
// formula guard, and who may read which report.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../support/context.js';
import { SIGN_IN_ENV, signIn, type SignedIn } from '../../support/members.js';
import { ADMIN, MENTOR, MOD, PLAIN, STAFF_USERS } from '../../support/staff-division.js';
import { addReportFigures, BUDDY, buildReportDivision, REPORT_NOW, SWEDEN_MOD } from '../../support/report-division.js';
import { buildUser } from '../../support/factories.js';

/** RFC 4180 rows (quoted cells may hold commas and quotes). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted && c === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (c === '"') {
      quoted = !quoted;
    } else if (quoted || (c !== ',' && c !== '\r' && c !== '\n')) {
      cell += c;
    } else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    }
  }
  return rows;
}

/** The CSV's tables by caption prefix: the rows under the header. */
function csvTable(rows: string[][], caption: string): string[][] {
  const start = rows.findIndex((r) => r[0]!.startsWith(caption));
  expect(start, caption).toBeGreaterThanOrEqual(0);
  const end = rows.findIndex((r, i) => i > start && r.length === 1 && r[0] === '');
  return rows.slice(start + 2, end < 0 ? undefined : end);
}

const ZERO_MONTH = ['0', '0', '0', '0', '0', '0'];

describe('staff reports', () => {
  let ctx: TestContext;
  const as: Record<string, SignedIn> = {};
  const get = (who: string | null, url: string) =>
    ctx.app.inject({ method: 'GET', url, headers: who === null ? {} : { cookie: as[who]!.cookie } });
  const csv = async (who: string, url: string) => {
    const res = await get(who, url);
    expect(res.statusCode, url).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    return parseCsv(res.body);
  };

  beforeAll(async () => {
    ctx = await createTestContext({ now: REPORT_NOW, env: { ...SIGN_IN_ENV, ACTIVITY_GRACE_MONTHS: '12' } });
    await ctx.load(buildReportDivision());
    await addReportFigures(ctx.services.db.kysely);
    const users = [
      ...STAFF_USERS,
      buildUser({ id: BUDDY, first_name: 'Bente', last_name: 'Buddy' }),
      buildUser({ id: SWEDEN_MOD, first_name: '=Sven', last_name: 'Svensson' }),
    ];
    for (const [name, id] of Object.entries({ ADMIN, MOD, MENTOR, PLAIN, BUDDY, SWEDEN_MOD }))
      as[name] = await signIn(
        ctx.app,
        ctx.services,
        users.find((u) => u.id === id)!,
      );
  });
  afterAll(() => ctx.close());

  it('counts trainings per month, the queue with its median wait, statuses and the pass rate; Sweden has none', async () => {
    const rows = await csv('MOD', '/staff/reports/trainings?format=csv&area=Denmark');
    const monthly = csvTable(rows, 'Trainings per month');
    expect(monthly.map((r) => r[0])).toEqual([
      'Jul 2029',
      'Aug 2029',
      'Sep 2029',
      'Oct 2029',
      'Nov 2029',
      'Dec 2029',
      'Jan 2030',
      'Feb 2030',
      'Mar 2030',
      'Apr 2030',
      'May 2030',
      'Jun 2030',
    ]);
    const month = (m: string) => monthly.find((r) => r[0] === m)!.slice(1);
    // Applications, started, completed, closed by staff, by the student, by the system.
    expect(month('Mar 2030')).toEqual(['7', '1', '0', '0', '0', '0']);
    expect(month('Apr 2030')).toEqual(['0', '5', '0', '0', '0', '0']);
    expect(month('May 2030')).toEqual(['0', '0', '3', '1', '0', '0']);
    expect(month('Jun 2030')).toEqual(['0', '0', '0', '0', '1', '1']);
    for (const m of ['Jul 2029', 'Dec 2029', 'Feb 2030']) expect(month(m)).toEqual(ZERO_MONTH);
    expect(csvTable(rows, 'The queue now')).toEqual([
      ['Denmark', 'C1', '0', '1', '0'],
      ['Denmark', 'S3', '2', '5', '41'],
    ]);
    const statuses = Object.fromEntries(csvTable(rows, 'Trainings per status'));
    expect(statuses).toEqual({
      'Awaiting exam': '0',
      'Active training': '2',
      'Pre-training': '2',
      'In queue': '2',
      Completed: '3',
      'Closed by staff': '1',
      'Closed by student': '1',
      'Closed by system': '1',
    });
    expect(csvTable(rows, 'Examinations of the last 12 months')).toEqual([['S3', '2', '1', '66.7']]);

    const sweden = await csv('SWEDEN_MOD', '/staff/reports/trainings?format=csv');
    expect(csvTable(sweden, 'Trainings per month').every((r) => r.slice(1).join() === ZERO_MONTH.join())).toBe(true);
    expect(csvTable(sweden, 'The queue now')).toEqual([]);
    expect(csvTable(sweden, 'Examinations')).toEqual([]);
    const page = await get('SWEDEN_MOD', '/staff/reports/trainings');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Figures for <strong>Sweden</strong>');
    expect(page.body).toContain('Nothing to show.');
  });

  it('sums controlled hours per month (a session across a month’s end in both), members by activity, the top controllers', async () => {
    const rows = await csv('MOD', '/staff/reports/activity?format=csv');
    const hours = Object.fromEntries(csvTable(rows, 'Hours controlled per month'));
    expect(hours['May 2030']).toBe('12.5');
    expect(hours['Apr 2030']).toBe('2');
    expect(hours['Mar 2030']).toBe('0');
    expect(csvTable(rows, 'Members by ATC activity')).toEqual([['1', '1', '1']]);
    expect(csvTable(rows, 'The most active controllers')).toEqual([['1', 'Ada Lind (1000001)', '14.5']]);
    // A division-wide Administrator's total holds Sweden's 3 hours too.
    const total = await csv('ADMIN', '/staff/reports/activity?format=csv');
    expect(total[0]![0]).toContain('All areas (total)');
    expect(Object.fromEntries(csvTable(total, 'Hours controlled per month'))['May 2030']).toBe('15.5');
    expect(csvTable(total, 'The most active controllers')).toEqual([
      ['1', 'Ada Lind (1000001)', '14.5'],
      ['2', 'Bo Berg (1000002)', '3'],
    ]);
  });

  it('lists each mentor’s trainees, reports of 30 and 90 days, days since the last report and examinations', async () => {
    const rows = await csv('ADMIN', '/staff/reports/mentors?format=csv&area=Denmark');
    expect(csvTable(rows, 'Mentors')).toEqual([['Mette Mikkelsen (1000012)', '1', '1', '2', '10', '1']]);
    const page = await get('MOD', '/staff/reports/mentors');
    expect(page.body).toContain('<th scope="row">Mette Mikkelsen (1000012)</th><td>1</td><td>1</td><td>2</td><td>10</td><td>1</td>');
  });

  it('lists roles and active examiner and visiting endorsements; a CSV cell starting with = gets a quote', async () => {
    const rows = await csv('ADMIN', '/staff/reports/access?format=csv');
    const roles = csvTable(rows, 'Roles');
    expect(roles).toContainEqual(['Whole division', 'Administrator', 'Alma Andersen (1000010)']);
    expect(roles).toContainEqual(['Denmark', 'Moderator', 'Mona Madsen (1000011)']);
    expect(roles).toContainEqual(['Sweden', 'Moderator', "'=Sven Svensson (1000015)"]);
    const endorsements = csvTable(rows, 'Active examiner and visiting');
    expect(endorsements).toContainEqual(['Examiner', 'S3', 'Denmark', 'Alma Andersen (1000010)', 'no end']);
    expect(endorsements).toContainEqual(['Visiting', 'C1', 'Sweden', "'=Sven Svensson (1000015)", 'no end']);
    // A Moderator of Denmark sees Denmark's and the division's roles, not Sweden's.
    const mod = csvTable(await csv('MOD', '/staff/reports/access?format=csv'), 'Roles');
    expect(mod.some((r) => r[0] === 'Sweden')).toBe(false);
    expect(mod).toContainEqual(['Denmark', 'Buddy', 'Bente Buddy (1000014)']);
  });

  it('draws each bar with the number of its table cell, its height proportional to it', async () => {
    for (const [url, id] of [
      ['/staff/reports/trainings?area=Denmark', 'monthly'],
      ['/staff/reports/activity?area=Denmark', 'monthly'],
    ] as const) {
      const body = (await get('MOD', url)).body;
      const table = body.slice(body.indexOf(`id="${id}-table"`));
      const heads = [...table.slice(0, table.indexOf('</thead>')).matchAll(/<th scope="col">([^<]*)<\/th>/g)].map((m) => m[1]!);
      const cells = new Map<string, string>();
      for (const tr of table.slice(0, table.indexOf('</table>')).matchAll(/<tr><th scope="row">([^<]*)<\/th>(.*?)<\/tr>/g)) {
        [...tr[2]!.matchAll(/<td>([^<]*)<\/td>/g)].forEach((td, i) => cells.set(`${tr[1]}|${heads[i + 1]}`, td[1]!));
      }
      const bars = [
        ...body.matchAll(
          /<rect class="bar [^"]*"[^>]*height="([^"]*)" data-category="([^"]*)" data-series="([^"]*)" data-value="([^"]*)"><title>([^<]*)<\/title>/g,
        ),
      ];
      expect(bars.length, url).toBe(url.includes('trainings') ? 36 : 12);
      const perUnit: number[] = [];
      for (const [, height, category, series, value, title] of bars) {
        expect(cells.get(`${category}|${series}`), `${category} ${series}`).toBe(value);
        expect(title).toBe(`${category}, ${series}: ${value}`);
        if (Number(value) === 0) expect(Number(height)).toBe(0);
        else perUnit.push(Number(height) / Number(value));
      }
      // The same height per unit for every bar (its coordinates are written to 3 decimals).
      expect(perUnit.length, url).toBeGreaterThan(1);
      for (const r of perUnit) expect(r / perUnit[0]!, url).toBeCloseTo(1, 3);
      expect(body).toMatch(/<svg [^>]*role="img" aria-labelledby="[a-z-]+-title [a-z-]+-desc"/);
      expect(body).toContain('<text class="axis-label"');
      expect(body).not.toContain('<script');
    }
  });

  it('lets Moderators and Administrators read their areas only, and refuses Mentors, Buddies and members with the reason', async () => {
    const REPORTS = ['trainings', 'activity', 'mentors', 'access'];
    const cases: Array<[string | null, string, number, string?]> = [
      ['ADMIN', '', 200],
      ['ADMIN', '?area=Sweden', 200],
      ['MOD', '', 200],
      ['MOD', '?area=denmark', 200],
      ['MOD', '?area=Sweden', 403, 'read by its Administrators and Moderators'],
      ['MOD', '?area=Atlantis', 404],
      ['SWEDEN_MOD', '', 200],
      ['MENTOR', '', 403, 'you hold neither role anywhere'],
      ['BUDDY', '', 403, 'you hold neither role anywhere'],
      ['PLAIN', '', 403, 'The staff pages are for members holding a role'],
      [null, '', 303],
    ];
    for (const report of REPORTS) {
      for (const [who, query, status, reason] of cases) {
        const res = await get(who, `/staff/reports/${report}${query}`);
        expect(res.statusCode, `${who} ${report}${query}`).toBe(status);
        if (reason) expect(res.body).toContain(reason);
      }
    }
    expect((await get('MOD', '/staff/reports/trainings?format=pdf')).statusCode).toBe(400);
    // The links: only to what the viewer may open.
    const nav = async (who: string) => (await get(who, '/staff')).body;
    expect(await nav('ADMIN')).toContain('<a href="/staff/reports/trainings">Reports</a>');
    expect(await nav('ADMIN')).toContain('<a href="/staff/audit">Audit log</a>');
    expect(await nav('MOD')).toContain('<a href="/staff/reports/trainings">Reports</a>');
    expect(await nav('MOD')).not.toContain('/staff/audit');
    for (const who of ['MENTOR', 'BUDDY']) expect(await nav(who)).not.toContain('/staff/reports');
  });
});
