// web/src/api — an export's parts from the engine in this thread: the engine's export
// streams (core/export/export_stream.h) for the stack exports and the CSVs, and pages of
// rows whose blocks are re-read for the two that show payloads (the Chrome trace's args, the
// CSV of one event type). Each part is asked for once the previous one has been taken, so
// the memory held is one part's, whatever the document's size. The bytes are the native
// tool's (`nettrace export`), without the newline it adds after a JSON document.
import type { NetTraceModule, RawExportStream, RawTraceSession } from '../nettrace_wasm.mjs';
import { NetTraceError } from '../reader/errors.js';
import type { ExportFormat, ExportOptions } from './handle.js';
import { PART_BYTES } from './export_sink.js';

/** What the parts are made from: the handle's engine and its re-reading of blocks. */
export interface ExportEngine {
  readonly M: NetTraceModule;
  /** The session; throws code "closed" once the handle is closed. */
  session(): RawTraceSession;
  /** Re-reads the blocks of `rows` and runs `use` before any other call provides blocks. */
  withBlocks<T>(rows: Uint32Array, use: (session: RawTraceSession) => T): Promise<T>;
  /** Streams to delete when the handle closes (they read the session). */
  readonly openStreams: Set<RawExportStream>;
  /** The engine keeps one Chrome trace writer and one payload-CSV resolver: one such export at a time. */
  pagedExports: Promise<void>;
}

/** An engine failure as a NetTraceError: "closed" once the handle is, else "engine". */
function engineError(engine: ExportEngine, e: unknown): NetTraceError {
  if (e instanceof NetTraceError) return e;
  try {
    engine.session();
  } catch (closed) {
    if (closed instanceof NetTraceError) return closed;
  }
  return new NetTraceError('engine', null, `the export failed: ${e instanceof Error ? e.message : String(e)}`);
}

/** The parts of one of the engine's export streams, deleted at the end or when the loop stops. */
async function* streamed(engine: ExportEngine, open: (session: RawTraceSession) => RawExportStream): AsyncGenerator<Uint8Array> {
  const stream = open(engine.session());
  engine.openStreams.add(stream);
  try {
    for (;;) {
      engine.session(); // closed between two parts?
      const part = stream.next(PART_BYTES);
      if (part.length === 0) return;
      yield part;
    }
  } finally {
    if (engine.openStreams.delete(stream)) stream.delete();
  }
}

/** Runs `inner` once the previous paged export has ended. */
async function* oneAtATime(engine: ExportEngine, inner: () => AsyncGenerator<Uint8Array>): AsyncGenerator<Uint8Array> {
  const previous = engine.pagedExports;
  let release: () => void = () => undefined;
  engine.pagedExports = new Promise<void>((resolve) => (release = resolve));
  try {
    await previous;
    yield* inner();
  } finally {
    release();
  }
}

/**
 * The Chrome trace with each event's payload fields as args (TraceSession::ChromeTrace*):
 * pages of store rows in order, each page's blocks re-read.
 */
async function* chromeTrace(engine: ExportEngine): AsyncGenerator<Uint8Array> {
  yield engine.session().chromeTraceBegin();
  let ended = false;
  try {
    // A page ends where its blocks would overflow the engine's cache; past the last row it is empty.
    for (let begin = 0; ; ) {
      const end = engine.session().chromeTracePageEnd(begin);
      if (end === begin) break;
      const page = new Uint32Array(end - begin);
      for (let i = 0; i < page.length; i++) page[i] = begin + i;
      yield await engine.withBlocks(page, (s) => s.chromeTraceEvents(begin, end));
      begin = end;
    }
    ended = true;
    yield engine.session().chromeTraceEnd();
  } finally {
    // Stopped early: the engine's writer is let go all the same.
    if (!ended) {
      try {
        engine.session().chromeTraceEnd();
      } catch {
        // closed: the session went with it
      }
    }
  }
}

/**
 * CSV of one event type with its payload fields as columns (TraceSession::PayloadCsv*): two
 * passes over the type's rows a page at a time, each page's blocks re-read: the columns,
 * then the lines.
 */
async function* payloadCsv(engine: ExportEngine, event: string, provider?: string): AsyncGenerator<Uint8Array> {
  const { rows } = engine.session().queryEvents({ name: event, provider: provider ?? '', limit: 0xffffffff });
  const pages: Uint32Array[] = [];
  for (let begin = 0; begin < rows.length; ) {
    const end = begin + engine.session().payloadCsvPageEnd(rows.subarray(begin, begin + 4096));
    pages.push(rows.subarray(begin, end));
    begin = end;
  }
  let columns: string[] = [];
  for (const page of pages) columns = await engine.withBlocks(page, (s) => s.payloadCsvColumns(page, columns));
  yield engine.M.payloadCsvHeader(columns);
  for (const page of pages) yield await engine.withBlocks(page, (s) => s.payloadCsvLines(page, columns));
}

/** The export's parts, in order; failures as NetTraceError. */
export async function* exportParts(engine: ExportEngine, format: ExportFormat, options: ExportOptions = {}): AsyncGenerator<Uint8Array> {
  const { name = 'trace', stackText = false, speedscope = 'evented', csvPayload: _csvPayload, ...query } = options;
  let parts: AsyncGenerator<Uint8Array>;
  switch (format) {
    case 'speedscope':
      parts = streamed(engine, (s) => (speedscope === 'sampled' ? s.speedscopeStream(query, name) : s.speedscopeEventedStream(query, name)));
      break;
    case 'chrome':
      parts = oneAtATime(engine, () => chromeTrace(engine));
      break;
    case 'csv':
      parts = options.event !== undefined && options.csvPayload !== false
        ? oneAtATime(engine, () => payloadCsv(engine, options.event!, options.provider))
        : streamed(engine, (s) => s.eventsCsvStream(stackText));
      break;
    case 'stacks-csv':
      parts = streamed(engine, (s) => s.stacksCsvStream());
      break;
    case 'folded':
      parts = streamed(engine, (s) => s.foldedStream(query));
      break;
    default:
      throw new NetTraceError('invalid-argument', null, `unknown export format ${String(format)}`);
  }
  try {
    yield* parts;
  } catch (e) {
    throw engineError(engine, e);
  }
}
