// Loaded with `node --import` into a process under test (export_big.test.mjs): as the process
// exits it writes one line `peak-rss KB` to stderr, its peak resident memory (getrusage's
// maxrss), so a test can bound what a whole command held at its worst. Not a test itself.
import { writeSync } from 'node:fs';

process.on('exit', () => writeSync(2, `peak-rss ${process.resourceUsage().maxRSS}\n`));
