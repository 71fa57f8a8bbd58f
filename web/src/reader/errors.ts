// web/src/reader — what a read reports besides its summary: its progress, and why it stopped
// (re-exported by api/types.ts; the reading layer imports nothing from web/src/api).
import type { Summary } from './summary.js';

/** Bytes read so far, of how many, and events decoded so far. */
export interface Progress {
  /** Bytes handed to the engine. */
  bytes: number;
  /** Size of the source in bytes; 0 when unknown (a stream, a URL without Content-Length). */
  total: number;
  /** Events the engine has decoded so far. */
  events: number;
  /** "reading": one report per chunk; "reading-end": the file's last bytes are read first (NetPerf
   *  versions 1 and 2 say there where their events end); "names": after the read, the method names
   *  that stacks can name are read back from the file (a File, Blob or bytes: the engine leaves them
   *  there while it reads) — one report before the first range is read (0 bytes) and one after
   *  each, `bytes` and `total` are then those of the names read back and asked for so far;
   *  "done": one last report once the engine has finished. */
  phase: 'reading' | 'reading-end' | 'names' | 'done';
}

/** Why reading stopped: a fatal input error, a cancel, or a failure to start the engine. */
export class NetTraceError extends Error {
  /** An engine error code ("truncated", "corrupt", …), "cancelled", "closed", "source"
   *  (the source could not be read or re-read), "engine", "invalid-argument", "out-of-memory"
   *  (the engine's heap could not grow: `offset` is how far the source was read; nothing is
   *  kept), or for exports "output" (the destination cannot be created or written) and
   *  "too-large" (export()'s text would pass a JavaScript string's length: exportTo /
   *  exportStream have no such limit). */
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
