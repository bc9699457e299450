// The staff pages (contract §17, docs/staff.md): GET /staff, /staff/students (§20), /staff/users?q=, /staff/endorsements;
// the person page and its forms (./people.routes.ts); the positions page (../positions/staff.routes.ts). Pages, not
// API: responses are HTML, writes are forms with a CSRF token, and every change goes through the
// API's own services, so it is one write with its audit entry (actor member:<cid>) and events.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { isIssuedType } from '../endorsements/domain.js';
import { rolesIn, type StaffRole } from '../roles/domain.js';
import { sendPage } from '../../core/web/pages.js';
import { endorsementsPage } from '../endorsements/index.js';
import { overviewPage } from './views/overview.js';
import { searchPage } from './views/users.js';
import { staffEndorsementsPage, staffOverviewPage, staffSearchPage, staffStudentsPage } from './staff-pages.schema.js';
import { studentsPage } from './views/students.js';
import { ENDING_SOON_MS, SEARCH_LIMIT, type StaffView } from './staff.service.js';
import type { RouteServices } from '../../app/services.js';
import { frameOf, viewerOf } from '../roles/index.js';

/** What each role lets its holder do, in words (contract §17's table). */
const MAY: Record<StaffRole, string[]> = {
  Administrator: [
    'grant and revoke Moderator, Mentor and Buddy',
    "add, change and remove the area's positions",
    'issue, shorten and revoke every kind of endorsement',
    "manage trainings and book any of the area's positions",
  ],
  Moderator: ['grant and revoke Mentor and Buddy', 'issue, shorten and revoke every kind of endorsement', 'manage trainings'],
  Mentor: [
    'issue, shorten and revoke solo endorsements for your own trainees',
    "move your own trainees' trainings between statuses 1 and 3",
  ],
  Buddy: ["read and write the area's training reports"],
};

function rolesAndRights(view: StaffView): { roles: string[]; may: string[] } {
  const roles: string[] = view.member.divisionAdmin ? ['Administrator of the whole division'] : [];
  const may: string[] = view.member.divisionAdmin ? ['grant and revoke Administrator of any area, or of the whole division'] : [];
  for (const area of view.myAreas) {
    const held = [...(view.member.areaRoles.get(area.id) ?? [])].sort();
    if (held.length > 0) roles.push(`${held.join(', ')} in ${area.name}`);
    const top = (['Administrator', 'Moderator', 'Mentor', 'Buddy'] as const).find((r) => rolesIn(view.member, area.id).has(r));
    if (top) may.push(`in ${area.name}: ${MAY[top].join('; ')}`);
  }
  return { roles, may };
}

/** The staff overview, the search for people and the list of endorsements (in the staff scope, src/app/scopes/staff.ts). */
const staffRoutes: FastifyPluginAsyncTypebox<{ services: RouteServices }> = async (app, { services }) => {
  app.get('/staff', { schema: staffOverviewPage }, async (request, reply) => {
    const view = viewerOf(request);
    const overview = await services.staff.overview(view);
    return sendPage(reply, 200, overviewPage({ ...frameOf(request, services), ...rolesAndRights(view), overview }));
  });

  app.get('/staff/students', { schema: staffStudentsPage }, async (request, reply) => {
    const students = await services.staff.students(viewerOf(request));
    return sendPage(reply, 200, studentsPage({ ...frameOf(request, services), students }));
  });

  app.get('/staff/users', { schema: staffSearchPage }, async (request, reply) => {
    const q = request.query.q.slice(0, 100);
    const found = q === '' ? [] : await services.staff.search(q);
    return sendPage(reply, 200, searchPage({ ...frameOf(request, services), q, found, limit: SEARCH_LIMIT }));
  });

  app.get('/staff/endorsements', { schema: staffEndorsementsPage }, async (request, reply) => {
    const view = viewerOf(request);
    const type = request.query.type.toLowerCase();
    const areaName = request.query.area;
    const area = view.myAreas.find((a) => a.name.toLowerCase() === areaName.toLowerCase());
    const endorsements = await services.staff.activeEndorsements(view, {
      ...(isIssuedType(type) ? { type } : {}),
      ...(area ? { area: area.id } : {}),
    });
    return sendPage(
      reply,
      200,
      endorsementsPage({
        ...frameOf(request, services),
        type: isIssuedType(type) ? type : '',
        area: area?.name ?? '',
        areas: view.myAreas.map((a) => a.name),
        endorsements,
        now: services.staff.now(),
        soonMs: ENDING_SOON_MS,
      }),
    );
  });
};

export default staffRoutes;
