// What the analyzer says of a read that stopped early (web/src/analyzer/read_outcome.ts,
// compiled into build/site by scripts/build.sh): a cancel while reading, a fault, and a
// cancel once every event was read, while method names were read back (api/trace.ts), which
// is not a partial trace: every view has every event, only some frames lack a name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { root } from './helpers.mjs';

const site = (path) => import(pathToFileURL(join(root, 'build/site', path)).href);
const { partialText, summaryTitle, onlyNamesMissing } = await site('analyzer/read_outcome.js');
const { NetTraceError } = await site('api/types.js');
const { NAMES_CANCELLED } = await site('api/trace.js');

test('a cancel while names were read back: every event read, the names incomplete', () => {
  const error = new NetTraceError('cancelled', null, NAMES_CANCELLED);
  assert.equal(onlyNamesMissing(error, true), true);
  const text = partialText(error, 'a.nettrace', 114565, 29_600_000, true);
  assert.equal(text.status, 'Read a.nettrace: 114,565 events; reading back the method names was cancelled.');
  assert.match(text.banner, /^Method names incomplete: .* Every view shows all 114,565 events, but frames of the methods whose names were not read back show their module and method id/);
  assert.doesNotMatch(text.banner, /Partial trace/);
  assert.equal(summaryTitle(error, 114565, true), 'Summary');
});

test('a cancel while reading and a fault are partial traces, at their offset', () => {
  const cancelled = new NetTraceError('cancelled', 1048576, 'reading was cancelled');
  assert.equal(onlyNamesMissing(cancelled, false), false);
  const text = partialText(cancelled, 'a.nettrace', 5000, 29_600_000, false);
  assert.match(text.status, /^Cancelled at byte offset 1,048,576 of .*: 5,000 events read\.$/);
  assert.match(text.banner, /^Partial trace: reading was cancelled at byte offset 1,048,576/);
  assert.equal(summaryTitle(cancelled, 5000, false), 'Summary of what was read before Cancel');

  const truncated = new NetTraceError('truncated', 300000, 'the stream ended inside a block');
  assert.equal(onlyNamesMissing(truncated, false), false);
  assert.match(partialText(truncated, 'cut.nettrace', 900, 0, false).banner, /^Partial trace: reading stopped at byte offset 300,000 \(truncated: /);
  assert.equal(summaryTitle(truncated, 900, false), 'Summary of what was read before the error');
  assert.equal(summaryTitle(null, 900, true), 'Summary');
});
