// web/src/engine — the warm-up an engine worker runs before it reports ready
// (engine_worker.ts startEngine): the engine's small written profile opened and asked what the
// app asks of a new trace.
import { openTraceInThread } from '../api/trace.js';
import type { NetTraceModule } from '../nettrace_wasm.mjs';

/**
 * The engine's warm-up profile opened as a dropped File is (Blob.stream() on this thread, the
 * JS API, the bindings), and asked what the app asks of a new trace: a warm-up in C++ alone left
 * the bindings and the JS reading path to compile during the first real open (in Chromium,
 * 39-72 functions compiled on their first call while it read, on every committed trace).
 */
export async function warmUp(engine: NetTraceModule): Promise<void> {
  const written = engine.warmUpTrace();
  if (!written.status.ok) return;
  const t = await openTraceInThread(new Blob([written.bytes]));
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

