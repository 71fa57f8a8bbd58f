// web/src/engine — instantiates the wasm engine. In browsers and workers the shared instance
// comes from a compiled WebAssembly.Module: the one an earlier engine worker compiled (the page
// passes it on), else compiled here from nettrace_wasm.wasm next to nettrace_wasm.mjs (streaming
// compile), and kept to be passed on. In Node a fetch cannot read a file, so the bytes are read
// here and passed as wasmBinary.
import createNetTraceModule from '../nettrace_wasm.mjs';
import type { NetTraceModule, NetTraceModuleOptions, RawHeapStats } from '../nettrace_wasm.mjs';

export interface WasmOptions {
  /** The .wasm bytes; skips fetching. */
  wasmBinary?: ArrayBuffer | Uint8Array;
  /** Where to fetch the .wasm from; default: next to nettrace_wasm.mjs. */
  wasmUrl?: string | URL;
}

/** The module instance shared by every trace opened without wasm options (one heap). */
let shared: Promise<NetTraceModule> | null = null;

/**
 * The compiled engine of this thread's shared instance (browsers and workers): kept so that the
 * page can hand it to the next engine worker (engine/worker_client.ts), whose instance then
 * shares its code, already optimized by the browser, instead of compiling it again.
 */
let compiled: Promise<WebAssembly.Module> | null = null;

/**
 * The shared instance, made later, is made from `module` (compiled by another worker and
 * posted here): no fetch, no compile. Ignored once the shared instance exists.
 */
export function useCompiledEngine(module: WebAssembly.Module): void {
  if (shared === null) compiled = Promise.resolve(module);
}

/** The compiled engine behind the shared instance; null in Node, or before it was loaded. */
export function compiledEngine(): Promise<WebAssembly.Module | null> {
  return compiled ?? Promise.resolve(null);
}

/** The shared instance once made (discardEngine compares with it). */
let sharedModule: NetTraceModule | null = null;

/** One engine instance: the shared one, unless `wasmBinary` or `wasmUrl` asks for another. */
export function loadNetTraceModule(options: WasmOptions = {}): Promise<NetTraceModule> {
  if (options.wasmBinary !== undefined || options.wasmUrl !== undefined) return instantiate(options);
  shared ??= instantiate(options).then(
    (m) => (sharedModule = m),
    (e: unknown) => {
      shared = null; // let a later call try again
      throw e;
    },
  );
  return shared;
}

/**
 * Forgets an instance that ran out of memory (read_trace.ts isOutOfMemory): a call into it
 * stopped half way and its heap is at its limit, so the next trace gets a new instance and
 * this one is left to the garbage collector with the sessions it holds.
 */
export function discardEngine(M: NetTraceModule): void {
  if (sharedModule === M) shared = null, (sharedModule = null);
}

/** Heap figures of the shared engine instance (loading it if needed): leak checks, memory use. */
export async function engineHeapStats(): Promise<RawHeapStats> {
  return (await loadNetTraceModule()).heapStats();
}

async function instantiate(options: WasmOptions): Promise<NetTraceModule> {
  const moduleOptions: NetTraceModuleOptions = {};
  if (options.wasmBinary !== undefined) {
    moduleOptions.wasmBinary = options.wasmBinary;
  } else if (options.wasmUrl !== undefined) {
    const href = String(options.wasmUrl);
    moduleOptions.locateFile = (path, prefix) => (path.endsWith('.wasm') ? href : prefix + path);
  } else if (isNode()) {
    moduleOptions.wasmBinary = await readNodeFile(new URL('../nettrace_wasm.wasm', import.meta.url));
  } else {
    return instantiateCompiled(moduleOptions);
  }
  return createNetTraceModule(moduleOptions);
}

/**
 * The shared instance in a browser or worker: from the compiled engine given to this thread
 * (useCompiledEngine), else compiled here from nettrace_wasm.wasm next to nettrace_wasm.mjs, as
 * Emscripten's loader would, and kept (compiledEngine). A failure rejects, and a later call
 * compiles again.
 */
function instantiateCompiled(moduleOptions: NetTraceModuleOptions): Promise<NetTraceModule> {
  const module = (compiled ??= compileEngine(new URL('../nettrace_wasm.wasm', import.meta.url)));
  module.catch(() => {
    if (compiled === module) compiled = null;
  });
  let fail: (reason: unknown) => void = () => undefined;
  const failed = new Promise<never>((_, reject) => (fail = reject));
  moduleOptions.instantiateWasm = (imports, receive) => {
    module
      .then(async (m) => receive(await WebAssembly.instantiate(m, imports), m))
      .catch(fail);
    return {};
  };
  return Promise.race([createNetTraceModule(moduleOptions), failed]);
}

async function compileEngine(url: URL): Promise<WebAssembly.Module> {
  const response = await fetch(url, { credentials: 'same-origin' });
  if (!response.ok) throw new Error(`cannot load the engine from ${url.href}: HTTP ${response.status}`);
  // Streaming compilation (while the bytes arrive) needs the server's application/wasm type.
  const type = response.headers.get('content-type') ?? '';
  if (typeof WebAssembly.compileStreaming === 'function' && type.startsWith('application/wasm')) {
    return WebAssembly.compileStreaming(response);
  }
  return WebAssembly.compile(await response.arrayBuffer());
}

function isNode(): boolean {
  const process = (globalThis as { process?: { versions?: { node?: string } } }).process;
  return typeof process?.versions?.node === 'string';
}

async function readNodeFile(url: URL): Promise<Uint8Array> {
  // A computed specifier keeps browser bundlers from trying to resolve a Node built-in.
  const specifier: string = 'node:fs/promises';
  const fs = (await import(/* @vite-ignore */ specifier)) as { readFile(path: URL): Promise<Uint8Array> };
  return fs.readFile(url);
}
