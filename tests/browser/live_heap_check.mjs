// Browser check of the live page's Heap snapshot button (web/src/analyzer/live_controls.ts →
// POST /live/heap-snapshot → web/src/live/heap_snapshot.ts) against a fake runtime (no dotnet:
// tests/node/fake_runtime.mjs). The runtime answers the live session with a real .NET 10 trace,
// and the second session the button opens (the heap-dump keywords) with a real heap-dump
// recording of tests/apps/HeapGraphs, ended by the StopTracing the snapshot sends once the dump
// is complete. The Heap tab then shows `nettrace heap` of that recording, the live trace stays
// in the other tabs, and the file written beside -o is the runtime's bytes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { testdata } from '../node/helpers.mjs';
import { sessionOk, startLive, withFakeRuntime } from '../node/fake_runtime.mjs';

const fmt = (n) => new Intl.NumberFormat('en-US').format(n);

export async function liveHeapChecks({ browser, check, assert, runNative }) {
  await check('live page: Heap snapshot takes one of the process (heap-dump keywords, stopped when the dump ends) and shows it in the Heap tab', async () => {
    const liveTrace = readFileSync(join(testdata, 'dotnet10/net10-gc-verbose.nettrace'));
    const heapPath = join(testdata, 'heap/heapgraphs-small.nettrace');
    const heapTrace = readFileSync(heapPath);
    const sessions = new Map(); // session id → {socket, rest, providers}
    const answer = (req, socket) => {
      if (req[16] === 0x02 && req[17] === 0x01) {
        const s = sessions.get(Number(req.readBigUInt64LE(20)));
        socket.end(sessionOk(Number(req.readBigUInt64LE(20))));
        s?.socket.end(s.rest);
        return;
      }
      const id = 42 + sessions.size;
      // The request names its providers in UTF-16, each after its keywords (u64) and level (u32).
      const keywords = Buffer.alloc(12);
      keywords.writeBigUInt64LE(0x1980001n);
      keywords.writeUInt32LE(5, 8);
      const providers = req.includes(keywords) && req.includes(Buffer.from('Microsoft-Windows-DotNETRuntime\0', 'utf16le')) ? 'heap-dump' : '';
      const bytes = id === 42 ? liveTrace : heapTrace;
      const first = id === 42 ? bytes.length - 64 * 1024 : bytes.length - 1;
      socket.write(sessionOk(id));
      socket.write(bytes.subarray(0, first));
      sessions.set(id, { socket, rest: bytes.subarray(first), providers });
    };
    await withFakeRuntime(answer, async (dir) => {
      const out = join(dir, 'live.nettrace');
      const live = startLive(dir, ['--pid', String(process.pid), '--port', '0', '-o', out]);
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const pageErrors = [];
      page.on('pageerror', (e) => pageErrors.push(String(e)));
      try {
        const base = await live.url;
        await page.addInitScript(() => {
          globalThis.appRoot = () => document.querySelector('nettrace-analyzer')?.shadowRoot ?? document;
        });
        await page.goto(base);
        await page.waitForSelector('body[data-live="running"]', { timeout: 30_000 });
        await page.click('[data-role="heap-snapshot"]');
        await page.waitForSelector('body[data-heap="shown"]', { timeout: 60_000 });
        const heapSession = sessions.get(43);
        assert(heapSession && heapSession.providers !== '', 'no second session with the runtime\'s heap-dump keywords (0x1980001, level 5)');
        const native = JSON.parse(runNative('heap', heapPath).stdout.toString('utf8'));
        const rows = await page.$$eval('#heap-scroller .vt-row', (trs) => trs.slice(0, 10).map((r) => [...r.children].map((c) => c.textContent)));
        const expected = native.types.slice(0, 10).map((t) => [t.name, t.module, fmt(t.count), fmt(t.size), fmt(t.retained), fmt(t.inclusive)]);
        assert(JSON.stringify(rows) === JSON.stringify(expected), `Heap tab's first rows: ${JSON.stringify(rows[0])} vs ${JSON.stringify(expected[0])}`);
        assert(Number(await page.getAttribute('#heap-scroller', 'data-total')) === native.types.length, 'type count');
        const written = readFileSync(join(dir, `pid-${process.pid}-heap-1.nettrace`));
        assert(written.equals(heapTrace), `the file written: ${written.length} bytes, the runtime sent ${heapTrace.length}`);
        // The live trace is still there beside it.
        assert(await page.isVisible('#tab-summary') && await page.isVisible('#tab-events'), 'the live trace\'s tabs are gone');
        assert(pageErrors.length === 0, `page errors: ${pageErrors.join('; ')}`);
      } finally {
        await page.close();
        for (let i = 0; i < 20 && live.child.exitCode === null; i++) {
          live.child.kill('SIGINT');
          await Promise.race([live.exited, new Promise((r) => setTimeout(r, 500))]);
        }
      }
    });
  });
}
