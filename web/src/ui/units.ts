// web/src/ui — how every view writes an amount, in one place: time in ms or s, bytes in KB,
// MB or GB, and counts named for what they count ("1,234 samples", "8 contentions"). The
// engine's stack weights come in three units (FlameGraphData.unit: nanoseconds, bytes,
// samples); "samples" is a count of whatever events the stacks are of, so the noun comes from
// the event type. The npm CLI's text lines (web/src/live) use the same helpers. No DOM here.

/** The engine's weight units (api/types.ts FlameGraphData.unit, TopFunctions.unit). */
export type WeightUnit = 'samples' | 'bytes' | 'nanoseconds' | string;

const grouped = (value: number, digits: number): string =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** A duration in milliseconds: "0.42 ms", "12.3 ms", "1.25 s", "225.1 s" ("<0.01 ms" for a
 *  non-zero one too small to show, never "0.00 ms"). */
export function formatDurationMs(ms: number): string {
  const size = Math.abs(ms);
  if (size >= 1000) return `${grouped(ms / 1000, size >= 100_000 ? 1 : 2)} s`;
  if (size >= 10) return `${grouped(ms, 1)} ms`;
  if (ms !== 0 && size < 0.005) return `${ms < 0 ? '>-' : '<'}0.01 ms`;
  return `${grouped(ms, 2)} ms`;
}

/** A duration in nanoseconds (the engine's time weights), as formatDurationMs writes it. */
export const formatDurationNs = (ns: number): string => formatDurationMs(ns / 1e6);

/** Bytes in B, KB, MB or GB (decimal multiples: 1 KB = 1,000 bytes, as dotnet-counters' MB):
 *  "999 B", "102.4 KB", "1.9 MB", "2.50 GB"; the native CLI's FormatBytes (core/base/human_units.h)
 *  writes the same. An amount that would round to 1000.0 of a unit is written in the next. */
export function formatBytes(bytes: number): string {
  const size = Math.abs(bytes);
  if (size < 1000) return `${bytes.toFixed(0)} B`;
  if (size < 999_950) return `${(bytes / 1e3).toFixed(1)} KB`;
  if (size < 999_950_000) return `${(bytes / 1e6).toFixed(1)} MB`;
  return `${(bytes / 1e9).toFixed(2)} GB`;
}

/** The stacks a query without `event` weighs (the engine's default, `--event`). */
export const DEFAULT_STACK_EVENT = 'Thread/Sample';

/** What one event of a stack type is called when counted ("samples" of Thread/Sample). */
export function countNoun(event: string): string {
  switch (event) {
    case 'Thread/Sample':
    case 'cpu':
      return 'samples';
    case 'Exception/Start':
      return 'exceptions';
    case 'Contention/Start':
      return 'contentions';
    case 'GC/AllocationTick':
      return 'allocation ticks';
    default:
      return 'events';
  }
}

/** "1 sample", "1,234 samples", "1 allocation tick". */
export function formatCount(count: number, noun: string): string {
  return `${grouped(count, 0)} ${count === 1 && noun.endsWith('s') ? noun.slice(0, -1) : noun}`;
}

/**
 * An amount of a stack weight as people read it: time, bytes, or a count of `event`s.
 * @param unit the engine's unit of the weight (nanoseconds, bytes, samples)
 * @param event the event type whose stacks are weighed (names what a count counts)
 */
export function formatWeight(value: number, unit: WeightUnit, event: string): string {
  if (unit === 'nanoseconds') return formatDurationNs(value);
  if (unit === 'bytes') return formatBytes(value);
  if (unit === 'objects') return formatCount(value, 'objects');
  return formatCount(value, countNoun(event));
}

/** What a weight measures, in words, for "12.5% of …": "time", "bytes", "samples". */
export function weightName(unit: WeightUnit, event: string): string {
  if (unit === 'nanoseconds') return 'time';
  if (unit === 'bytes') return 'bytes';
  if (unit === 'objects') return 'objects';
  return countNoun(event);
}
