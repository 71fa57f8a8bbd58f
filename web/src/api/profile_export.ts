// web/src/api — the profile exports (docs/exports.md): the engine writes pprof's profile.proto
// or an OpenTelemetry profiles request a part at a time (wasm/profile_bindings.cc); pprof's
// parts are gzipped here, since Emscripten 3.1.6 has no zlib port offline (the native CLI
// gzips with zlib: both gunzip to the same bytes); an OTLP request can be POSTed to a
// collector (OTLP/HTTP, binary protobuf).
import type { NetTraceModule, RawTraceSession } from '../nettrace_wasm.mjs';
import type { ExportOptions, ProfileExportFormat } from './handle.js';
import { NetTraceError } from './types.js';

/** Bytes the engine is asked for at a time. */
const PART_BYTES = 1 << 20;
/** The OTLP/HTTP path of profiles (opentelemetry-proto's profiles_service_http.yaml). */
export const OTLP_PROFILES_PATH = '/v1development/profiles';

/** The engine's parts of a profile export, each a JS-owned copy, produced as they are read. */
export async function* profileParts(
  M: NetTraceModule,
  session: RawTraceSession,
  format: ProfileExportFormat,
  options: ExportOptions,
): AsyncGenerator<Uint8Array> {
  // The text exports' own options and the push target are not the engine's.
  const { name: _name, stackText: _stackText, speedscope: _speedscope, csvPayload: _csvPayload, otlpEndpoint: _otlp, ...query } = options;
  const profile = new M.ProfileExport(session, format, JSON.stringify(query));
  try {
    if (!profile.ok()) throw new NetTraceError('invalid-argument', null, profile.message());
    for (let part = profile.next(PART_BYTES); part !== null; part = profile.next(PART_BYTES)) yield part;
  } finally {
    profile.delete();
  }
}

/** The parts gzipped (CompressionStream, in browsers and Node 18+), one gzip member. */
export async function* gzipParts(parts: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  const gzip = new CompressionStream('gzip');
  const writer = gzip.writable.getWriter();
  const feeding = (async () => {
    try {
      // The parts are copies out of the wasm heap (ArrayBuffer-backed), as the stream's type wants.
      for await (const part of parts) await writer.write(part as Uint8Array<ArrayBuffer>);
      await writer.close();
    } catch (e) {
      await writer.abort(e).catch(() => undefined);
      throw e;
    }
  })();
  const reader = gzip.readable.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      yield value;
    }
    await feeding;
  } finally {
    reader.releaseLock();
    await feeding.catch(() => undefined);
  }
}

/** Every part as one array. */
export async function collectParts(parts: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const part of parts) chunks.push(part), (size += part.length);
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) out.set(chunk, at), (at += chunk.length);
  return out;
}

/** The collector's URL for profiles: a URL ending in the profiles path as it is, else its base with the path appended (as OTLP exporters treat a base endpoint). */
export function otlpProfilesUrl(endpoint: string): string {
  const url = new URL(endpoint);
  const path = url.pathname.replace(/\/+$/, '');
  url.pathname = path.endsWith(OTLP_PROFILES_PATH) ? path : path + OTLP_PROFILES_PATH;
  return url.toString();
}

/** POSTs an OTLP profiles request (OTLP/HTTP, binary protobuf); a non-2xx answer is an error. */
export async function pushOtlp(endpoint: string, body: Uint8Array, signal?: AbortSignal): Promise<void> {
  const url = otlpProfilesUrl(endpoint);
  let response: Response;
  try {
    response = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/x-protobuf' }, body: body as Uint8Array<ArrayBuffer>, signal: signal ?? null });
  } catch (e) {
    throw new NetTraceError('output', null, `POST ${url}: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (!response.ok) {
    const detail = (await response.text().catch(() => '')).slice(0, 300);
    throw new NetTraceError('output', null, `the collector at ${url} answered ${response.status} ${response.statusText}${detail ? `: ${detail}` : ''}`);
  }
}
