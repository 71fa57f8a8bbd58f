// Loaded with `node --expose-gc --import` into a process under test (live_bound.test.mjs):
// on SIGUSR2 it collects garbage and writes one line `memory {json}` to stderr with
// process.memoryUsage(), so a test can measure what a server keeps. Not a test itself.
process.on('SIGUSR2', () => {
  globalThis.gc?.();
  globalThis.gc?.();
  process.stderr.write(`memory ${JSON.stringify(process.memoryUsage())}\n`);
});
