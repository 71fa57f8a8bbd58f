// web/src/api — the queries the engine answers from the trace by name (core/api/model_queries.h:
// summary, counts, flame, top, sandwich, gc, jit and the event views): one generic path,
// TraceHandle.query, which the in-thread handle (api/trace.ts) takes to the wasm module's
// query() and the worker's (engine/worker_client.ts) to its 'query' message; the handle's
// methods over the same documents are written here once, over that path.
import { NetTraceError } from '../reader/errors.js';
import { ParsedEventViews } from './event_views.js';
import type { EventViewName } from './event_views.js';
import type { QueryRequests } from './generated/requests.js';
import type { GcStats, JitStats } from './generated/results.js';

export type RuntimeStatsKind = 'gc' | 'jit';
/** A query's name: `nettrace schema --json`'s queries (those the engine does not answer by name reject). */
export type QueryName = keyof QueryRequests;
/** A query's request: its options, and the CLI-only ones the generic path takes. */
export type QueryOptions<N extends QueryName> = QueryRequests[N] & {
  /** "csv" for the statistics and event views (`--format`); default "json". */
  format?: 'json' | 'csv';
  /** top: the number of functions (`-n`); default 20. */
  n?: number;
};

const EVENT_VIEWS: readonly EventViewName[] = ['exceptions', 'contention', 'activities', 'counters', 'threadpool', 'allocations'];

/** The handle's methods that are one query of the engine's by name. */
export abstract class ModelQueryHandle extends ParsedEventViews {
  abstract query<N extends QueryName>(name: N, request?: QueryOptions<N>, args?: string[]): Promise<string>;

  traceEventCounts(): Promise<string> {
    return this.query('counts');
  }
  runtimeStatsText(kind: RuntimeStatsKind, format: 'json' | 'csv'): Promise<string> {
    return this.query(kind, { format });
  }
  async gc(): Promise<GcStats> {
    return JSON.parse(await this.runtimeStatsText('gc', 'json')) as GcStats;
  }
  async jit(): Promise<JitStats> {
    return JSON.parse(await this.runtimeStatsText('jit', 'json')) as JitStats;
  }
  async eventView(view: EventViewName, format: 'json' | 'csv' = 'json'): Promise<string> {
    if (!EVENT_VIEWS.includes(view)) throw new NetTraceError('invalid-argument', null, `unknown view ${String(view)}`);
    return this.query(view, { format });
  }
}
