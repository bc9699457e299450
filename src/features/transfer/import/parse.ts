// Shape validation of an import file (docs/import-format.md). Pure: no database access.
// Every error names the JSON path of the offending value.
import { parseBooking } from './bookings.js';
import { parseEndorsement } from './endorsements.js';
import { parseFacility } from './facilities.js';
import { parseFeedback } from './feedback.js';
import { parseTask } from './tasks.js';
import { arr, fail, obj, refuseDuplicates, text, withoutRepeats } from './fields.js';
import type { ImportPlan } from './plan.js';
import { parsePosition } from './positions.js';
import { pathKey } from './quote.js';
import { parseRole } from './roles.js';
import { parseTemplate } from './templates.js';
import { parseTraining } from './trainings.js';
import { parseUser } from './users.js';
import { parseSettings } from './settings.js';
import { parseSweatboxSession } from './sweatbox.js';
import { parseVote } from './votes.js';

const TOP_KEYS = [
  'areas',
  'users',
  'positions',
  'endorsements',
  'roles',
  'trainings',
  'bookings',
  'report_templates',
  'facilities',
  'tasks',
  'feedback',
  // Votes, sweatbox sessions and members' settings (contract §23, §24).
  'votes',
  'sweatbox',
  'settings',
];

export function parseImport(input: unknown): ImportPlan {
  const root = obj(input, '$');
  for (const k of Object.keys(root)) if (!TOP_KEYS.includes(k)) fail(pathKey(k), `unknown key; expected one of ${TOP_KEYS.join(', ')}`);

  // Listing an area twice says nothing new: the repeat is ignored.
  const areas = [...new Set(arr(root, 'areas').map((a, i) => text(a, `areas[${i}]`, 100, 'a non-empty area name')))];

  const users = arr(root, 'users').map((u, i) => parseUser(u, `users[${i}]`));
  refuseDuplicates(users, (u) => [u.id], 'id');

  const positions = arr(root, 'positions').map((p, i) => parsePosition(p, `positions[${i}]`));
  refuseDuplicates(positions, (p) => [p.callsign], 'callsign');

  const endorsements = arr(root, 'endorsements').map((e, i) => parseEndorsement(e, `endorsements[${i}]`));
  // masc is already facility here, and times are instants: the key the database compares.
  refuseDuplicates(endorsements, (e) => [e.user_id, e.type, e.valid_from], 'user_id, type and valid_from');

  // A role is nothing but its key: a repeat adds nothing and contradicts nothing, so it is ignored.
  const roles = withoutRepeats(
    arr(root, 'roles').map((r, i) => parseRole(r, `roles[${i}]`)),
    (r) => [r.user_id, r.area, r.role],
  );

  const trainings = arr(root, 'trainings').map((t, i) => parseTraining(t, `trainings[${i}]`));
  refuseDuplicates(trainings, (t) => [t.user_id, t.area, t.created_at], 'user_id, area and created_at');

  const bookings = arr(root, 'bookings').map((b, i) => parseBooking(b, `bookings[${i}]`));
  // Bookings without an id are always new rows; only given ids are keys.
  refuseDuplicates(bookings, (b) => (b.id === null ? null : [b.id]), 'id');

  const report_templates = arr(root, 'report_templates').map((t, i) => parseTemplate(t, `report_templates[${i}]`));
  refuseDuplicates(report_templates, (t) => [t.area, t.name], 'area and name');

  const facilities = arr(root, 'facilities').map((f, i) => parseFacility(f, `facilities[${i}]`));
  refuseDuplicates(facilities, (f) => [f.name], 'name');

  // Tasks (§21) and feedback (§23): by id when given; one without an id is always new.
  const tasks = arr(root, 'tasks').map((t, i) => parseTask(t, `tasks[${i}]`));
  refuseDuplicates(tasks, (t) => (t.id === null ? null : [t.id]), 'id');
  const feedback = arr(root, 'feedback').map((f, i) => parseFeedback(f, `feedback[${i}]`));
  refuseDuplicates(feedback, (f) => (f.id === null ? null : [f.id]), 'id');

  const community = {
    votes: arr(root, 'votes').map((v, i) => parseVote(v, `votes[${i}]`)),
    sweatbox: arr(root, 'sweatbox').map((s, i) => parseSweatboxSession(s, `sweatbox[${i}]`)),
    settings: arr(root, 'settings').map((s, i) => parseSettings(s, `settings[${i}]`)),
  };
  refuseDuplicates(community.votes, (v) => [v.question, v.closes_at], 'question and closes_at');
  refuseDuplicates(community.sweatbox, (s) => [s.callsign, s.time_start], 'callsign and time_start');
  refuseDuplicates(community.settings, (s) => [s.user_id], 'user_id');

  return { areas, users, positions, endorsements, roles, trainings, bookings, report_templates, facilities, tasks, feedback, ...community };
}
