// See read_ahead_page.html. Each call opens the picked File once and answers what the probe
// counted (plain data, for page.evaluate).
import { DEFAULT_READ_AHEAD, NetTraceError, openTrace } from '/dist/index.js';
import { probedBlob, readAheadViolations } from '/tests/node/read_ahead_probe.mjs';

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

/** Aborts after the second push; reads from the third chunk on answer 200 ms late. */
async function cancelled(chunkSize, readAhead) {
  const late = (start) => new Promise((resolve) => setTimeout(resolve, start >= 2 * chunkSize ? 200 : 0));
  const probe = probedBlob(file(), late);
  const controller = new AbortController();
  let inFlightAtAbort = -1;
  try {
    await openTrace(probe.blob, {
      worker: false,
      chunkSize,
      readAhead,
      signal: controller.signal,
      onProgress: (p) => {
        probe.onProgress(p);
        if (probe.pushed === 2) {
          inFlightAtAbort = probe.inFlight;
          controller.abort();
        }
      },
    });
    return { code: 'opened' };
  } catch (e) {
    const code = e instanceof NetTraceError ? e.code : String(e);
    return { code, inFlightAtAbort, inFlightAfter: probe.inFlight, started: probe.started };
  }
}

window.readAhead = { open, cancelled, DEFAULT_READ_AHEAD };
document.body.dataset.ready = 'true';
