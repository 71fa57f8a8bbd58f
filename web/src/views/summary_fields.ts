// web/src/views — reading the engine's summary document safely (it is data: any field may be
// missing or of another type), and naming its tables for tests and styles.

/** summary.a.b.c when it is there, else undefined. */
export function field(summary: unknown, ...path: string[]): unknown {
  let value: unknown = summary;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** Names a table (`data-table`), for the browser tests and styles. */
export function tagged(name: string, table: HTMLTableElement): HTMLTableElement {
  table.dataset['table'] = name;
  return table;
}
