// Runs dist/engine/engine_worker.js in a node:worker_threads worker, behind the small part of
// a DedicatedWorkerGlobalScope it uses (self.postMessage / self.addEventListener('message')).
// Not a test itself: worker_protocol.test.mjs starts it.
import { parentPort, workerData } from 'node:worker_threads';

globalThis.self = {
  postMessage: (message, transfer) => parentPort.postMessage(message, transfer),
  addEventListener: (type, listener) => {
    if (type === 'message') parentPort.on('message', (data) => listener({ data }));
  },
};
await import(workerData.engineWorker);
