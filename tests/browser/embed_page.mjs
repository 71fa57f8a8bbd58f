// The embedding test page's script (a file: the page's CSP allows no inline script). Loads the
// element from the package as published, records its events for embed_check.mjs, and mounts
// a second analyzer with mountAnalyzer() on a plain <div>.
import { mountAnalyzer } from '/dist/analyzer/element.js';

const events = [];
window.__events = events;
const violations = [];
window.__violations = violations;
document.addEventListener('securitypolicyviolation', (e) => violations.push(`${e.violatedDirective} ${e.blockedURI}`));

const embedded = document.getElementById('embedded');
for (const type of ['load', 'error', 'selection']) {
  embedded.addEventListener(type, (e) => {
    // The error event's partial summary is large; the test needs its presence only.
    const detail = type === 'error' ? { ...e.detail, partial: e.detail.partial === null ? null : e.detail.partial.eventCount } : e.detail;
    events.push({ type, detail: type === 'load' ? { name: detail.name, eventCount: detail.summary.eventCount } : detail });
  });
}
document.getElementById('host-file').addEventListener('change', (e) => {
  const file = e.target.files[0];
  if (file !== undefined) void embedded.open(file);
});

const mounted = mountAnalyzer(document.getElementById('mount-box'));
window.__mounted = mounted;
document.getElementById('mount-box').addEventListener('load', (e) => events.push({ type: 'mounted-load', detail: { eventCount: e.detail.summary.eventCount } }));
