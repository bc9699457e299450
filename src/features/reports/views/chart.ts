// Bar charts drawn on the server as SVG (contract §25): no script, a title, labelled axes, each bar
// naming its value (<title>), and the same numbers in a table beside it (./report-pages.ts). The
// scales and the trend line come from d3-scale and d3-shape rather than hand-written geometry.
import { scaleBand, scaleLinear } from 'd3-scale';
import { line } from 'd3-shape';
import { type Html, html } from '../../../core/web/html.js';

export interface BarSeries {
  name: string;
  values: readonly number[];
}

export interface BarChart {
  /** Unique on the page: the ids of the chart's title and description. */
  id: string;
  title: string;
  xLabel: string;
  yLabel: string;
  categories: readonly string[];
  series: readonly BarSeries[];
  /** Also draw a line through the tops of a single series' bars (a trend to the eye; the bars hold the numbers). */
  trend?: boolean;
}

const WIDTH = 720;
const HEIGHT = 340;
const MARGIN = { top: 16, right: 16, bottom: 64, left: 64 };
/** Values at most 3 decimals, as the tables write them. */
const fmt = (v: number) => String(Math.round(v * 1000) / 1000);

/** An SVG bar chart of one or more series per category (grouped bars), with axes, ticks and a legend. */
export function barChart(c: BarChart): Html {
  const max = Math.max(0, ...c.series.flatMap((s) => s.values));
  const y = scaleLinear()
    .domain([0, max > 0 ? max : 1])
    .nice(5)
    .range([HEIGHT - MARGIN.bottom, MARGIN.top]);
  const x = scaleBand()
    .domain(c.categories.map(String))
    .range([MARGIN.left, WIDTH - MARGIN.right])
    .paddingInner(0.2)
    .paddingOuter(0.1);
  const inner = scaleBand<number>()
    .domain(c.series.map((_, i) => i))
    .range([0, x.bandwidth()])
    .padding(0.05);
  const base = y(0);
  const ticks = y.ticks(5);
  const bars = c.series.flatMap((s, si) =>
    c.categories.map((cat, ci) => {
      const v = s.values[ci] ?? 0;
      const top = y(v);
      const label = `${cat}, ${s.name}: ${fmt(v)}`;
      // prettier-ignore
      return html`<rect class="bar s${si}" x="${fmt(x(cat)! + inner(si)!)}" y="${fmt(top)}" width="${fmt(inner.bandwidth())}" height="${fmt(base - top)}" data-category="${cat}" data-series="${s.name}" data-value="${fmt(v)}"><title>${label}</title></rect>`;
    }),
  );
  const trendPath =
    c.trend && c.series.length === 1
      ? line<number>()
          .x((_, i) => x(c.categories[i]!)! + x.bandwidth() / 2)
          .y((v) => y(v))(c.series[0]!.values)
      : null;
  const step = c.categories.length > 8 ? 2 : 1;
  // prettier-ignore
  return html`<figure class="chart">
<svg viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="${c.id}-title ${c.id}-desc" preserveAspectRatio="xMidYMid meet">
<title id="${c.id}-title">${c.title}</title>
<desc id="${c.id}-desc">${c.yLabel} per ${c.xLabel.toLowerCase()}; the table below holds the same numbers.</desc>
<g class="grid">${ticks.map((t) => html`<line x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${fmt(y(t))}" y2="${fmt(y(t))}"></line>`)}</g>
<g class="axis y-axis">${ticks.map((t) => html`<text x="${MARGIN.left - 8}" y="${fmt(y(t))}" dy="0.32em" text-anchor="end">${fmt(t)}</text>`)}
<text class="axis-label" transform="translate(16 ${(HEIGHT - MARGIN.bottom + MARGIN.top) / 2}) rotate(-90)" text-anchor="middle">${c.yLabel}</text></g>
<g class="bars">${bars}</g>
${trendPath === null ? '' : html`<path class="trend" d="${trendPath}" aria-hidden="true"></path>`}
<g class="axis x-axis"><line x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${fmt(base)}" y2="${fmt(base)}"></line>
${c.categories.map((cat, i) => (i % step === (c.categories.length - 1) % step ? html`<text x="${fmt(x(cat)! + x.bandwidth() / 2)}" y="${fmt(base + 20)}" text-anchor="middle">${cat}</text>` : ''))}
<text class="axis-label" x="${(MARGIN.left + WIDTH - MARGIN.right) / 2}" y="${HEIGHT - 12}" text-anchor="middle">${c.xLabel}</text></g>
</svg>
${c.series.length > 1 ? html`<figcaption><ul class="legend">${c.series.map((s, i) => html`<li><span class="swatch s${i}" aria-hidden="true"></span>${s.name}</li>`)}</ul></figcaption>` : ''}
</figure>`;
}
