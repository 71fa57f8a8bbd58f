// web/src/engine — instantiates the wasm engine. In browsers and workers the Emscripten
// loader fetches nettrace_wasm.wasm next to nettrace_wasm.mjs (streaming compile). In Node
// that fetch cannot read a file, so the bytes are read here and passed as wasmBinary.
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

/** One engine instance: the shared one, unless `wasmBinary` or `wasmUrl` asks for another. */
export function loadNetTraceModule(options: WasmOptions = {}): Promise<NetTraceModule> {
  if (options.wasmBinary !== undefined || options.wasmUrl !== undefined) return instantiate(options);
  shared ??= instantiate(options).catch((e: unknown) => {
    shared = null; // let a later call try again
    throw e;
  });
  return shared;
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
  }
  return createNetTraceModule(moduleOptions);
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
