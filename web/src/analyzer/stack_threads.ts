// web/src/analyzer — the flame graph's thread picker: only the threads that have events of
// the picked stack type, each with that count in the type's own word ("samples" for CPU
// samples), not the thread's count of all events.
import type { TraceHandle } from '../api/handle.js';
import { fillSelect, fmt } from '../ui/dom.js';
import type { ThreadInfo } from '../views/summary_view.js';

/** Event types whose events are CPU samples. */
const SAMPLE_TYPES = new Set(['Thread/Sample', 'cpu']);

/** What one event of the type is called in the picker. */
export function stackEventWord(eventName: string, count: number): string {
  const word = SAMPLE_TYPES.has(eventName) ? 'sample' : 'event';
  return count === 1 ? word : `${word}s`;
}

/**
 * Fills `select` with the threads that have events named `eventName` (one histogram total per
 * thread: the engine counts them from its index, no file re-read).
 * @returns the ids offered, to drop a picked thread that has none
 */
export async function fillStackThreads(select: HTMLSelectElement, trace: TraceHandle, threads: ThreadInfo[], eventName: string): Promise<Set<string>> {
  const counts = await Promise.all(
    threads.map(async (t) => (await trace.histogram({ buckets: 1, name: eventName, thread: t.threadId })).total),
  );
  const offered = threads
    .map((t, i) => ({ thread: t, count: counts[i] ?? 0 }))
    .filter((t) => t.count > 0)
    .sort((a, b) => b.count - a.count);
  fillSelect(
    select,
    'all threads',
    offered.map(({ thread, count }) => ({
      value: String(thread.threadId),
      label: `${thread.threadId}${thread.name === '' ? '' : ` ${thread.name}`} (${fmt(count)} ${stackEventWord(eventName, count)})`,
    })),
  );
  return new Set(offered.map((t) => String(t.thread.threadId)));
}
