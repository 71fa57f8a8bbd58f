module nettrace-analyzer/bench/pyroscope

go 1.19

require github.com/pyroscope-io/dotnetdiag v0.0.0

// scripts/bench_pyroscope.sh fetches the source here (never committed) and builds offline.
replace github.com/pyroscope-io/dotnetdiag => ../../../build/bench/dotnetdiag
