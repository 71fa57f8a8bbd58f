// web/src/views — an event's identity across a live session's snapshots. A store row (the
// event's `index`) and its position among a filter's matches can both move when late events
// (written out of time order) are merged into the store before it, so a selection kept by
// row would jump to another event. The identity is what the event itself says: its raw
// timestamp, thread, sequence number and where its payload lies in the file.
import type { TraceHandle } from '../api/handle.js';
import type { EventQuery, TraceEvent } from '../api/types.js';

/** Events with one timestamp looked at, at most, past the first (they are in file order). */
const PAGE = 200;

export function eventIdentity(event: TraceEvent): string {
  return [event.timestamp, event.threadId, event['sequenceNumber'] ?? '', event['payloadOffset'] ?? '', event.provider, event.name].join('/');
}

/**
 * The position among `filter`'s matches of `event` (its identity) after the trace grew from
 * `oldTotal` to `newTotal` matches; it was at `oldRow`. Events are only added, so it can
 * only have moved forward, by at most the number of matches added; matches are in time
 * order, so a binary search on the timestamp finds where it can be (one small query a step),
 * then the events of that timestamp are compared. -1 when it is not there.
 */
export async function findEventRow(
  trace: TraceHandle,
  filter: Omit<EventQuery, 'offset' | 'limit'>,
  event: TraceEvent,
  oldRow: number,
  oldTotal: number,
  newTotal: number,
): Promise<number> {
  const identity = eventIdentity(event);
  const at = async (row: number) => (await trace.events({ ...filter, offset: row, limit: 1 })).events[0];
  // The first match in [lo, hi) whose timestamp is not before the event's.
  let lo = Math.min(oldRow, newTotal);
  let hi = Math.min(newTotal, oldRow + Math.max(0, newTotal - oldTotal) + 1);
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const e = await at(mid);
    if (e !== undefined && e.timestamp < event.timestamp) lo = mid + 1;
    else hi = mid;
  }
  const page = await trace.events({ ...filter, offset: lo, limit: PAGE });
  for (let i = 0; i < page.events.length && page.events[i]!.timestamp === event.timestamp; i++) {
    if (eventIdentity(page.events[i]!) === identity) return lo + i;
  }
  return -1;
}
