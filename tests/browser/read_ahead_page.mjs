// See read_ahead_page.html. Each call opens the picked File once and answers what the probe
// counted (plain data, for page.evaluate). open and cancelled read by slices (the probe's Blob
// has no stream()); streamed reads with the defaults, from the File's stream().
import { DEFAULT_READ_AHEAD, NetTraceError, openTrace } from '/dist/index.js';
import { offThreadBlob } from '/dist/engine/off_thread_blob.js';
import { cancelAfterSecondPush, probedBlob, readAheadViolations } from '/tests/node/read_ahead_probe.mjs';

const file = () => document.getElementById('file').files[0];

/** One open to the end (a damaged trace keeps what it read): the summary and the ring's rule violations. */
async function open(chunkSize, readAhead) {
  const probe = probedBlob(file());
  const trace = await openTrace(probe.blob, { worker: false, keepPartial: true, chunkSize, readAhead, onProgress: probe.onProgress });
  const summaryJson = trace.summaryJson();
  trace.close();
  const chunks = Math.ceil(file().size / chunkSize);
  return { summaryJson, maxAhead: probe.maxAhead, started: probe.started, chunks, violations: readAheadViolations(probe, { chunks, ahead: readAhead }) };
}

/**
 * One open with the defaults, of the File wrapped so that its stream() and slice reads are
 * counted, and the sizes of the pieces the browser's stream handed over. After the stream, the
 * method names stacks can name are read back by slices (api/trace.ts).
 */
async function streamed() {
  const f = file();
  const probe = { streams: 0, sliceReads: 0, sliceBytes: 0, size: f.size, pieces: 0, maxPiece: 0 };
  const blob = {
    size: f.size,
    slice: (start, end) => ({
      arrayBuffer: () => {
        probe.sliceReads++;
        probe.sliceBytes += end - start;
        return f.slice(start, end).arrayBuffer();
      },
    }),
    stream: () => {
      probe.streams++;
      return f.stream().pipeThrough(new TransformStream({
        transform(piece, controller) {
          probe.pieces++;
          probe.maxPiece = Math.max(probe.maxPiece, piece.length);
          controller.enqueue(piece);
        },
      }));
    },
  };
  const trace = await openTrace(blob, { worker: false });
  const summaryJson = trace.summaryJson();
  trace.close();
  return { summaryJson, ...probe };
}

/**
 * One open of the File through offThreadBlob (the engine worker's way with a big File): its
 * stream read by a file reader worker. `how`: 'worker' (the real one), 'window' (a 256 KiB
 * window), 'missing' (a worker script that does not exist), 'throwing' (no worker can start),
 * 'cancel' (aborted after the second push). Answers the summary (or the error's code) and the stats.
 */
async function offThread(how) {
  const window = how === 'window' ? 256 * 1024 : undefined;
  const startWorker = how === 'missing'
    ? () => new Worker('/no/such/file_reader_worker.js', { type: 'module' })
    : how === 'throwing'
      ? () => { throw new Error('refused by the page\'s Content-Security-Policy'); }
      : undefined;
  const blob = offThreadBlob(file(), { ...(window ? { window } : {}), ...(startWorker ? { startWorker } : {}) });
  const controller = new AbortController();
  let pushes = 0;
  const onProgress = (p) => {
    if (how === 'cancel' && p.phase === 'reading' && ++pushes === 2) controller.abort();
  };
  try {
    const trace = await openTrace(blob, { worker: false, signal: controller.signal, onProgress });
    const summaryJson = trace.summaryJson();
    trace.close();
    return { summaryJson, window, ...blob.stats };
  } catch (e) {
    return { code: e instanceof NetTraceError ? e.code : String(e), window, ...blob.stats };
  }
}

/** Aborts after the second push; reads from the third chunk on answer 200 ms late. */
async function cancelled(chunkSize, readAhead) {
  const open = (blob, options) => openTrace(blob, { worker: false, ...options });
  const { error, inFlightAtAbort, probe } = await cancelAfterSecondPush(open, file(), { chunkSize, readAhead });
  if (error === undefined) return { code: 'opened' };
  const code = error instanceof NetTraceError ? error.code : String(error);
  return { code, inFlightAtAbort, inFlightAfter: probe.inFlight, started: probe.started };
}

window.readAhead = { open, cancelled, streamed, offThread, DEFAULT_READ_AHEAD };
document.body.dataset.ready = 'true';
