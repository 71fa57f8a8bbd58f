// Types of ../nettrace_wasm.mjs, the Emscripten module that scripts/build.sh copies next to
// the compiled JS. The hand-written declarations live with the bindings, in
// wasm/nettrace_module.d.ts (the package ships that file as dist/nettrace_wasm.d.mts).
export * from '../../wasm/nettrace_module.js';
export { default } from '../../wasm/nettrace_module.js';
