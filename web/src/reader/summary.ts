// web/src/reader — the summary document (README "Summary JSON"; `nettrace summary`,
// TraceSession::SummaryJson(), core/analysis/summary.cc, runtime_signals.cc and
// universal_summary.cc write it), typed whole: every field the engine writes is here, with
// the type it has in every case the engine writes it, so a view reads fields, never checks them.

/** The container of the trace. */
export interface SummaryFormat {
  /** "NetTrace FastSerialization" (v4/v5), "NetTrace blocks" (v6), "NetPerf FastSerialization". */
  container: string;
  /** 3 (NetPerf), 4, 5 or 6. */
  major: number;
  minor: number;
  /** NetPerf, v4/v5: the Trace object's version (absent for v6). */
  traceObjectVersion?: number;
}

/** The fatal error that stopped reading, as the summary JSON reports it. */
export interface SummaryError {
  code: string;
  offset: number | null;
  message: string;
}

export interface KeyValue {
  key: string;
  value: string;
}

/** The trace header; every field is absent when the header was not reached (`{}`). */
export interface TraceHeader {
  syncTimeUtc?: string;
  syncTimeTicks?: number;
  /** Ticks per second. */
  tickFrequency?: number;
  /** 4 or 8. */
  pointerSize?: number;
  processId?: number;
  numberOfProcessors?: number;
  expectedCpuSamplingRate?: number;
  /** v6 trace metadata (empty before v6). */
  keyValues?: KeyValue[];
}

/** The time span of all events (`…Timestamp` raw clock values, `…Ms` since the sync time). */
export interface TimeRange {
  firstTimestamp: number;
  lastTimestamp: number;
  startMs: number;
  endMs: number;
  durationMs: number;
  startUtc: string;
  endUtc: string;
}

/** One entry of the summary's `types` list. */
export interface SummaryEventType {
  provider: string;
  name: string;
  eventId: number;
  version: number;
  count: number;
  /** Events of this type whose stack has at least one frame (the types a flame graph can show). */
  withStacks: number;
}

export interface SummaryProvider {
  name: string;
  count: number;
}

/** One thread seen. v4/v5: threadId and processId are set; v6 adds index, name, attributes, and
 *  its threadId / processId / name are null when the thread block did not give them. */
export interface SummaryThread {
  index?: number;
  threadId: number | null;
  processId: number | null;
  name?: string | null;
  attributes?: KeyValue[];
  /** Events about the thread. */
  eventCount: number;
  /** Events it wrote, as capture thread. */
  capturedEvents: number;
  droppedEvents: number;
}

/** Events lost by one thread between two of its sequence numbers. */
export interface DropRange {
  /** v4/v5. */
  threadId?: number;
  /** v6. */
  threadIndex?: number;
  count: number;
  /** Null when the loss precedes the thread's first event. */
  fromMs: number | null;
  toMs: number;
}

export interface Dropped {
  events: number;
  gaps: number;
  ranges: DropRange[];
  rangesTruncated: boolean;
}

export interface SummaryTables {
  metadata: number;
  stacks: number;
  labelLists: number;
  sequencePoints: number;
}

/** GCs of one generation and their pauses (PerfView's GCStats way; README "Summary JSON"). */
export interface GcGeneration {
  /** 0, 1, 2; null for any other GC/Start Depth (listed only when seen). */
  generation: number | null;
  count: number;
  /** GCs of this generation found inside a SuspendEEStart → RestartEEStop pause. */
  pauses: number;
  totalPauseMs: number;
  maxPauseMs: number;
  meanPauseMs: number;
}

/** A name (exception type, allocated type) with its count; bytes for allocations. */
export interface NamedCount {
  type: string;
  count: number;
  bytes?: number;
}

/** The summary's `runtime` key: .NET runtime signals counted while streaming. */
export interface RuntimeSignals {
  gc: { count: number; induced: number; background: number; generations: GcGeneration[] };
  /** Exception/Start by ExceptionType, most frequent first, top 100; the rest in otherCount. */
  exceptions: { count: number; types: NamedCount[]; otherCount: number };
  /** GC/AllocationTick by TypeName, most bytes first, top 100; the rest in otherCount/otherBytes. */
  allocations: { ticks: number; bytes: number; types: NamedCount[]; otherCount: number; otherBytes: number };
  /** JIT'd methods and the event they were counted from ("Method/JittingStarted", "Method/Load" or null). */
  jit: { methods: number; source: string | null };
  /** Contention/Start events. */
  contentions: number;
}

/** An anomaly the reader survived (non-zero counters only). */
export interface SummaryStat {
  name: string;
  value: number;
  severity: 'info' | 'data-loss' | 'error';
  source: 'trace' | 'analysis';
  description: string;
}

/** A process of a trace with universal (Linux profiler) events. */
export interface SummaryProcess {
  pid: number;
  name: string;
  namespaceId: number;
  namespaceName: string;
  existing: boolean;
  startMs?: number;
  exitMs?: number;
  events: number;
  cpuSamples: number;
  cpuNanoseconds: number;
  /** Its share of all processes' CPU time, 0–1. */
  cpuShare: number;
  cswitches: number;
  offCpuNanoseconds: number;
  /** OS thread ids. */
  threads: number[];
}

/** A mapped file of a trace with universal events (the first ones listed). */
export interface SummaryMapping {
  pid: number;
  id: number;
  start: number;
  end: number;
  fileOffset: number;
  file: string;
  symbols: number;
  symbolMetadata?: string;
  /** ELF build-id, PE/ReadyToRun perf-map identity, parsed from symbolMetadata. */
  identity?: Record<string, string>;
  versionMetadata?: string;
}

export interface SummaryMappings {
  count: number;
  withSymbols: number;
  withoutSymbols: number;
  symbols: number;
  listed: SummaryMapping[];
}

/** The engine's summary (README "Summary JSON"). */
export interface Summary {
  format: SummaryFormat;
  /** True when the stream reached its end and nothing went wrong. */
  complete: boolean;
  /** Bytes decoded. */
  bytesRead: number;
  /** The fatal error that stopped reading, or null. */
  error: SummaryError | null;
  trace: TraceHeader;
  /** Null without events. */
  timeRange: TimeRange | null;
  /** Event records read. */
  eventCount: number;
  eventsWithStacks: number;
  payloadBytes: number;
  /** Most frequent first. */
  types: SummaryEventType[];
  providers: SummaryProvider[];
  threads: SummaryThread[];
  dropped: Dropped;
  /** Distinct processor numbers in event headers. */
  processors: number;
  /** Count per block kind read (Trace, Metadata, Stack, Event, SequencePoint, …). */
  blocks: Record<string, number>;
  tables: SummaryTables;
  /** Runtime signals (GCs, exceptions, allocations, JIT, contentions). */
  runtime: RuntimeSignals;
  stats: SummaryStat[];
  /** Traces with universal (Linux profiler) events only. */
  processes?: SummaryProcess[];
  mappings?: SummaryMappings;
}
