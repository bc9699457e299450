// The report pages (contract §25, docs/reports.md): the chart first, then its numbers as a table, the
// other figures as tables, links to the other reports, the areas the viewer may pick and the CSV.
import { empty, staffPage, type StaffFrame } from '../../roles/index.js';
import { type Html, html } from '../../../core/web/html.js';
import { hoursOf, monthLabel, type Table } from '../domain.js';
import type { AccessReport, ActivityReport, MentorsReport, ReportScope, TrainingsReport } from '../reports.types.js';
import { barChart } from './chart.js';
import { accessTables, activityTables, mentorsTables, trainingsTables } from './tables.js';

export type ReportsFrame = StaffFrame;

export type ReportName = 'trainings' | 'activity' | 'mentors' | 'access';
const TITLES: Record<ReportName, string> = { trainings: 'Trainings', activity: 'ATC activity', mentors: 'Mentors', access: 'Access' };

/** A table with its caption, row headings in the first column, scrolling sideways inside its own box on a phone. */
export function figuresTable(t: Table, id: string): Html {
  if (t.rows.length === 0)
    return html`<h2 id="${id}">${t.caption}</h2>
      ${empty('Nothing to show.')}`;
  // prettier-ignore
  return html`<h2 id="${id}">${t.caption}</h2><div class="figures-wrap" role="region" aria-labelledby="${id}" tabindex="0"><table class="figures" id="${id}-table">
<thead><tr>${t.columns.map((c) => html`<th scope="col">${c}</th>`)}</tr></thead>
<tbody>${t.rows.map((r) => html`<tr>${r.map((cell, i) => (i === 0 ? html`<th scope="row">${cell ?? '–'}</th>` : html`<td>${cell ?? '–'}</td>`))}</tr>`)}</tbody></table></div>`;
}

function header(report: ReportName, scope: ReportScope, f: ReportsFrame): Html {
  const q = (area: string) => (area === '' ? '' : `?area=${encodeURIComponent(area)}`);
  const csv = `/staff/reports/${report}?format=csv${scope.selected === '' ? '' : `&area=${encodeURIComponent(scope.selected)}`}`;
  const others = (Object.keys(TITLES) as ReportName[]).map((r) =>
    r === report
      ? html`<li><a href="/staff/reports/${r}${q(scope.selected)}" aria-current="page">${TITLES[r]}</a></li>`
      : html`<li><a href="/staff/reports/${r}${q(scope.selected)}">${TITLES[r]}</a></li>`,
  );
  const all = scope.choices.length > 1 ? [{ name: '', text: 'All my areas' }] : [];
  const choices = [...all, ...scope.choices.map((a) => ({ name: a.name, text: a.name }))];
  // prettier-ignore
  return html`<nav class="report-nav" aria-label="Reports"><ul>${others}${f.readsAudit ? html`<li><a href="/staff/audit">Audit log</a></li>` : ''}</ul></nav>
<p>Figures for <strong>${scope.label}</strong>.${report === 'access' ? '' : ' Months are calendar months in UTC; the period is the current month and the eleven before it.'}</p>
${choices.length > 1 ? html`<nav class="report-areas" aria-label="Areas"><ul>${choices.map((c) => html`<li><a href="/staff/reports/${report}${q(c.name)}"${c.name === scope.selected ? html` aria-current="page"` : ''}>${c.text}</a></li>`)}</ul></nav>` : ''}
<p><a href="${csv}" download>Download these figures as CSV</a></p>`;
}

const page = (f: ReportsFrame, report: ReportName, scope: ReportScope, body: Html) =>
  staffPage(f, `Reports: ${TITLES[report]}`, html`${header(report, scope, f)}${body}`);

export function trainingsPage(f: ReportsFrame, r: TrainingsReport): Buffer {
  const [monthly, ...rest] = trainingsTables(r);
  const chart = barChart({
    id: 'trainings-chart',
    title: `Applications, trainings started and completed per month, ${r.scope.label}`,
    xLabel: 'Month (UTC)',
    yLabel: 'Trainings',
    categories: r.monthly.map((m) => monthLabel(m.month)),
    series: [
      { name: 'Applications', values: r.monthly.map((m) => m.applications) },
      { name: 'Started', values: r.monthly.map((m) => m.started) },
      { name: 'Completed', values: r.monthly.map((m) => m.completed) },
    ],
  });
  return page(
    f,
    'trainings',
    r.scope,
    html`${chart}${figuresTable(monthly!, 'monthly')}${rest.map((t, i) => figuresTable(t, `t${i + 2}`))}`,
  );
}

export function activityPage(f: ReportsFrame, r: ActivityReport): Buffer {
  const [monthly, ...rest] = activityTables(r);
  const chart = barChart({
    id: 'activity-chart',
    title: `Hours controlled per month, ${r.scope.label}`,
    xLabel: 'Month (UTC)',
    yLabel: 'Hours',
    categories: r.monthly.map((m) => monthLabel(m.month)),
    series: [{ name: 'Hours', values: r.monthly.map((m) => hoursOf(m.ms)) }],
    trend: true,
  });
  return page(
    f,
    'activity',
    r.scope,
    html`${chart}${figuresTable(monthly!, 'monthly')}${rest.map((t, i) => figuresTable(t, `t${i + 2}`))}`,
  );
}

export function mentorsPage(f: ReportsFrame, r: MentorsReport): Buffer {
  // A table, not a chart: one row per person, read to find who has not written for weeks (longest first).
  const [table] = mentorsTables(r);
  return page(f, 'mentors', r.scope, figuresTable(table!, 'mentors'));
}

export function accessPage(f: ReportsFrame, r: AccessReport): Buffer {
  const [roles, endorsements] = accessTables(r);
  return page(f, 'access', r.scope, html`${figuresTable(roles!, 'roles')}${figuresTable(endorsements!, 'endorsements')}`);
}
