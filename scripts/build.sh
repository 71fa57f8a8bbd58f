#!/usr/bin/env bash
# Builds everything, incrementally:
#   build/native/   the native engine, the `nettrace` CLI, the Catch2 tests, testdata/ (unpacked corpus)
#   build/wasm/     the engine compiled with em++: wasm/nettrace_wasm.mjs + .wasm
#   build/site/     the static web app: index.html, compiled TS, the wasm module, a sample trace
#   dist/           the npm package contents (in-thread API + .d.ts + the wasm module)
# Run scripts/setup.sh first on a fresh machine (npm test / npm start do).
#   --package   only what the npm package needs (wasm, dist/): `npm pack`'s prepack step.
#   --configure only configure build/native and build/wasm (what scripts/moved_checkout_check.sh
#               runs in a moved checkout).
# A tree this checkout did not make (a moved or copied checkout, a compiler that is gone) is
# cleared and configured again (fresh_cmake_tree, scripts/lib.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

# With ccache installed (setup.sh installs it), compiles go through it, with paths below the
# checkout written relative to the build tree: a copy or a move of the checkout, and the
# moved-checkout test's two builds, are then the same cache entries as this one. A launcher
# already chosen by the caller is kept.
if command -v ccache >/dev/null 2>&1 && [ -z "${CMAKE_CXX_COMPILER_LAUNCHER:-}" ]; then
  export CMAKE_CXX_COMPILER_LAUNCHER=ccache CMAKE_C_COMPILER_LAUNCHER=ccache
  export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$PWD}
fi

configure_native() {
  fresh_cmake_tree build/native
  cmake -S . -B build/native -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
}

native() {
  configure_native
  cmake --build build/native
}

configure_wasm() {
  # Debian's emscripten finds its JS dependencies (acorn) only through NODE_PATH. emcmake's
  # default emulator passes a flag node 20 rejects, hence the explicit one.
  export NODE_PATH=/usr/share/nodejs
  fresh_cmake_tree build/wasm
  emcmake cmake -S . -B build/wasm -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CROSSCOMPILING_EMULATOR=/usr/bin/node >/dev/null
}

wasm() {
  configure_wasm
  cmake --build build/wasm
}

# DuckDB-wasm for the SQL tab, in DEST/duckdb/ (served beside the page, shipped in the package;
# docs/sql-tab.md): web/sql_libraries.mjs bundled into one ES module (the page has no bundler
# and the browser cannot resolve a bare import), DuckDB's worker and its wasm (the
# exception-handling build only: every browser with wasm exceptions loads it).
duckdb_assets() {
  local from=node_modules/@duckdb/duckdb-wasm/dist
  mkdir -p "$1/duckdb"
  node_modules/.bin/rolldown web/sql_libraries.mjs --format esm --minify --file "$1/duckdb/sql_libraries.mjs" --logLevel silent >/dev/null
  cp "$from/duckdb-browser-eh.worker.js" "$from/duckdb-eh.wasm" "$1/duckdb/"
}

site() {
  local tsc=node_modules/.bin/tsc
  rm -rf build/site dist
  # The page and the worker need different libs (DOM vs WebWorker): two configs, one output.
  "$tsc" -p tsconfig.json
  "$tsc" -p tsconfig.worker.json
  cp web/index.html web/page.css web/analyzer.css build/site/
  cp build/wasm/wasm/nettrace_wasm.mjs build/wasm/wasm/nettrace_wasm.wasm build/site/
  mkdir -p build/site/samples
  gzip -dc tests/data/only_managed_samples.nettrace.gz >build/site/samples/only_managed_samples.nettrace
  duckdb_assets build/site

  # The npm package: the in-thread API with declarations, next to the wasm module.
  "$tsc" -p tsconfig.pkg.json
  cp build/wasm/wasm/nettrace_wasm.mjs build/wasm/wasm/nettrace_wasm.wasm web/analyzer.css dist/
  cp wasm/nettrace_module.d.ts dist/nettrace_wasm.d.mts
  duckdb_assets dist
  # The bin: a Node CLI over the package API (plain ESM, imports ../index.js).
  mkdir -p dist/bin
  cp web/bin/nettrace-analyzer.mjs dist/bin/
  chmod +x dist/bin/nettrace-analyzer.mjs
}

case ${1:-} in
  '') step "native build (build/native)" native ;;
  --package) ;;
  --configure)
    step "configure build/native" configure_native
    step "configure build/wasm" configure_wasm
    exit 0 ;;
  *) echo "build.sh: unknown argument '$1' (nothing, --package or --configure)" >&2; exit 2 ;;
esac
step "wasm build (build/wasm)" wasm
step "tsc + site (build/site, dist)" site
