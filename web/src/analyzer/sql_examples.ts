// web/src/analyzer — the SQL tab's example queries: docs/dataset.md's queries over one trace
// (no join on trace_id needed: the tab holds one trace), plus two that chart.

export interface SqlExample {
  label: string;
  sql: string;
}

export const SQL_EXAMPLES: readonly SqlExample[] = [
  {
    label: 'Events per type',
    sql: 'SELECT provider, event_name, COUNT(*) AS events\nFROM events\nGROUP BY provider, event_name\nORDER BY events DESC, provider, event_name',
  },
  {
    label: 'Top functions (exclusive samples)',
    sql: 'SELECT f.name, SUM(s.samples) AS exclusive_samples\nFROM samples s\nJOIN stacks st ON st.stack_id = s.stack_id AND st.position = st.depth - 1\nJOIN frames f ON f.frame_id = st.frame_id\nGROUP BY f.name\nORDER BY exclusive_samples DESC, f.name\nLIMIT 20',
  },
  {
    label: 'Top functions (dotnet-trace thread time, as the flame graph)',
    sql: 'SELECT f.name, SUM(t.thread_time_ns) / 1e6 AS exclusive_ms\nFROM thread_time t\nJOIN stacks st ON st.stack_id = t.stack_id AND st.position = st.depth - 1\nJOIN frames f ON f.frame_id = st.frame_id\nGROUP BY f.name\nORDER BY exclusive_ms DESC, f.name\nLIMIT 20',
  },
  {
    label: 'GC pauses per process (p50, p99)',
    sql: 'SELECT process_id, COUNT(*) AS gcs,\n  quantile_cont(pause_ms, 0.5) AS pause_p50_ms, quantile_cont(pause_ms, 0.99) AS pause_p99_ms\nFROM gcs\nGROUP BY process_id\nORDER BY pause_p99_ms DESC',
  },
  {
    label: 'GC pauses over time (chart)',
    sql: 'SELECT start_ms, pause_ms, generation, reason\nFROM gcs\nORDER BY start_ms',
  },
  {
    label: 'Events per second (chart)',
    sql: 'SELECT time_ns // 1000000000 AS second, COUNT(*) AS events\nFROM events\nGROUP BY second\nORDER BY second',
  },
  {
    label: 'Exceptions by type',
    sql: 'SELECT type, SUM(count) AS throws\nFROM exceptions\nGROUP BY type\nORDER BY throws DESC, type',
  },
  {
    label: 'Slowest activities',
    sql: 'SELECT provider, name, duration_ms, start_ms\nFROM activities\nORDER BY duration_ms DESC, start_ms\nLIMIT 20',
  },
  {
    label: 'JIT time by tier',
    sql: 'SELECT tier, COUNT(*) AS methods, SUM(jit_time_ms) AS jit_ms, SUM(il_size) AS il_bytes\nFROM jit\nGROUP BY tier\nORDER BY jit_ms DESC',
  },
  { label: 'The trace (process, runtime version, …)', sql: 'SELECT * FROM traces' },
  {
    label: 'Tables and columns',
    sql: "SELECT table_name, column_name, data_type\nFROM information_schema.columns\nWHERE table_schema = 'main'\nORDER BY table_name, ordinal_position",
  },
];
