// Test-only generator: rewrites a real NetPerf version 3 trace (.NET Core 2.1) into the
// NetPerf version 1 or 2 layout (.NET Core 2.0), event for event, from the documented
// facts (README.md in this folder). There is no real v1/v2 file to test with.
//
//   node tests/netperf_legacy/make_v1_v2.mjs IN.netperf[.gz] VERSION OUT.netperf
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

const [input, versionArg, output] = process.argv.slice(2);
const version = Number(versionArg);
if (!input || !output || (version !== 1 && version !== 2)) {
  console.error('usage: make_v1_v2.mjs IN.netperf[.gz] 1|2 OUT.netperf');
  process.exit(2);
}
let src = readFileSync(input);
if (input.endsWith('.gz')) src = gunzipSync(src);

// ---- read the v3 file -------------------------------------------------------------------
let at = 0;
const u8 = () => src[at++];
const i32 = () => { const v = src.readInt32LE(at); at += 4; return v; };
const expect = (cond, what) => { if (!cond) throw new Error(`${what} at offset ${at}`); };

expect(i32() === 20 && src.toString('latin1', at, at + 20) === '!FastSerialization.1', 'not NetPerf');
at += 20;
function typeHeader() {
  expect(u8() === 4 && u8() === 4 && u8() === 1, 'object header');
  const ver = i32(); i32();
  const name = src.toString('latin1', at + 4, at + 4 + src.readInt32LE(at));
  at += 4 + name.length;
  expect(u8() === 6, 'type end');
  return { ver, name };
}
const trace = typeHeader();
expect(trace.name === 'Trace' && trace.ver === 3, 'Trace object version 3');
const startFields = src.subarray(at, at + 16 + 8 + 8);  // SYSTEMTIME, start timestamp, frequency
at += 16 + 8 + 8 + 4 + 4 + 4 + 4;                       // + pointer size, pid, processors, rate
expect(u8() === 6, 'Trace end');

const rows = [];
while (src[at] !== 1) {
  expect(typeHeader().name === 'EventBlock', 'EventBlock');
  const size = i32();
  at += (4 - (at % 4)) % 4;
  const end = at + size;
  while (at < end) {
    const eventSize = src.readInt32LE(at);
    rows.push(src.subarray(at, at + 4 + eventSize));
    at += 4 + eventSize;
  }
  expect(u8() === 6, 'EventBlock end');
}

// ---- provider GUIDs (version 1 names providers by GUID only) ---------------------------
const KNOWN = {
  'Microsoft-Windows-DotNETRuntime': 'e13c0d23-ccbc-4e12-931b-d9cc2eee27e4',
  'Microsoft-Windows-DotNETRuntimeRundown': 'a669021c-c450-4609-a035-5af59af4df18',
  'Microsoft-Windows-DotNETRuntimePrivate': '763fd754-7086-4dfe-95eb-c01a46faf4ca',
  'Microsoft-Windows-DotNETRuntimeStress': 'cc2bcbba-16b6-4cf3-8990-d74c2e8af500',
  'System.Threading.Tasks.TplEventSource': '2e5dba47-a3d2-4d16-8ee0-6671ffdcd7b5',
  'System.Diagnostics.Eventing.FrameworkEventSource': '8e9f5090-2d75-4d03-8a81-e5afbf85daf1',
  'Microsoft-DotNETCore-SampleProfiler': '3c530d44-97ae-513a-1e6d-783e8f8e03a9',
};
function guidBytes(text) {  // a GUID's 16 bytes as Guid.ToByteArray() lays them out
  const h = text.replace(/-/g, '');
  const b = Buffer.from(h, 'hex');
  return Buffer.concat([Buffer.from(b.subarray(0, 4)).reverse(), Buffer.from(b.subarray(4, 6)).reverse(),
    Buffer.from(b.subarray(6, 8)).reverse(), b.subarray(8)]);
}
function providerGuid(name) {
  if (KNOWN[name]) return guidBytes(KNOWN[name]);
  // EventSource's name hash (EventSource.GetGuid): SHA-1 over a fixed namespace and the
  // upper-cased name in UTF-16 big-endian, 16 bytes, version nibble 5.
  const ns = Buffer.from([0x48, 0x2C, 0x2D, 0xB2, 0xC3, 0x90, 0x47, 0xC8, 0x87, 0xF8, 0x1A, 0x15, 0xBF, 0xC1, 0x30, 0xFB]);
  const be = Buffer.from(name.toUpperCase(), 'utf16le').swap16();
  const hash = createHash('sha1').update(ns).update(be).digest().subarray(0, 16);
  hash[7] = (hash[7] & 0x0F) | 0x50;
  return Buffer.from(hash);
}
function utf16z(buf, from) {  // end (exclusive, after the NUL) of a NUL-terminated UTF-16 string
  let p = from;
  while (buf.readUInt16LE(p) !== 0) p += 2;
  return p + 2;
}

