// web/src/analyzer — the SQL tab's DOM: examples, the query editor, Run, a status line, the
// chart and the virtualized result table (views/sql_view.ts). Static text only.
import { h } from '../ui/dom.js';
import { SQL_EXAMPLES } from './sql_examples.js';
import type { SqlTableParts } from '../views/sql_view.js';

export interface SqlParts extends SqlTableParts {
  examples: HTMLSelectElement;
  editor: HTMLTextAreaElement;
  run: HTMLButtonElement;
  status: HTMLElement;
  chart: HTMLCanvasElement;
}

export function sqlParts(): { box: HTMLElement; parts: SqlParts } {
  const examples = h('select', { attrs: { id: 'sql-examples', 'aria-label': 'Example queries' } },
    h('option', { text: 'Examples…', attrs: { value: '' } }),
    ...SQL_EXAMPLES.map((e, i) => h('option', { text: e.label, attrs: { value: String(i) } })));
  const editor = h('textarea', {
    attrs: { id: 'sql-query', rows: '6', spellcheck: 'false', 'aria-label': 'SQL query (Ctrl+Enter runs it)', placeholder: 'SELECT … FROM events' },
  });
  const run = h('button', { text: 'Run', attrs: { type: 'button', id: 'sql-run', title: 'Run the query (Ctrl+Enter)' } });
  const status = h('p', { class: 'sql-status muted', attrs: { id: 'sql-status', role: 'status' } });
  const chart = h('canvas', { class: 'sql-chart', attrs: { id: 'sql-chart', hidden: '', role: 'img', 'aria-label': 'Chart of the first two numeric columns' } });
  const head = h('div', { class: 'sql-head', attrs: { id: 'sql-head', role: 'row' } });
  const spacer = h('div', { class: 'vt-spacer' });
  const rows = h('div', { class: 'sql-rows', attrs: { id: 'sql-rows' } });
  const scroller = h('div', { class: 'sql-scroller', attrs: { id: 'sql-scroller', tabindex: '0', role: 'grid', 'aria-label': 'Query result' } }, head, spacer, rows);
  const tables = h('p', { class: 'muted', text: 'Tables: events, samples, thread_time, stacks, frames, gcs, jit, exceptions, contention, activities, counters, traces, with the columns the dataset command writes (DuckDB SQL).' });
  const box = h('div', { class: 'sql-box', attrs: { id: 'sql-box' } },
    h('div', { class: 'sql-form' }, examples, run), editor, tables, status, chart, scroller);
  return { box, parts: { examples, editor, run, status, chart, head, spacer, rows, scroller } };
}
