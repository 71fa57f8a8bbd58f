// The values of the Parquet writer's sample tables (core/dataset/sample_tables.cc), computed
// here from the same formulas, so the reader tests compare every value they read back.
// Change both files together. Not a test itself (node --test runs *.test.mjs only).

export const STRINGS = ['', 'a', 'été', '日本語', 'emoji 😀', 'Microsoft-Windows-DotNETRuntime'];
export const TYPES_ROWS = 1000;
export const BIG_SIZES = [0, 1, 1 << 20, 3 << 20, 1000, (2 << 20) + 3];

/** Row i of types.parquet; 64-bit values as BigInt, nulls as null. */
export function typesRow(i) {
  const k = BigInt(i);
  return {
    flag: i % 7 === 3 ? null : i % 3 === 0,
    i32: i === 0 ? -2147483648 : i === 1 ? 2147483647 : ((i * 7919) % 100003) - 50000,
    i64: i === 0 ? -(2n ** 63n) : i === 1 ? 2n ** 63n - 1n : k * 1000000007n * (i % 2 ? -1n : 1n),
    raw_i64: i % 5 === 0 ? null : k * k,
    d: i % 11 === 4 ? null : i === 0 ? NaN : i === 1 ? -0 : i === 2 ? Infinity : i === 3 ? -Infinity : i / 8 - 40,
    s: i % 13 === 0 ? null : STRINGS[i % 6],
    ts_us: 1700000000000000n + k * 1000001n,
    ts_ns: i % 4 === 1 ? null : 1700000000000000000n + k * 999n,
    label: `row ${i}`,
  };
}

/** The text of big_strings.parquet's row `id`. */
export function bigString(id) {
  const size = BIG_SIZES[id];
  const bytes = new Uint8Array(size);
  for (let j = 0; j < size; j++) bytes[j] = 97 + (j % 26);
  return new TextDecoder().decode(bytes);
}

export const PROVIDERS = ['Microsoft-Windows-DotNETRuntime', 'Microsoft-DotNETCore-SampleProfiler',
  'Microsoft-Windows-DotNETRuntimeRundown', 'System.Threading.Tasks.TplEventSource'];
export const EVENTS_TRACE_ID = 'a'.repeat(16) + '0123456789abcdef'.repeat(3);

/** The rows of events.parquet, in order: a xorshift32 stream (x ^= x << 13; x ^= x >> 17; x ^= x << 5). */
export function* eventsRows(n) {
  let x = 123456789;
  let t = 0n;
  const next = () => {
    x = (x ^ (x << 13)) >>> 0;
    x = (x ^ (x >>> 17)) >>> 0;
    x = (x ^ (x << 5)) >>> 0;
    return x;
  };
  for (let i = 0; i < n; i++) {
    const r = next();
    t += BigInt(r & 2047);
    const k = (r >>> 11) % 40;
    const r2 = next();
    yield {
      trace_id: EVENTS_TRACE_ID,
      time_ns: t,
      time_utc: 1700000000000000n + t / 1000n,
      provider: PROVIDERS[k % 4],
      event_name: `Event/Name${k}`,
      event_id: k + 1,
      thread_id: BigInt(1000 + ((r >>> 17) & 63)),
      stack_id: r2 % 10 < 3 ? null : BigInt(r2 >>> 16),
      payload_json: r2 & 1 ? null : `{"Count":${r2 % 1000},"Reason":${(r2 >>> 10) % 8},"Name":"Item${(r2 >>> 14) % 500}"}`,
    };
  }
}
