// web/src/analyzer — the page `nettrace-analyzer live` serves (web/src/live/live_server.ts):
// the analyzer reading the session's HTTP stream (/live/stream) as it is recorded, and a bar
// above it: what is happening, Refresh flame graph (the flame graph weighs every stack, so it
// is computed when asked, not at each snapshot), Stop recording (StopTracing: the runtime
// writes the rundown, which names the methods, and ends the stream; the one control that ends
// the session: the analyzer shows no progress bar or Cancel of its own for a live read), and
// once the stream has ended, the .nettrace to download.
// The server's answers are data: shown with textContent only. The server serves the
// session's data and Stop only with the session's token (web/src/live/local_guard.ts), which
// it puts in this page's HTML: a header on fetches, the query of the stream and download URLs.
import './element.js';
import { h } from '../ui/dom.js';

const found = document.querySelector('nettrace-analyzer');
const bar = document.getElementById('live-bar');
if (found === null || bar === null) throw new Error('the live page needs #live-bar and <nettrace-analyzer>');
const analyzer = found;
const token = document.querySelector<HTMLMetaElement>('meta[name="nettrace-live-token"]')?.content ?? '';
const withToken = (path: string) => `${path}?token=${encodeURIComponent(token)}`;
const tokenHeader = { 'x-nettrace-token': token };

const stateText = h('span', { attrs: { 'data-role': 'state' } });
const stop = h('button', {
  text: 'Stop recording',
  attrs: { type: 'button', 'data-role': 'stop', title: 'Ends the session: the runtime writes the method names (its rundown) and the trace opens complete' },
});
const refresh = h('button', { attrs: { type: 'button', 'data-role': 'refresh-flame' } });
refresh.textContent = 'Refresh flame graph';
const heap = h('button', {
  text: 'Heap snapshot',
  attrs: { type: 'button', 'data-role': 'heap-snapshot', title: 'Takes a heap snapshot of the process (an induced gen-2 GC walks its heap, as dotnet-gcdump does) and opens it in the Heap tab' },
});
const download = h('a', { attrs: { 'data-role': 'download', href: withToken('/live/trace.nettrace') } });
download.hidden = true;
bar.replaceChildren(h('strong', { text: 'Live session' }), stateText, stop, refresh, heap, download);

interface LiveInfo {
  pid: number;
  sessionId: string;
  ended: boolean;
}

async function info(): Promise<LiveInfo> {
  const response = await fetch('/live/info', { cache: 'no-store', headers: tokenHeader });
  if (!response.ok) throw new Error(`/live/info: HTTP ${response.status}`);
  return (await response.json()) as LiveInfo;
}

stop.addEventListener('click', () => {
  stop.disabled = true;
  stateText.textContent = 'Stopping: the runtime writes the rundown…';
  void fetch('/live/stop', { method: 'POST', headers: tokenHeader }).then((response) => {
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
  }).catch((e: unknown) => {
    stop.disabled = false;
    stateText.textContent = `Stop failed: ${e instanceof Error ? e.message : String(e)}`;
  });
});
refresh.addEventListener('click', () => analyzer.refreshFlame());
heap.addEventListener('click', () => {
  heap.disabled = true;
  document.body.dataset['heap'] = 'taking';
  void fetch('/live/heap-snapshot', { method: 'POST', headers: tokenHeader })
    .then(async (response) => {
      if (!response.ok) throw new Error(`HTTP ${response.status}: ${await response.text()}`);
      const file = decodeURIComponent(response.headers.get('x-nettrace-heap-file') ?? 'heap.nettrace');
      await analyzer.showHeap(await response.blob(), file);
      document.body.dataset['heap'] = 'shown';
    })
    .catch((e: unknown) => {
      stateText.textContent = `Heap snapshot failed: ${e instanceof Error ? e.message : String(e)}`;
      document.body.dataset['heap'] = 'error';
    })
    .finally(() => (heap.disabled = false));
});

async function run(): Promise<void> {
  // The session may still be starting (a reverse port waits for its runtime): ask until it runs.
  let session = await info();
  while (session.sessionId === '') {
    stateText.textContent = 'Waiting for the session to start…';
    await new Promise((resolve) => setTimeout(resolve, 250));
    session = await info();
  }
  const name = `pid ${session.pid} (live session ${session.sessionId})`;
  stateText.textContent = `Recording pid ${session.pid}…`;
  document.body.dataset['live'] = 'running';
  await analyzer.openLive(withToken('/live/stream'), name);
  // The stream has ended (Stop, the duration, or the program exited): the file is complete.
  stop.disabled = true;
  stateText.textContent = `Session ended (pid ${session.pid}).`;
  download.download = `pid-${session.pid}-live.nettrace`;
  download.textContent = 'Download .nettrace';
  download.hidden = false;
  document.body.dataset['live'] = 'ended';
}

run().catch((e: unknown) => {
  stateText.textContent = `Failed: ${e instanceof Error ? e.message : String(e)}`;
  document.body.dataset['live'] = 'error';
});
