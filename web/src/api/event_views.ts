// web/src/api — the event views (core/analysis/views/runtime_views.h): the documents
// `nettrace exceptions|contention|activities|counters FILE` prints, typed. Times are ms from
// the trace's sync time (as `timeMs` elsewhere), durations in ns or ms as the key says.

export type EventViewName = 'exceptions' | 'contention' | 'activities' | 'counters' | 'threadpool' | 'allocations';

// The documents are typed by the engine's result tables (core/api/result_table_views.cc →
// api/generated/results.ts; tests/node/result_schema.test.mjs checks every committed trace's
// views against them).
export type {
  AllocationFunction,
  AllocationsView,
  AllocationTotal,
  AllocationType,
  ActivitiesView,
  Activity,
  ActivityName,
  ContentionView,
  CounterQuantile,
  CounterSample,
  CounterSeries,
  CountersView,
  ExceptionType,
  ExceptionsView,
  MethodCount,
  ThreadPoolAdjustment,
  ThreadPoolMinMax,
  ThreadPoolPoint,
  ThreadPoolView,
  Wait,
  WaitByLock,
  WaitByOwner,
  WaitByThread,
  WaitSummary,
} from './generated/results.js';
import type {
  ActivitiesView,
  AllocationsView,
  ContentionView,
  CountersView,
  ExceptionsView,
  ThreadPoolView,
  WaitByThread,
} from './generated/results.js';

/** The count, total and longest of a set of waits (what every `by…` row of a WaitSummary has). */
export type WaitAggregate = Pick<WaitByThread, 'count' | 'totalNs' | 'maxNs'>;

/**
 * The event views parsed, over a handle's `eventView` text: the one place the in-thread handle
 * (api/trace.ts) and the worker's (engine/worker_client.ts) turn the documents into types.
 */
export abstract class ParsedEventViews {
  abstract eventView(view: EventViewName, format?: 'json' | 'csv'): Promise<string>;

  private async parsed<T>(view: EventViewName): Promise<T> {
    return JSON.parse(await this.eventView(view)) as T;
  }
  exceptions(): Promise<ExceptionsView> {
    return this.parsed('exceptions');
  }
  contention(): Promise<ContentionView> {
    return this.parsed('contention');
  }
  activities(): Promise<ActivitiesView> {
    return this.parsed('activities');
  }
  counters(): Promise<CountersView> {
    return this.parsed('counters');
  }
  threadPool(): Promise<ThreadPoolView> {
    return this.parsed('threadpool');
  }
  allocations(): Promise<AllocationsView> {
    return this.parsed('allocations');
  }
}
