// The staff reports (contract §25, docs/reports.md): GET /staff/reports/{trainings,activity,mentors,access}
// as a page or, with ?format=csv, the same tables as CSV; GET /staff/audit, the audit log. In the staff
// scope (signed in and holding a role); which areas and whether at all is the service's authorize().
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendMessage, sendPage } from '../../core/web/pages.js';
import { parseIsoInstant } from '../../core/domain/time.js';
import { actorFilter, type AuditFilter, type StoredAuditEntry } from '../audit/index.js';
import { bookingTarget } from '../audit/domain/index.js';
import { frameOf, respondToRefusal, viewerOf } from '../roles/index.js';
import { authorize } from '../roles/domain.js';
import type { StaffView } from '../roles/index.js';
import { csvOf, type Table } from './domain.js';
import { auditPage as auditPageSchema, reportPage } from './reports.schema.js';
import { AUDIT_PAGE } from './reports.service.js';
import { auditPage, type AuditQuery } from './views/audit-page.js';
import { accessPage, activityPage, mentorsPage, type ReportName, trainingsPage } from './views/report-pages.js';
import { accessTables, activityTables, mentorsTables, trainingsTables } from './views/tables.js';
import type { RouteServices } from '../../app/services.js';

const DAY_MS = 86_400_000;
/** The audit page goes no deeper than this: a filter narrows further. */
const MAX_PAGE = 10_000;

function sendCsv(reply: FastifyReply, name: string, tables: Table[]): FastifyReply {
  const day = new Date().toISOString().slice(0, 10);
  return reply
    .code(200)
    .header('content-disposition', `attachment; filename="sector-${name}-${day}.csv"`)
    .type('text/csv; charset=utf-8')
    .send(csvOf(tables));
}

/** The audit page's filter read from its query: the filter, or the message per field that could not be read. */
function auditFilterOf(q: AuditQuery): { filter: AuditFilter; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const filter: AuditFilter = {};
  if (q.booking !== '') {
    if (/^\d{1,10}$/.test(q.booking) && Number(q.booking) >= 1 && Number(q.booking) <= 2_147_483_647)
      filter.target = bookingTarget(Number(q.booking));
    else errors.booking = 'Give a booking id, a whole number from 1.';
  }
  if (q.actor !== '') {
    const actor = actorFilter(q.actor);
    if (actor === null) errors.actor = 'Give a CID, key:<id>, cli, roster or system.';
    else filter.actor = actor;
  }
  const day = (text: string) => (/^\d{4}-\d{2}-\d{2}$/.test(text) ? parseIsoInstant(`${text}T00:00:00Z`) : null);
  if (q.from !== '') {
    const ms = day(q.from);
    if (ms === null) errors.from = 'Give a day as YYYY-MM-DD.';
    else filter.since = ms;
  }
  if (q.to !== '') {
    const ms = day(q.to);
    if (ms === null) errors.to = 'Give a day as YYYY-MM-DD.';
    else filter.until = ms + DAY_MS;
  }
  if (filter.since !== undefined && filter.until !== undefined && filter.until <= filter.since)
    errors.to = 'The last day is before the first.';
  return { filter, errors };
}

const reportsRoutes: FastifyPluginAsyncTypebox<{ services: RouteServices }> = async (app, { services }) => {
  const report = (
    name: ReportName,
    read: (view: StaffView, area: string) => Promise<unknown>,
    render: (request: FastifyRequest, reply: FastifyReply, figures: never, csv: boolean) => FastifyReply,
  ) =>
    app.get(`/staff/reports/${name}`, { schema: reportPage }, async (request, reply) => {
      const { area, format } = request.query;
      if (format !== '' && format !== 'csv' && format !== 'html') {
        return sendMessage(request, reply, 400, {
          title: 'No such format',
          message: 'The reports come as a page, or as CSV with ?format=csv.',
        });
      }
      let figures: unknown;
      try {
        figures = await read(viewerOf(request), area);
      } catch (err) {
        return await respondToRefusal(request, reply, err, 'area');
      }
      return render(request, reply, figures as never, format === 'csv');
    });

  const frame = (request: FastifyRequest) => frameOf(request, services);
  report(
    'trainings',
    (v, a) => services.reports.trainings(v, a),
    (req, reply, r: Awaited<ReturnType<typeof services.reports.trainings>>, csv) =>
      csv ? sendCsv(reply, 'trainings', trainingsTables(r)) : sendPage(reply, 200, trainingsPage(frame(req), r)),
  );
  report(
    'activity',
    (v, a) => services.reports.activity(v, a),
    (req, reply, r: Awaited<ReturnType<typeof services.reports.activity>>, csv) =>
      csv ? sendCsv(reply, 'activity', activityTables(r)) : sendPage(reply, 200, activityPage(frame(req), r)),
  );
  report(
    'mentors',
    (v, a) => services.reports.mentors(v, a),
    (req, reply, r: Awaited<ReturnType<typeof services.reports.mentors>>, csv) =>
      csv ? sendCsv(reply, 'mentors', mentorsTables(r)) : sendPage(reply, 200, mentorsPage(frame(req), r)),
  );
  report(
    'access',
    (v, a) => services.reports.access(v, a),
    (req, reply, r: Awaited<ReturnType<typeof services.reports.access>>, csv) =>
      csv ? sendCsv(reply, 'access', accessTables(r)) : sendPage(reply, 200, accessPage(frame(req), r)),
  );

  app.get('/staff/audit', { schema: auditPageSchema }, async (request, reply) => {
    const { page: pageText, ...query } = request.query;
    const { filter, errors } = auditFilterOf(query);
    const page = pageText === '' ? 1 : /^\d{1,5}$/.test(pageText) ? Number(pageText) : 0;
    if (page < 1 || page > MAX_PAGE)
      return sendMessage(request, reply, 404, { title: 'No such page', message: 'There is no such page of the audit log.' });
    const view = viewerOf(request);
    let found: { entries: StoredAuditEntry[]; more: boolean } | null = null;
    try {
      // The permission first: a refused viewer learns nothing from a filter's messages.
      authorize(view.member, 'audit', {});
      if (Object.keys(errors).length === 0) found = await services.reports.audit(view, filter, page);
    } catch (err) {
      return await respondToRefusal(request, reply, err, 'page');
    }
    const body = auditPage({
      ...frame(request),
      query,
      errors,
      entries: found?.entries ?? [],
      more: found?.more ?? false,
      page,
      perPage: AUDIT_PAGE,
    });
    return sendPage(reply, found === null ? 422 : 200, body);
  });
};

export default reportsRoutes;
