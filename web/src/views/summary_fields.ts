// web/src/views — naming the summary's tables (`data-table`), for tests and styles.

/** Names a table (`data-table`), for the browser tests and styles. */
export function tagged(name: string, table: HTMLTableElement): HTMLTableElement {
  table.dataset['table'] = name;
  return table;
}
