#!/usr/bin/env bash
# Installs what the build needs on Debian 12, only when it is missing:
#   apt: emscripten (em++ 3.1.6 with a prebuilt, frozen library cache), catch2 (v2, header only),
#        chromium (browser test), cmake + ninja-build, g++ (native build), gzip (test data), python3,
#        libzstd-dev + zlib1g-dev (the dataset writer's Parquet page codecs, native build),
#        ccache (the moved-checkout test's second build of the package hits the first one's cache),
#        libprotozero-dev (mapbox protozero, header only: the pprof and OTLP profile writers, both builds)
#        golang-go (`go tool pprof`, about 250 MB installed: the pprof export's reader in the tests)
#   npm: `npm ci` when node_modules is missing or older than package-lock.json.
# Safe to run again: a second run does nothing and takes well under a second.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(emscripten catch2 chromium cmake ninja-build g++ gzip python3 clang-14 libclang-rt-14-dev libzstd-dev zlib1g-dev ccache libprotozero-dev golang-go)
need=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || need+=("$p")
done

if ((${#need[@]})); then
  echo "setup: installing apt packages: ${need[*]}"
  if [ "$(id -u)" -eq 0 ]; then
    sudo=()
  elif command -v sudo >/dev/null 2>&1; then
    sudo=(sudo)
  else
    echo "setup: need root or sudo to install: ${need[*]}" >&2
    exit 1
  fi
  "${sudo[@]}" apt-get update -q
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -q --no-install-recommends "${need[@]}"
fi

if ! command -v node >/dev/null 2>&1; then
  echo "setup: Node.js 20 or newer is required (and npm)" >&2
  exit 1
fi
node_major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$node_major" -lt 20 ]; then
  echo "setup: Node.js $(node --version) is too old; need 20 or newer" >&2
  exit 1
fi

# node_modules/.package-lock.json is npm's record of what is installed; it is rewritten by
# every install, so an older one means package-lock.json changed since.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: npm ci"
  npm ci --no-audit --no-fund
fi
