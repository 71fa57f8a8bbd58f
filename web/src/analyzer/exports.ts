// web/src/analyzer — the export buttons: each asks the trace shown for one format (with the
// flame graph's stack query, so speedscope and folded export what is drawn; pprof and OTLP
// every sample type) and downloads it. A text export comes a part at a time
// (TraceHandle.exportStream), each part handed to the browser as a Blob at once: the page never
// holds the whole document (a CSV with stack text runs to gigabytes), the browser keeps big
// Blobs on disk. A profile (pprof, OTLP) is small: it comes whole.
import type { ExportOptions, StackQuery, TraceHandle } from '../api/handle.js';
import { download } from '../ui/dom.js';

const EXPORTS = {
  speedscope: { ext: 'speedscope.json', type: 'application/json' },
  chrome: { ext: 'chrome.json', type: 'application/json' },
  folded: { ext: 'folded.txt', type: 'text/plain' },
  csv: { ext: 'csv', type: 'text/csv' },
  'stacks-csv': { ext: 'stacks.csv', type: 'text/csv' },
  pprof: { ext: 'pb.gz', type: 'application/gzip' },
  otlp: { ext: 'otlp.pb', type: 'application/x-protobuf' },
} as const;

export interface ExportHooks {
  /** The trace shown and its file name, or null. */
  shown(): { trace: TraceHandle; name: string } | null;
  stackQuery(): StackQuery;
  /** The Events tab's event type filter: CSV then exports that type with its payload fields as columns. */
  csvEvent?(): { event: string; provider: string } | null;
  onError(e: unknown): void;
}

// pprof / OTLP: every sample type the trace has (a profile viewer switches between them), with
// the flame graph's thread, time range, grouping and folding.
function profileOptions(hooks: ExportHooks): ExportOptions {
  const { event: _event, weight: _weight, ...rest } = hooks.stackQuery();
  return rest;
}

function exportOptions(format: keyof typeof EXPORTS, hooks: ExportHooks, name: string): ExportOptions {
  if (format === 'csv') return csvOptions(hooks);
  if (format === 'pprof' || format === 'otlp') return profileOptions(hooks);
  return { ...hooks.stackQuery(), name };
}

// CSV: one event type with its payload columns when the Events tab filters on one, else every event.
function csvOptions(hooks: ExportHooks): ExportOptions {
  const type = hooks.csvEvent?.() ?? null;
  if (type === null) return { csvPayload: false };
  return type.provider === '' ? { event: type.event } : { event: type.event, provider: type.provider };
}

/** The stream's parts as one Blob, each part a Blob of its own as soon as it arrives. */
async function blobOf(stream: ReadableStream<Uint8Array>, type: string): Promise<Blob> {
  const parts: Blob[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return new Blob(parts, { type });
    parts.push(new Blob([value as Uint8Array<ArrayBuffer>]));
  }
}

/** Wires the `button[data-export]` buttons of `bar`. */
export function wireExports(bar: HTMLElement, hooks: ExportHooks): void {
  for (const button of bar.querySelectorAll<HTMLButtonElement>('button[data-export]')) {
    button.addEventListener('click', () => {
      const format = button.dataset['export'] as keyof typeof EXPORTS;
      const shown = hooks.shown();
      if (shown === null) return;
      button.disabled = true;
      const base = shown.name.replace(/\.(nettrace|netperf)$/i, '');
      const options = exportOptions(format, hooks, shown.name);
      const type = EXPORTS[format].type;
      const data: Promise<Blob | Uint8Array> =
        format === 'pprof' || format === 'otlp' ? shown.trace.export(format, options) : blobOf(shown.trace.exportStream(format, options), type);
      data
        .then((body) => download(body, `${base}.${EXPORTS[format].ext}`, type))
        .catch(hooks.onError)
        .finally(() => (button.disabled = false));
    });
  }
}
