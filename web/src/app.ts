// web/src — the full-page app (index.html): one <nettrace-analyzer> filling the window, with
// its view state in the URL hash. `npm start` opens the page with ?sample so that a real
// trace shows right away; ?url=… opens a trace from a URL.
import './analyzer/element.js';

const analyzer = document.querySelector('nettrace-analyzer');
if (analyzer === null) throw new Error('index.html has no <nettrace-analyzer>');
const params = new URLSearchParams(location.search);
const url = params.get('url');
const sample = analyzer.getAttribute('sample');
if (url !== null && url !== '') void analyzer.open(url);
else if (params.has('sample') && sample !== null) void analyzer.open(sample);
