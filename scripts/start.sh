#!/usr/bin/env bash
# `npm start`: set up (first time), build, and serve the app at http://127.0.0.1:$PORT
# (default 8080) with the sample trace preloaded. Runs until Ctrl-C.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
step "setup" bash scripts/setup.sh
step "build" bash scripts/build.sh
exec node scripts/serve.mjs build/site --open
