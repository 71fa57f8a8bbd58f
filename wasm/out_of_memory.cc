// wasm/ — when the engine's heap cannot grow any more (the module's 4 GB, or what the browser
// grants): a failed operator new throws a JS Error, "nettrace: out of memory", out of the
// call into the engine, instead of abort() ("RuntimeError: Aborted()", which also marks the
// instance as dead). The JS API (web/src/reader/read_trace.ts) turns it into a NetTraceError
// with code "out-of-memory" and the offset read so far, and drops the instance: the C++ state
// it leaves is not used again. With memory growth on, malloc returns null on failure
// (ABORTING_MALLOC is off); libc++ then calls this handler.
#include <emscripten/emscripten.h>

#include <new>

namespace {

// An Error, not emscripten_throw_string's bare string: it carries the JS stack of the call.
EM_JS(void, ThrowOutOfMemory, (), { throw new Error('nettrace: out of memory'); });

void OutOfMemory() {
  ThrowOutOfMemory();
  __builtin_unreachable();
}

// At start-up, before any engine code runs.
[[maybe_unused]] const bool kInstalled = (std::set_new_handler(OutOfMemory), true);

}  // namespace
