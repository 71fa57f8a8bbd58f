// Shared by tests/node/read_ahead.test.mjs and the browser check (tests/browser/read_ahead_check.mjs,
// which loads it in the page): a Blob wrapped so that its reads are counted, and the rules the
// reader's read-ahead ring (web/src/reader/read_ahead.ts) must keep, checked from those counts
// and from the progress reports (one per push when chunkSize ≤ PUSH_SIZE), never from timing.
// Plain ESM without Node imports, so that a page can import it.

/**
 * `blob` with counted reads: every slice(...).arrayBuffer() records how many chunks had been
 * pushed when it started. `settle(start)` (optional) delays the answer of the read at `start`
 * (a promise), so that reads are surely in flight when a test looks. Reads after the first
 * pass ended (its first 'names' progress report, said before the method names are read
 * back, api/trace.ts; or 'done') are counted apart, as `rereads`: the ring's rules are about
 * the first pass.
 */
export function probedBlob(blob, settle = null) {
  const probe = {
    started: 0,
    settled: 0,
    pushed: 0,
    maxAhead: 0, // the most reads started and not yet pushed, at any read's start
    done: false, // the first pass has ended
    rereads: 0, // reads after it
    /** For push k (0-based): how many reads had started before it returned. */
    startedAtPush: [],
    get inFlight() {
      return this.started - this.settled;
    },
    /** The onProgress to pass to openTrace: counts the pushes. */
    onProgress(p) {
      if (p.phase === 'names' || p.phase === 'done') probe.done = true;
      if (p.phase !== 'reading') return;
      probe.startedAtPush.push(probe.started);
      probe.pushed++;
    },
  };
  probe.blob = {
    size: blob.size,
    slice(start, end) {
      const part = blob.slice(start, end);
      return {
        async arrayBuffer() {
          if (probe.done) {
            probe.rereads++;
            return part.arrayBuffer();
          }
          probe.started++;
          probe.maxAhead = Math.max(probe.maxAhead, probe.started - probe.pushed);
          try {
            const bytes = await part.arrayBuffer();
            if (settle) await settle(start);
            return bytes;
          } finally {
            probe.settled++;
          }
        },
      };
    },
  };
  return probe;
}

/**
 * The ring's rules for a complete read of `chunks` chunks with `ahead` reads ahead.
 * @returns what broke them, [] when nothing did
 */
export function readAheadViolations(probe, { chunks, ahead }) {
  const out = [];
  if (probe.pushed !== chunks) out.push(`${probe.pushed} pushes, expected ${chunks} (one per chunk)`);
  if (probe.started !== chunks) out.push(`${probe.started} reads, expected ${chunks} (each chunk read once)`);
  // Bounded: the chunk awaited next plus `ahead` more, never another.
  if (probe.maxAhead > ahead + 1) out.push(`${probe.maxAhead} reads started and not pushed at once, bound ${ahead + 1}`);
  // Ahead: before push k returned, the reads of chunks k+1 … k+ahead had started.
  probe.startedAtPush.forEach((started, k) => {
    const want = Math.min(chunks, k + 1 + ahead);
    if (started !== want) out.push(`push ${k}: ${started} reads started before it returned, expected ${want}`);
  });
  if (probe.inFlight !== 0) out.push(`${probe.inFlight} reads still in flight after the open`);
  return out;
}

/**
 * The cancel case both tests run: `open` (openTrace with its other options bound) reads `blob`
 * in `chunkSize` chunks, `readAhead` ahead, and is aborted after its second push; reads from
 * the third chunk on answer 200 ms late, so they are surely in flight at the abort and an open
 * that did not wait for them would reject before they settle.
 * @returns the open's outcome (`error`: what it rejected with, undefined when it opened), the
 *   reads in flight when the abort came, and the probe (its counts after the open ended)
 */
export async function cancelAfterSecondPush(open, blob, { chunkSize, readAhead }) {
  const late = (start) => new Promise((resolve) => setTimeout(resolve, start >= 2 * chunkSize ? 200 : 0));
  const probe = probedBlob(blob, late);
  const controller = new AbortController();
  let inFlightAtAbort = -1;
  let error;
  try {
    await open(probe.blob, {
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
  } catch (e) {
    error = e;
  }
  return { error, inFlightAtAbort, probe };
}
