// web/src/api — the event views of issue 14 (core/analysis/runtime_views.h): the documents
// `nettrace exceptions|contention|activities|counters FILE` prints, typed. Times are ms from
// the trace's sync time (as `timeMs` elsewhere), durations in ns or ms as the key says.

export type EventViewName = 'exceptions' | 'contention' | 'activities' | 'counters' | 'threadpool';

export interface MethodCount {
  method: string;
  count: number;
}

/** `nettrace exceptions`: first-chance exceptions (Exception/Start) by type. */
export interface ExceptionsView {
  count: number;
  /** Throws followed by an ExceptionCatch/Start on their thread; null without catch events in the trace. */
  caught: number | null;
  otherTypesCount: number;
  notAttributed: number;
  types: {
    type: string;
    count: number;
    caught: number | null;
    /** The first distinct messages (at most 5). */
    messages: string[];
    /** The top frame of the throw's stack below the runtime's dispatch frames. */
    throwingMethods: MethodCount[];
    catchingMethods: MethodCount[];
  }[];
}

export interface WaitAggregate {
  count: number;
  totalNs: number;
  maxNs: number;
}

export interface WaitSummary {
  starts: number;
  waits: number;
  unpairedStarts: number;
  unpairedStops: number;
  notKept: number;
  totalNs: number;
  maxNs: number;
  p50Ns: number;
  p90Ns: number;
  p99Ns: number;
  byThread: ({ thread: number; threadName?: string } & WaitAggregate)[];
  byOwner: ({ owner: number; threadName?: string } & WaitAggregate)[];
  byLock: ({ lockId: string; objectId: string; owners: ({ owner: number; threadName?: string } & WaitAggregate)[] } & WaitAggregate)[];
}

/** `nettrace contention`: Contention/Start–Stop and WaitHandleWait/Start–Stop pairs. */
export interface ContentionView {
  lock: WaitSummary;
  waitHandle: WaitSummary;
  listed: number;
  list: {
    kind: 'lock' | 'waitHandle';
    timeMs: number;
    thread: number;
    durationNs: number;
    /** From the Stop's DurationNs (else the time between the two events). */
    measured: boolean;
    lockId?: string;
    objectId?: string;
    owner?: number;
    detail: number;
  }[];
}

/** `nettrace activities`: Start/Stop events paired by activity id. */
export interface ActivitiesView {
  count: number;
  finished: number;
  unfinished: number;
  unmatchedStops: number;
  /** Stops that ended one of several open activities with the same id and name (the latest one). */
  ambiguousStops: number;
  withoutActivityId: number;
  notKept: number;
  names: {
    provider: string;
    name: string;
    count: number;
    finished: number;
    p50Ms: number;
    p90Ms: number;
    p99Ms: number;
    maxMs: number;
    meanMs: number;
  }[];
  listed: number;
  activities: {
    provider: string;
    name: string;
    id: string;
    relatedId: string;
    /** Index of the parent activity in `activities`, or null. */
    parent: number | null;
    depth: number;
    startMs: number;
    durationMs: number | null;
    startThread: number;
    stopThread: number | null;
  }[];
}

export interface CounterSample {
  timeMs: number;
  mean?: number | null;
  min?: number | null;
  max?: number | null;
  count?: number | null;
  intervalSec?: number | null;
  increment?: number | null;
  rate?: number | null;
  value?: number | null;
  sum?: number | null;
  quantiles?: { quantile: number | null; value: number | null }[];
}

/** `nettrace counters`: EventCounters and System.Diagnostics.Metrics series. */
export interface CountersView {
  notKept: number;
  series: {
    provider: string;
    name: string;
    displayName: string;
    units: string;
    tags: string;
    kind: 'mean' | 'sum' | 'rate' | 'updown' | 'gauge' | 'histogram';
    /** sum, rate, updown: the increments added up. */
    total?: number | null;
    samples: CounterSample[];
  }[];
}

/** A change of the thread pool's worker (or IO) thread counts, as the event after it says. */
export interface ThreadPoolPoint {
  timeMs: number;
  thread: number;
  event: string;
  active: number;
  retired: number;
}

/** `nettrace threadpool`: worker/IO thread counts over time, hill-climbing adjustments, starvation. */
export interface ThreadPoolView {
  /** Events seen, by kind (workerStart, adjustment, enqueue, ioDequeue, ...). */
  events: Record<string, number>;
  notKept: number;
  maxActiveWorkers: number;
  maxIoThreads: number;
  maxWorkingThreads: number;
  starvationAdjustments: number;
  minMax: { timeMs: number; minWorkerThreads: number; maxWorkerThreads: number; minIOCompletionThreads: number; maxIOCompletionThreads: number }[];
  workers: ThreadPoolPoint[];
  ioThreads: ThreadPoolPoint[];
  adjustments: {
    timeMs: number;
    thread: number;
    /** The manifest's ThreadAdjustmentReason name (Warmup, Starvation, ...). */
    reason: string;
    reasonCode: number;
    newWorkerThreadCount: number;
    averageThroughput: number;
    starvation: boolean;
  }[];
}

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
}
