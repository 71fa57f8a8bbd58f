// web/src/engine — the warm-up an engine worker runs before it reports ready
// (engine_worker.ts startEngine): the engine's small written profile opened and asked what the
// app asks of a new trace.
import { openTraceInThread } from '../api/trace.js';
import type { NetTraceModule } from '../nettrace_wasm.mjs';

/**
 * The engine's warm-up profile opened as a dropped File is (Blob.stream() on this thread, the
 * JS API, the bindings), and asked what the app asks of a new trace: a warm-up in C++ alone left
 * the bindings and the JS reading path to compile during the first real open (in Chromium, 23
 * functions compiled on their first call while this same profile was read, 39-65 on the
 * committed traces; docs/performance.md).
 */
export async function warmUp(engine: NetTraceModule): Promise<void> {
  const written = engine.warmUpTrace();
  if (!written.status.ok) return;
  const profile = new Blob([written.bytes]);
  // First read by 64 KiB slices: its blocks straddle chunks for certain, where a File's stream
  // cuts its pieces where it happens to (and a first trace's may straddle where the profile's
  // stream did not).
  (await openTraceInThread(profile, { fileRead: 'slices', chunkSize: 64 << 10 })).close();
  const t = await openTraceInThread(profile);
  try {
    t.summaryJson();
    await t.histogram({});
    await t.runtimeStatsText('gc', 'json');
    await t.runtimeStatsText('jit', 'json');
    await t.flameGraph({});
    await t.events({ limit: 100 });
  } finally {
    t.close();
  }
}

