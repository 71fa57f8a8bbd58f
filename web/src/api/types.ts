// web/src/api — the types of the public JS API (browser, worker and Node alike).

/** Bytes read so far, of how many, and events decoded so far. */
export interface Progress {
  /** Bytes handed to the engine. */
  bytes: number;
  /** Size of the source in bytes. */
  total: number;
  /** Events the engine has decoded so far. */
  events: number;
}

/** The fatal error that stopped reading, as the summary JSON reports it. */
export interface SummaryError {
  code: string;
  offset: number | null;
  message: string;
}

/**
 * The engine's summary (README "Summary JSON"). Only the fields the JS side relies on are
 * typed here; the rest of the document passes through unchanged.
 */
export interface Summary {
  /** Event records read. */
  eventCount: number;
  /** True when the stream reached its end and nothing went wrong. */
  complete: boolean;
  /** Bytes decoded. */
  bytesRead: number;
  /** The fatal error that stopped reading, or null. */
  error: SummaryError | null;
  [field: string]: unknown;
}

/** Why reading stopped: a fatal input error, a cancel, or a failure to start the engine. */
export class NetTraceError extends Error {
  /** An engine error code ("truncated", "corrupt", …), "cancelled" or "engine". */
  readonly code: string;
  /** Absolute file offset of the fault, when the fault is about a position. */
  readonly offset: number | null;
  /** What was read before the fault (the engine keeps it), or null when nothing was. */
  readonly partial: Summary | null;
  /** The engine's message alone; `message` adds the offset. */
  readonly reason: string;

  constructor(code: string, offset: number | null, message: string, partial: Summary | null = null) {
    super(offset === null ? message : `${message} (at offset ${offset})`);
    this.name = 'NetTraceError';
    this.code = code;
    this.offset = offset;
    this.partial = partial;
    this.reason = message;
  }
}
