// web/src/live — the package's Node-only entry, `nettrace-analyzer/live`: live sessions on
// running .NET processes over their diagnostics port. Kept out of the main entry
// and the page: it uses Node's Unix sockets (imported dynamically).
export { collect, listProcesses, LiveError } from './collect.js';
export type { CollectOptions, DotnetProcess, LiveTrace } from './collect.js';
export { runLiveCommand } from './cli.js';
export { HEAP_SNAPSHOT_PROVIDERS, heapDumpEnded, runHeapSnapshot, takeHeapSnapshot } from './heap_snapshot.js';
export type { HeapSnapshotOptions } from './heap_snapshot.js';