// ---- write the v1/v2 file ---------------------------------------------------------------
const parts = [];
let pos = 0;
const put = (b) => { parts.push(b); pos += b.length; };
const int = (v) => { const b = Buffer.alloc(4); b.writeInt32LE(v); return b; };
const name = Buffer.from('Microsoft.DotNet.Runtime.EventPipeFile', 'latin1');
put(int(20)); put(Buffer.from('!FastSerialization.1', 'latin1'));
put(Buffer.from([4, 4, 1])); put(int(version)); put(int(0)); put(int(name.length)); put(name); put(Buffer.from([6]));
put(int(0));            // forward reference 0: the end of the events
put(startFields);

const labels = new Map();  // v3 metadata id -> stream position of its v1/v2 metadata event
let events = 0, metadata = 0;
for (const row of rows) {
  const metaId = row.readInt32LE(4);
  const payloadSize = row.readInt32LE(52);
  let payload = row.subarray(56, 56 + payloadSize);
  const stackSize = row.readInt32LE(56 + payloadSize);
  const stack = row.subarray(60 + payloadSize, 60 + payloadSize + stackSize);
  let label = 0;
  if (metaId === 0) {
    // v3: int MetadataId, UTF-16 provider name, then the event description (EventId, name,
    // keywords, version, level, fields). v1: provider GUID, v2: UTF-16 provider name; then
    // EventId, Version, the description's length and the description.
    const id = payload.readInt32LE(0);
    const nameEnd = utf16z(payload, 4);
    const provider = payload.toString('utf16le', 4, nameEnd - 2);
    const body = payload.subarray(nameEnd);
    const eventId = body.readInt32LE(0);
    const eventVersion = body.readInt32LE(utf16z(body, 4) + 8);
    payload = Buffer.concat([version === 1 ? providerGuid(provider) : payload.subarray(4, nameEnd),
      int(eventId), int(eventVersion), int(body.length), body]);
    labels.set(id, pos);
    ++metadata;
  } else {
    label = labels.get(metaId);
    expect(label !== undefined, `metadata id ${metaId} unknown`);
    ++events;
  }
  const head = Buffer.alloc(56);
  head.writeInt32LE(4 + 4 + 8 + 32 + 4 + payload.length + 4 + stack.length, 0);
  head.writeInt32LE(label, 4);
  row.copy(head, 8, 8, 52);  // thread, timestamp, activity ids
  head.writeInt32LE(payload.length, 52);
  put(head); put(payload); put(int(stack.length)); put(stack);
}
const endOfEvents = pos;
put(Buffer.from([6]));  // EndObject of the EventPipeFile object
const table = pos;
put(int(1)); put(int(endOfEvents));
const trailer = pos;
put(int(table)); put(int(trailer));
writeFileSync(output, Buffer.concat(parts));
console.log(`${output}: NetPerf version ${version}, ${metadata} metadata and ${events} events, ${pos} bytes, events end at ${endOfEvents}`);
