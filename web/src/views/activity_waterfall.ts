// web/src/views — the Diagnostics tab's activity waterfall: the first activities (in start
// order) as bars on one time axis, each row labelled with its name, indented by nesting, and
// its duration; the axis's ticks are the trace's times in ms or s (time_axis.ts), as the
// event table and the timeline show them. Rows are HTML (a label cell and a track with the
// bar placed by percentage), so the text stays crisp at any width. Names are text only.
import type { ActivitiesView } from '../api/event_views.js';
import { h } from '../ui/dom.js';
import { formatDurationMs } from '../ui/units.js';
import { chooseTicks, formatTick } from './time_axis.js';

/** Rows drawn at most (the table above has every name's percentiles). */
export const WATERFALL_ROWS = 200;

type Activity = ActivitiesView['activities'][number];

/** An unfinished activity is drawn to the end of the axis, its duration unknown. */
const endOf = (a: Activity, axisEnd: number): number => (a.durationMs === null ? axisEnd : a.startMs + a.durationMs);

/** The waterfall of `v`'s first activities, or null when it has none. */
export function activityWaterfall(v: ActivitiesView): HTMLElement | null {
  const rows = v.activities.slice(0, WATERFALL_ROWS);
  if (rows.length === 0) return null;
  const from = Math.min(...rows.map((a) => a.startMs));
  const lastEnd = Math.max(...rows.map((a) => a.startMs + (a.durationMs ?? 0)));
  const to = lastEnd > from ? lastEnd : from + 1;
  const share = (ms: number): string => `${((ms / (to - from)) * 100).toFixed(3)}%`;
  const x = (ms: number): string => share(ms - from);

  const axis = h('div', { class: 'wf-axis', attrs: { 'aria-hidden': 'true' } });
  const { ticksMs, stepMs } = chooseTicks({ fromMs: from, toMs: to }, 6);
  for (const t of ticksMs) {
    const tick = h('span', { class: 'wf-tick', text: formatTick(t, stepMs) });
    tick.style.left = x(t);
    axis.append(tick);
  }
  const head = h('div', { class: 'wf-row wf-head' }, h('span', { class: 'wf-name', text: 'Activity' }), h('span', { class: 'wf-duration', text: 'Duration' }), axis);

  const body = rows.map((a) => {
    const duration = a.durationMs === null ? 'unfinished' : formatDurationMs(a.durationMs);
    const about = `${a.provider}/${a.name}: ${duration}, from ${a.startMs.toFixed(3)} ms (thread ${a.startThread})`;
    const name = h('span', { class: 'wf-name', text: a.name, attrs: { title: about } });
    name.style.paddingLeft = `${0.2 + Math.min(a.depth, 8) * 0.8}rem`;
    const bar = h('span', { class: `wf-bar depth-${Math.min(a.depth, 5)}${a.durationMs === null ? ' unfinished' : ''}`, attrs: { title: about } });
    bar.style.left = x(a.startMs);
    bar.style.width = `max(2px, ${share(endOf(a, to) - a.startMs)})`;
    return h('div', { class: 'wf-row', attrs: { role: 'row' } }, name, h('span', { class: 'wf-duration', text: duration }), h('span', { class: 'wf-track' }, bar));
  });
  const shown = rows.length < v.activities.length ? ` (the first ${rows.length} of ${v.activities.length})` : '';
  return h(
    'figure',
    { class: 'waterfall', attrs: { role: 'table', 'aria-label': `Activities over time${shown}` } },
    h('figcaption', { text: `Activities over time${shown}, nested ones indented` }),
    head,
    ...body,
  );
}
