// web/src/ui — a small table sortable by column (click or Enter on a header). For the
// summary's tables (hundreds of rows at most); the event table is virtualized instead.
// Its columns are sized from their text (table-layout: fixed): numbers and short texts get
// the width of their longest cell, the long texts (type and method names, messages) share
// what is left and end in an ellipsis, with the whole text on hover. So a long name never
// pushes the numbers out of view, and never wraps a few characters a line.
import { h } from './dom.js';

/** Texts up to this many characters keep their whole width; longer ones may be truncated. */
const SHORT_TEXT = 16;

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
  /** The column's width (a CSS length) where its text does not tell it: a cell with a button or a chart. */
  width?: string;
  /** Left out where the analyzer is narrow (analyzer.css `.optional`): details a wide table
   *  can drop so that its other numbers stay in view. */
  optional?: boolean;
}

const cellClass = <Row>(column: Column<Row>): string =>
  [column.numeric === true ? 'num' : '', column.optional === true ? 'optional' : ''].join(' ').trim();

/** A text's width in ch (the width of "0"): digits and letters about one, the rest (spaces,
 *  punctuation) about half. */
function textWidth(text: string): number {
  let width = 0;
  for (const c of text) width += /[\p{L}\p{N}%]/u.test(c) ? 1 : 0.55;
  return Math.ceil(width);
}

/**
 * The width of each column (a CSS length), or null for a column of long texts that shares
 * the room left. Header labels may wrap between words: their longest word counts.
 */
function columnWidths<Row>(columns: Column<Row>[], rows: Row[]): (string | null)[] {
  return columns.map((column) => {
    if (column.width !== undefined) return column.width;
    // Bold header text is ~10% wider than the cells' digits (the sort mark may wrap below it).
    const word = Math.max(...column.label.split(' ').map((w) => w.length));
    let longest = 0;
    for (const row of rows) {
      const text = column.text(row);
      if (column.numeric !== true && text.length > SHORT_TEXT) return null;
      longest = Math.max(longest, textWidth(text));
    }
    return `calc(${Math.max(longest + 1, Math.ceil(word * 1.1) + 1)}ch + 0.8rem)`;
  });
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
  const table = h('table', { class: 'data sized' });
  table.append(h('caption', { text: options.caption }));
  const widths = columnWidths(columns, rows);
  const colgroup = h('colgroup');
  for (const [i, width] of widths.entries()) {
    const col = h('col', { class: columns[i]!.optional === true ? 'optional' : '' });
    if (width !== null) col.style.width = width;
    colgroup.append(col);
  }
  table.append(colgroup);
  const headRow = h('tr');
  const body = h('tbody');
  const headers = columns.map((column, i) => {
    const th = h('th', {
      text: column.label,
      class: cellClass(column),
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
          const td = h('td', { class: cellClass(column) });
          if (content === undefined) {
            const text = column.text(row);
            td.textContent = text;
            if (column.numeric !== true && text.length > SHORT_TEXT) td.title = text;
          } else if (content !== null) td.append(content);
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
