// web/src/ui — a small table sortable by column (click or Enter on a header). For the
// summary's tables (hundreds of rows at most); the event table is virtualized instead.
import { h } from './dom.js';

export interface Column<Row> {
  label: string;
  /** The cell text. */
  text: (row: Row) => string;
  /** Sort key; numbers sort descending first, strings ascending. */
  key: (row: Row) => number | string;
  numeric?: boolean;
  /** The header's tooltip (what the column counts). */
  title?: string;
  /** Cell content other than text (e.g. a button); `text` still names it for sorting. */
  cell?: (row: Row) => Node | null;
}

export interface SortableTableOptions<Row> {
  caption: string;
  columns: Column<Row>[];
  rows: Row[];
  /** Initial sort column and direction. */
  sortBy?: number;
  descending?: boolean;
  /** Called on click or Enter on a row; rows become focusable when set. */
  onActivate?: (row: Row) => void;
  rowClass?: (row: Row) => string;
  rowTitle?: string;
}

export function sortableTable<Row>(options: SortableTableOptions<Row>): HTMLTableElement {
  const { columns, rows } = options;
  let sortBy = options.sortBy ?? 0;
  let descending = options.descending ?? false;
  const table = h('table', { class: 'data' });
  table.append(h('caption', { text: options.caption }));
  const headRow = h('tr');
  const body = h('tbody');
  const headers = columns.map((column, i) => {
    const th = h('th', {
      text: column.label,
      class: column.numeric === true ? 'num' : '',
      attrs: { scope: 'col', tabindex: '0', ...(column.title === undefined ? {} : { title: column.title }) },
    });
    const activate = (): void => {
      if (sortBy === i) descending = !descending;
      else {
        sortBy = i;
        descending = column.numeric === true;
      }
      render();
    };
    th.addEventListener('click', activate);
    th.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        activate();
      }
    });
    headRow.append(th);
    return th;
  });
  table.append(h('thead', {}, headRow), body);

  function render(): void {
    headers.forEach((th, i) => th.setAttribute('aria-sort', i === sortBy ? (descending ? 'descending' : 'ascending') : 'none'));
    const key = columns[sortBy]!.key;
    const sorted = [...rows].sort((a, b) => {
      const ka = key(a);
      const kb = key(b);
      const order = ka < kb ? -1 : ka > kb ? 1 : 0;
      return descending ? -order : order;
    });
    body.replaceChildren(
      ...sorted.map((row) => {
        const tr = h('tr', { class: options.rowClass?.(row) ?? '' });
        for (const column of columns) {
          const content = column.cell?.(row);
          const td = h('td', { class: column.numeric === true ? 'num' : '' });
          if (content === undefined) td.textContent = column.text(row);
          else if (content !== null) td.append(content);
          tr.append(td);
        }
        const onActivate = options.onActivate;
        if (onActivate !== undefined) {
          tr.tabIndex = 0;
          tr.classList.add('clickable');
          if (options.rowTitle !== undefined) tr.title = options.rowTitle;
          tr.addEventListener('click', () => onActivate(row));
          tr.addEventListener('keydown', (e) => {
            if (e.key === 'Enter') onActivate(row);
          });
        }
        return tr;
      }),
    );
  }
  render();
  return table;
}
