// web/src/analyzer — the SQL tab. Its first showing for a trace asks the engine worker for the
// trace's dataset tables and starts DuckDB-wasm over them (sql_database.ts: nothing of DuckDB
// is fetched before); a query runs on Run or Ctrl+Enter, and the query run is kept in the
// view state (`sql=` in the link), so a link opens the tab with its query run again.
import type { TraceHandle } from '../api/handle.js';
import { chartColumns, drawChart, resultLine, SqlResultTable } from '../views/sql_view.js';
import type { SqlResult } from '../views/sql_view.js';
import type { ControllerContext } from './context.js';
import { SqlDatabase } from './sql_database.js';
import { SQL_EXAMPLES } from './sql_examples.js';
import type { SqlParts } from './sql_layout.js';

export class SqlController {
  private readonly table: SqlResultTable;
  /** The database of `builtFor`, or its start in progress. */
  private database: Promise<SqlDatabase> | null = null;
  private builtFor: TraceHandle | null = null;
  /** The query whose result is shown. */
  private shownSql: string | null = null;
  private generation = 0;

  constructor(private readonly ctx: ControllerContext, private readonly parts: SqlParts) {
    this.table = new SqlResultTable(parts);
    parts.editor.value = SQL_EXAMPLES[0]!.sql;
    parts.run.addEventListener('click', () => this.run(parts.editor.value));
    parts.editor.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        this.run(parts.editor.value);
      }
    });
    parts.examples.addEventListener('change', () => {
      const example = SQL_EXAMPLES[Number(parts.examples.value)];
      parts.examples.value = '';
      if (example === undefined) return;
      parts.editor.value = example.sql;
      this.run(example.sql);
    });
  }

  /** The tab is shown: the link's query (else the editor's) runs once per trace. */
  show(): void {
    const trace = this.ctx.state.trace;
    if (trace === null) return;
    const sql = this.ctx.state.view.sql || this.parts.editor.value;
    if (this.builtFor === trace && this.shownSql === sql) return;
    this.parts.editor.value = sql;
    this.run(sql);
  }

  /** Another trace: the old database ends (its worker and memory). */
  reset(): void {
    this.generation++;
    const old = this.database;
    this.database = null;
    this.builtFor = null;
    this.shownSql = null;
    this.table.show(null);
    this.parts.chart.hidden = true;
    this.parts.status.textContent = '';
    void old?.then((db) => db.close(), () => undefined);
  }

  private databaseFor(trace: TraceHandle): Promise<SqlDatabase> {
    if (this.builtFor !== trace || this.database === null) {
      this.builtFor = trace;
      this.database = trace.datasetTables(this.ctx.state.name || 'trace.nettrace').then((tables) => SqlDatabase.open(tables));
      this.database.catch(() => {
        if (this.builtFor === trace) this.database = null; // asked again at the next run
      });
    }
    return this.database;
  }

  private run(sql: string): void {
    const trace = this.ctx.state.trace;
    if (trace === null) return;
    const generation = ++this.generation;
    const { status } = this.parts;
    this.ctx.state.set({ sql });
    this.ctx.state.save();
    status.classList.remove('error');
    status.textContent = this.database === null || this.builtFor !== trace ? 'Loading DuckDB and the trace\'s tables…' : 'Running…';
    delete this.parts.scroller.dataset['ready'];
    const started = performance.now();
    void this.databaseFor(trace)
      .then((db) => {
        if (generation === this.generation) status.textContent = 'Running…';
        return db.query(sql);
      })
      .then(
        (result) => generation === this.generation && this.showResult(sql, result, performance.now() - started),
        (e: unknown) => {
          if (generation !== this.generation) return;
          this.shownSql = sql;
          status.classList.add('error');
          status.textContent = e instanceof Error ? e.message : String(e);
          this.table.show(null);
          this.parts.chart.hidden = true;
          this.parts.scroller.dataset['ready'] = 'error';
        },
      );
  }

  private showResult(sql: string, result: SqlResult, ms: number): void {
    this.shownSql = sql;
    this.parts.status.textContent = resultLine(result, ms);
    this.table.show(result);
    const chart = chartColumns(result);
    this.parts.chart.hidden = chart === null || result.rowCount === 0;
    if (!this.parts.chart.hidden) drawChart(this.parts.chart, result, chart![0], chart![1]);
    this.parts.scroller.dataset['ready'] = 'result';
  }
}
