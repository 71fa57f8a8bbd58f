// Browser checks of the SQL tab (web/src/analyzer/sql_controller.ts): DuckDB-wasm is fetched
// only once the tab is opened (every other tab visited first loads no file of it); over a real
// trace, events per type by SQL equal the Summary's event types table, read through the
// virtualized result table by scrolling it; a link's query runs and two numeric columns are
// charted; cells are text, never markup.
import { join } from 'node:path';

/** The rows of the SQL result table, scrolled through (only the rows in view are in the DOM). */
async function resultRows(page) {
  return page.evaluate(async () => {
    const scroller = appRoot().getElementById('sql-scroller');
    const total = Number(scroller.dataset.rows);
    const rows = new Map();
    for (let top = 0; rows.size < total && top <= scroller.scrollHeight; top += Math.max(24, scroller.clientHeight - 48)) {
      scroller.scrollTop = top;
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      for (const row of appRoot().querySelectorAll('#sql-rows .sql-row')) rows.set(Number(row.dataset.row), [...row.children].map((c) => c.textContent));
    }
    return { total, rows: [...rows.entries()].sort((a, b) => a[0] - b[0]).map((e) => e[1]) };
  });
}

async function runQuery(page, sql) {
  await page.fill('#sql-query', sql);
  await page.evaluate(() => delete appRoot().getElementById('sql-scroller').dataset.ready);
  await page.click('#sql-run');
  await page.waitForSelector('#sql-scroller[data-ready]', { timeout: 60_000 });
  const state = await page.getAttribute('#sql-scroller', 'data-ready');
  if (state !== 'result') throw new Error(`query failed: ${await page.textContent('#sql-status')}`);
}

export async function sqlChecks({ browser, server, check, assert, byName, screenshots }) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.addInitScript(() => {
    globalThis.appRoot = () => document.querySelector('nettrace-analyzer')?.shadowRoot ?? document;
  });
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  // The context's requests include its workers' (the engine's, DuckDB's wasm fetch).
  const requests = [];
  context.on('request', (r) => requests.push(r.url()));
  const duckdbRequests = () => requests.filter((u) => new URL(u).pathname.includes('/duckdb/'));

  await check('SQL tab: no DuckDB file before it is opened; then events per type equal the Summary\'s', async () => {
    const trace = byName('eventpipe-dotnetcore3.0-win-x64-objver4');
    await page.goto(server.url);
    await page.setInputFiles('#file', trace.path);
    await page.waitForSelector('#result[data-state="done"]', { timeout: 60_000 });
    for (const tab of ['events', 'flame', 'diagnostics', 'summary']) {
      await page.click(`#tab-${tab}`);
      await page.waitForTimeout(300);
    }
    assert(requests.length > 0, 'no request seen at all');
    assert(duckdbRequests().length === 0, `DuckDB files loaded before the SQL tab was opened: ${duckdbRequests().join(', ')}`);
    const summary = await page.$$eval('table[data-table="types"] tbody tr', (trs) =>
      trs.map((r) => [...r.cells].slice(0, 4).map((c) => c.textContent)).map(([p, n, id, count]) => `${p}|${n}|${id}|${count.replaceAll(',', '')}`));
    assert(summary.length > 5, `${summary.length} event types in the Summary`);

    await page.click('#tab-sql');
    await page.waitForSelector('#sql-scroller[data-ready]', { timeout: 90_000 });
    assert(duckdbRequests().some((u) => u.endsWith('/duckdb/duckdb-eh.wasm')), `DuckDB's wasm not fetched: ${duckdbRequests().join(', ')}`);
    // Same origin only: no CDN, no extension fetched from extensions.duckdb.org.
    const elsewhere = requests.filter((u) => !u.startsWith('data:') && new URL(u).origin !== new URL(server.url).origin);
    assert(elsewhere.length === 0, `requests to other origins: ${elsewhere.join(', ')}`);
    await runQuery(page, 'SELECT provider, event_name, event_id, COUNT(*) AS n FROM events GROUP BY ALL ORDER BY n DESC, provider, event_name, event_id');
    const { total, rows } = await resultRows(page);
    assert(total === summary.length && rows.length === total, `${total} rows (${rows.length} read), ${summary.length} types in the Summary`);
    const sql = rows.map((r) => r.join('|')).sort();
    const shown = [...summary].sort();
    assert(JSON.stringify(sql) === JSON.stringify(shown), `SQL per type differs from the Summary\n sql:     ${sql.slice(0, 5).join('; ')}\n summary: ${shown.slice(0, 5).join('; ')}`);
    const hash = new URLSearchParams(new URL(page.url()).hash.slice(1));
    assert(hash.get('tab') === 'sql' && hash.get('sql')?.startsWith('SELECT provider, event_name, event_id'), `the query is not in the link: ${page.url()}`);
    await page.screenshot({ path: join(screenshots, 'app-sql.png') });
  });

  await check('SQL tab: a link\'s query runs; two numeric columns are charted; cells are text', async () => {
    const sql = 'SELECT time_ns // 1000000 AS ms, COUNT(*) AS events FROM events GROUP BY ms ORDER BY ms';
    await page.goto('about:blank');
    await page.goto(`${server.url}?sample#tab=sql&sql=${encodeURIComponent(sql)}`);
    await page.waitForSelector('#sql-scroller[data-ready="result"]', { timeout: 90_000 });
    assert(await page.inputValue('#sql-query') === sql, 'the editor does not hold the link\'s query');
    const rows = Number(await page.getAttribute('#sql-scroller', 'data-rows'));
    assert(rows > 10, `${rows} rows`);
    assert(!(await page.$eval('#sql-chart', (c) => c.hidden)), 'no chart for two numeric columns');
    assert(Number(await page.getAttribute('#sql-chart', 'data-points')) === rows, 'the chart does not draw every row');
    await page.screenshot({ path: join(screenshots, 'app-sql-chart.png') });

    const markup = '<img src=x onerror="globalThis.injected=1">';
    await runQuery(page, `SELECT '${markup}' AS text, provider FROM events LIMIT 3`);
    const { rows: cells } = await resultRows(page);
    assert(cells.length === 3 && cells.every((r) => r[0] === markup), `cells ${JSON.stringify(cells)}`);
    assert(await page.evaluate(() => appRoot().querySelector('#sql-rows img') === null && globalThis.injected === undefined), 'a cell became markup');
    assert(await page.$eval('#sql-chart', (c) => c.hidden), 'a chart for a result without two numeric columns');

    await runQuery(page, 'SELECT * FROM no_such_table').catch(() => undefined);
    assert((await page.textContent('#sql-status')).includes('no_such_table'), 'a failing query does not say why');
  });

  await check('SQL tab: no page errors', async () => {
    assert(pageErrors.length === 0, pageErrors.join('\n'));
  });
  await context.close();
}
