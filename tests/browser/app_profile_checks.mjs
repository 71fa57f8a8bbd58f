// Browser checks of the Export menu's pprof and OpenTelemetry profile downloads
// (web/src/analyzer/exports.ts): the files are the native CLI's (`nettrace export --format
// pprof|otlp`), pprof once both are gunzipped (the page gzips with CompressionStream, the CLI
// with zlib), and they follow the flame graph's grouping as `--group-by-module` does.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { clickExport } from './harness.mjs';

export async function profileExportChecks({ page, check, assert, byName, runNative, open, tmp }) {
  const heart = byName('HeartRateMonitor');
  const save = async (format) => {
    const [download] = await Promise.all([page.waitForEvent('download'), clickExport(page, format)]);
    const path = join(tmp, download.suggestedFilename());
    await download.saveAs(path);
    return { name: download.suggestedFilename(), bytes: readFileSync(path) };
  };
  const native = (format, args = []) => {
    const path = join(tmp, `native.${format}`);
    const r = runNative('export', heart.path, ['--format', format, ...args, '-o', path]);
    assert(r.status === 0, `native export ${format}: ${r.stderr}`);
    return readFileSync(path);
  };
  const computed = () =>
    page.waitForFunction(() => !/Computing/.test(appRoot().getElementById('g-message').textContent) && appRoot().querySelector('#g-top tbody tr'), null, { timeout: 30_000 });

  await check('app exports: pprof and OpenTelemetry profile downloads equal the native exports, with the flame graph\'s grouping', async () => {
    await open(heart.path, '#tab=flame');
    await computed();
    const pprof = await save('pprof');
    assert(pprof.name === 'HeartRateMonitor.10068.pb.gz', `file name ${pprof.name}`);
    assert(pprof.bytes[0] === 0x1f && pprof.bytes[1] === 0x8b, 'pprof download is gzip');
    assert(gunzipSync(pprof.bytes).equals(gunzipSync(native('pprof'))), 'pprof differs from `nettrace export --format pprof` (gunzipped)');
    const otlp = await save('otlp');
    assert(otlp.name === 'HeartRateMonitor.10068.otlp.pb', `file name ${otlp.name}`);
    assert(otlp.bytes.equals(native('otlp')), 'OTLP differs from `nettrace export --format otlp`');

    await page.selectOption('#g-group', 'module');
    await page.waitForFunction(() => /group=module/.test(location.hash) || appRoot().getElementById('g-group').value === 'module', null, { timeout: 10_000 });
    await computed();
    const grouped = gunzipSync((await save('pprof')).bytes);
    assert(grouped.equals(gunzipSync(native('pprof', ['--group-by-module']))), 'grouped pprof differs from `--group-by-module`');
    assert(!grouped.equals(gunzipSync(pprof.bytes)), 'grouping changed nothing in the pprof export');
  });
}
