// Each report's figures as tables (contract §25): the pages show them beside their charts, and
// `?format=csv` writes the very same tables, so the two cannot disagree.
import { trainingStatusDescription } from '../../members/domain/training-status.js';
import { hoursOf, monthLabel, type Table } from '../domain.js';
import type { AccessReport, ActivityReport, MentorsReport, TrainingsReport } from '../reports.types.js';

const who = (cid: number, name: string | null | undefined) => (name ? `${name} (${cid})` : `CID ${cid}`);
const utcDay = (ms: number | null) => (ms === null ? 'no end' : `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`);

export function trainingsTables(r: TrainingsReport): Table[] {
  return [
    {
      caption: `Trainings per month (UTC), ${r.scope.label}`,
      columns: ['Month', 'Applications', 'Started', 'Completed', 'Closed by staff', 'Closed by student', 'Closed by system'],
      rows: r.monthly.map((m) => [
        monthLabel(m.month),
        m.applications,
        m.started,
        m.completed,
        m.closedStaff,
        m.closedStudent,
        m.closedSystem,
      ]),
    },
    {
      caption: 'The queue now, with the median wait of the trainings that left it in the last 12 months',
      columns: ['Area', 'Training for', 'Waiting now', 'Left the queue (12 months)', 'Median wait (days)'],
      rows: r.queue.map((q) => [q.area, q.rating, q.waiting, q.left, q.medianWaitDays]),
    },
    {
      caption: 'Trainings per status now',
      columns: ['Status', 'Trainings'],
      rows: r.statuses.map((s) => [trainingStatusDescription(s.status), s.count]),
    },
    {
      caption: 'Examinations of the last 12 months: pass rate = passed / (passed + failed)',
      columns: ['Training for', 'Passed', 'Failed', 'Pass rate (%)'],
      rows: r.passRates.map((p) => [p.rating, p.passed, p.failed, p.rate]),
    },
  ];
}

export function activityTables(r: ActivityReport): Table[] {
  return [
    {
      caption: `Hours controlled per month (UTC), ${r.scope.label}`,
      columns: ['Month', 'Hours'],
      rows: r.monthly.map((m) => [monthLabel(m.month), hoursOf(m.ms)]),
    },
    {
      caption: 'Members by ATC activity now',
      columns: ['Active', 'In grace', 'Inactive'],
      rows: [[r.members.active, r.members.grace, r.members.inactive]],
    },
    {
      caption: `The ${r.top.length === 20 ? '20 ' : ''}most active controllers of the last 12 months`,
      columns: ['Place', 'Controller', 'Hours'],
      rows: r.top.map((t, i) => [i + 1, who(t.cid, t.name), hoursOf(t.ms)]),
    },
  ];
}

export function mentorsTables(r: MentorsReport): Table[] {
  return [
    {
      caption: `Mentors, ${r.scope.label}`,
      columns: [
        'Mentor',
        'Trainees now',
        'Reports, last 30 days',
        'Reports, last 90 days',
        'Days since the last report',
        'Examinations as examiner (12 months)',
      ],
      rows: r.mentors.map((m) => [who(m.cid, m.name), m.trainees, m.reports30, m.reports90, m.daysSinceLast ?? 'never', m.examinations]),
    },
  ];
}

export function accessTables(r: AccessReport): Table[] {
  return [
    {
      caption: `Roles, ${r.scope.label}`,
      columns: ['Area', 'Role', 'Held by'],
      rows: r.roles.map((x) => [x.area ?? 'Whole division', x.role, who(x.user_id, r.names.get(x.user_id))]),
    },
    {
      caption: 'Active examiner and visiting endorsements',
      columns: ['Type', 'Rating', 'Areas', 'Held by', 'Valid until'],
      rows: r.endorsements.map((e) => [
        e.type === 'examiner' ? 'Examiner' : 'Visiting',
        e.rating ?? '',
        e.areas.join(', '),
        who(e.user_id, r.names.get(e.user_id)),
        utcDay(e.valid_to),
      ]),
    },
  ];
}
