// web/src — the drop-a-file page: a drop zone, a file picker and a sample button feed the
// engine worker; progress and the summary are shown as text. Trace strings are data: every
// value reaches the DOM through textContent, never as HTML.
import type { Progress, Summary } from './api/types.js';
import { NetTraceError } from './api/types.js';
import type { TraceHandle } from './api/handle.js';
import { openTraceInWorker } from './engine/worker_client.js';

const SAMPLE_URL = 'samples/only_managed_samples.nettrace';

function $<T extends HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (element === null) throw new Error(`#${id} is missing from index.html`);
  return element as T;
}

const drop = $<HTMLElement>('drop');
const fileInput = $<HTMLInputElement>('file');
const sampleButton = $<HTMLButtonElement>('sample');
const cancelButton = $<HTMLButtonElement>('cancel');
const progressBar = $<HTMLProgressElement>('progress');
const progressText = $<HTMLElement>('progress-text');
const statusLine = $<HTMLElement>('status');
const result = $<HTMLElement>('result');
const resultTitle = $<HTMLElement>('result-title');
const headline = $<HTMLElement>('headline');
const summaryPre = $<HTMLElement>('summary');

/** The trace shown; closed (its worker ended) when another one is opened. */
let shown: TraceHandle | null = null;
let current: AbortController | null = null;

const numberFormat = new Intl.NumberFormat('en-US');
function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

function showProgress(p: Progress, progressCount: number): void {
  progressBar.hidden = false;
  progressBar.max = Math.max(1, p.total);
  progressBar.value = p.bytes;
  progressText.textContent =
    `${formatBytes(p.bytes)} of ${formatBytes(p.total)} · ${numberFormat.format(p.events)} events`;
  result.dataset['progressCount'] = String(progressCount);
}

function addRow(term: string, value: string): void {
  const dt = document.createElement('dt');
  dt.textContent = term;
  const dd = document.createElement('dd');
  dd.textContent = value;
  headline.append(dt, dd);
}

/** summary.a.b.c when it is there, else undefined: the summary is data, not a promise. */
function field(summary: unknown, ...path: string[]): unknown {
  let value: unknown = summary;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

function showSummary(name: string, size: number, summary: Summary | null, seconds: number, partial = false): void {
  headline.replaceChildren();
  resultTitle.hidden = summary === null;
  resultTitle.textContent = partial ? 'Summary of what was read before the error' : 'Summary';
  addRow('File', name);
  addRow('Size', `${formatBytes(size)} (${numberFormat.format(size)} bytes)`);
  addRow('Read in', `${seconds.toFixed(2)} s (${(size / (1024 * 1024) / Math.max(seconds, 1e-6)).toFixed(1)} MiB/s)`);
  if (summary !== null) {
    const container = field(summary, 'format', 'container');
    const major = field(summary, 'format', 'major');
    if (typeof container === 'string') addRow('Format', typeof major === 'number' ? `${container}, version ${major}` : container);
    const pid = field(summary, 'trace', 'processId');
    if (typeof pid === 'number') addRow('Process id', String(pid));
    const start = field(summary, 'timeRange', 'startUtc');
    if (typeof start === 'string') addRow('Started', start);
    const duration = field(summary, 'timeRange', 'durationMs');
    if (typeof duration === 'number') addRow('Duration', `${(duration / 1000).toFixed(3)} s`);
    addRow('Events', numberFormat.format(summary.eventCount));
    for (const [label, key] of [['Event types', 'types'], ['Providers', 'providers'], ['Threads', 'threads']] as const) {
      const list = summary[key];
      if (Array.isArray(list)) addRow(label, numberFormat.format(list.length));
    }
  }
  summaryPre.textContent = summary === null ? '' : JSON.stringify(summary, null, 2);
}

async function load(file: Blob, name: string): Promise<void> {
  current?.abort();
  const controller = new AbortController();
  current = controller;
  let progressCount = 0;
  result.dataset['state'] = 'reading';
  result.dataset['progressCount'] = '0';
  statusLine.classList.remove('error');
  statusLine.textContent = `Reading ${name}…`;
  headline.replaceChildren();
  summaryPre.textContent = '';
  resultTitle.hidden = true;
  cancelButton.hidden = false;
  const started = performance.now();
  try {
    const opened = await openTraceInWorker(file, {
      signal: controller.signal,
      onProgress: (p) => showProgress(p, ++progressCount),
    });
    if (current !== controller) {
      opened.close();
      return;
    }
    shown?.close();
    shown = opened;
    const seconds = (performance.now() - started) / 1000;
    statusLine.textContent = `Read ${name}: ${numberFormat.format(opened.summary().eventCount)} events.`;
    showSummary(name, file.size, opened.summary(), seconds);
    result.dataset['state'] = 'done';
  } catch (e) {
    if (current !== controller) return;
    const seconds = (performance.now() - started) / 1000;
    statusLine.classList.add('error');
    if (e instanceof NetTraceError) {
      const where = e.offset === null ? '' : ` at byte offset ${numberFormat.format(e.offset)}`;
      const kept = e.partial === null ? '' : ' The summary below is what was read before that point.';
      statusLine.textContent =
        e.code === 'cancelled' ? 'Cancelled.' : `Could not read all of ${name}: ${e.code}${where}: ${e.reason}.${kept}`;
      showSummary(name, file.size, e.partial, seconds, true);
    } else {
      statusLine.textContent = `Failed: ${e instanceof Error ? e.message : String(e)}`;
    }
    result.dataset['state'] = 'error';
  } finally {
    if (current === controller) {
      cancelButton.hidden = true;
      current = null;
    }
  }
}

async function loadSample(): Promise<void> {
  statusLine.classList.remove('error');
  statusLine.textContent = 'Downloading the sample trace…';
  const response = await fetch(SAMPLE_URL);
  if (!response.ok) throw new Error(`cannot fetch the sample trace: HTTP ${response.status}`);
  const name = SAMPLE_URL.slice(SAMPLE_URL.lastIndexOf('/') + 1);
  await load(await response.blob(), name);
}

function reportUnexpected(e: unknown): void {
  statusLine.classList.add('error');
  statusLine.textContent = `Failed: ${e instanceof Error ? e.message : String(e)}`;
  result.dataset['state'] = 'error';
}

fileInput.addEventListener('change', () => {
  const file = fileInput.files?.[0];
  if (file !== undefined) load(file, file.name).catch(reportUnexpected);
  fileInput.value = '';
});
sampleButton.addEventListener('click', () => void loadSample().catch(reportUnexpected));
cancelButton.addEventListener('click', () => current?.abort());
drop.addEventListener('dragover', (e) => {
  e.preventDefault();
  drop.classList.add('over');
});
drop.addEventListener('dragleave', () => drop.classList.remove('over'));
drop.addEventListener('drop', (e) => {
  e.preventDefault();
  drop.classList.remove('over');
  const file = e.dataTransfer?.files[0];
  if (file !== undefined) load(file, file.name).catch(reportUnexpected);
});

// `npm start` opens the page with ?sample so that it shows a real trace right away.
if (new URLSearchParams(location.search).has('sample')) void loadSample().catch(reportUnexpected);
