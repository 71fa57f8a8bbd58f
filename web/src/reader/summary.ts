// web/src/reader — the summary document (docs/summary-json.md; `nettrace summary`,
// TraceSession::SummaryJson(), core/analysis/summary/summary.cc, runtime_signals.cc and
// universal_summary.cc write it), typed whole: the types are generated from the engine's result
// tables (core/api/result_table_summary.cc → api/generated/results.ts, a file that imports
// nothing), and tests/node/result_schema.test.mjs checks every trace's summary against those
// tables, so a view reads fields, never checks them.
export type {
  Dropped,
  DropRange,
  GcGeneration,
  KeyValue,
  NamedCount,
  RuntimeAllocations,
  RuntimeExceptions,
  RuntimeGc,
  RuntimeJit,
  RuntimeSignals,
  Summary,
  SummaryError,
  SummaryEventType,
  SummaryFormat,
  SummaryMapping,
  SummaryMappings,
  SummaryProcess,
  SummaryProvider,
  SummaryStat,
  SummaryTables,
  SummaryThread,
  TimeRange,
  TraceHeader,
} from '../api/generated/results.js';
