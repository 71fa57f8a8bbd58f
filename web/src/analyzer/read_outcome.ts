// web/src/analyzer — what the analyzer says when a read does not reach the end of a trace:
// a partial trace (damaged or cancelled: its events stay explorable, a banner says where
// reading stopped) or a refusal (nothing to explore: not a trace, an empty file, a failed
// fetch). Only established facts are stated; a failed fetch says why and how to get around it.
import { NetTraceError } from '../api/types.js';
import { fmt } from '../ui/dom.js';
import { formatBytes } from '../ui/units.js';

/** The status line and the banner of a trace read up to a fault or a cancel. */
export interface PartialText {
  status: string;
  banner: string;
}

const where = (offset: number | null): string => (offset === null ? '' : ` at byte offset ${fmt(offset)}`);

/**
 * A cancel once every event was read, while the method names were read back (api/trace.ts):
 * the summary is complete, and frames of the methods whose names were not read back show a method id.
 */
export function onlyNamesMissing(error: NetTraceError | null, complete: boolean): boolean {
  return error !== null && error.code === 'cancelled' && complete;
}

/**
 * @param eventCount the events read before the fault (the summary's, the one count shown)
 * @param size the file's size in bytes, 0 when unknown (a stream)
 * @param complete the summary's: every event was read (a cancel came while names were read back)
 */
export function partialText(error: NetTraceError, name: string, eventCount: number, size: number, complete: boolean): PartialText {
  const of = size > 0 ? ` of ${formatBytes(size)}` : '';
  const events = `${fmt(eventCount)} event${eventCount === 1 ? '' : 's'}`;
  if (onlyNamesMissing(error, complete)) {
    return {
      status: `Read ${name}: ${events}; reading back the method names was cancelled.`,
      banner: `Method names incomplete: reading them back was cancelled after every event was read. Every view shows all ${events}, but frames of the methods whose names were not read back show their module and method id; open the trace again to name them.`,
    };
  }
  if (error.code === 'cancelled') {
    return {
      status: `Cancelled${where(error.offset)}${of}: ${events} read.`,
      banner: `Partial trace: reading was cancelled${where(error.offset)}${of}. Every view shows the ${events} read before that point.`,
    };
  }
  // The status line is short; the banner, which stays above the views, gives the reason.
  return {
    status: `Could not read all of ${name}: ${error.code}${where(error.offset)}; ${events} read before that point.`,
    banner: `Partial trace: reading stopped${where(error.offset)}${of} (${error.code}: ${error.reason}). Every view shows the ${events} read before that point.`,
  };
}

/** The heading of the Summary tab. */
export function summaryTitle(error: NetTraceError | null, eventCount: number, complete: boolean): string {
  if (error === null || onlyNamesMissing(error, complete)) return 'Summary';
  if (eventCount === 0) return 'What could be established';
  return error.code === 'cancelled' ? 'Summary of what was read before Cancel' : 'Summary of what was read before the error';
}

const HOW_TO_FIX = 'To open it anyway, download the file and drop it here (or use "Choose a file…").';

/** Why a URL could not be fetched, from the source error's message, and what to do. */
function fetchFailure(reason: string, name: string): string {
  const status = /HTTP (\d{3})/.exec(reason)?.[1];
  if (status !== undefined) return `Could not fetch ${name}: the server answered HTTP ${status}. Check the URL. ${HOW_TO_FIX}`;
  return (
    `Could not fetch ${name}: the browser was not allowed to read it or could not reach the server ` +
    `(a server that does not send CORS headers for this page, or a network error: ${reason}). ${HOW_TO_FIX}`
  );
}

/**
 * The status line for a read that gave nothing to explore.
 * @param fromUrl the trace was being fetched from a URL (a "source" error is then the fetch's)
 */
export function refusalText(e: unknown, name: string, fromUrl: boolean): string {
  if (!(e instanceof NetTraceError)) return `Failed: ${e instanceof Error ? e.message : String(e)}`;
  if (e.code === 'cancelled') return 'Cancelled before any event was read.';
  if (e.code === 'source' && fromUrl && (e.partial?.bytesRead ?? 0) === 0) return fetchFailure(e.reason, name);
  if (e.code === 'source') return `Could not read ${name}: ${e.reason}.`;
  return `Could not read ${name}: ${e.reason} (${e.code}${where(e.offset)}). No event was read.`;
}

/** True when a refusal still has facts worth a summary (the engine read some of the file). */
export function hasSummary(e: unknown): boolean {
  return e instanceof NetTraceError && e.partial !== null && e.code !== 'source' && e.code !== 'cancelled';
}
