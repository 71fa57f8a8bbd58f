// web/src/views — the Top functions table beside the flame graph: each function's self and
// total weight as a share of all stacks, with milliseconds (time weights) or the number of
// events (samples) next to it, so that a function seen in 1 or 2 samples of a large trace is not shown as "0.00%".
import type { TopFunctions } from '../api/types.js';
import { fmt, percent } from '../ui/dom.js';
import { sortableTable } from '../ui/sortable_table.js';

type TopFunction = TopFunctions['functions'][number];

/** "12.5% (1,234)": the weight's share, then the events counted. */
const share = (weight: number, count: number, total: number): string => `${percent(weight, total)} (${fmt(count)})`;

/** Milliseconds of a weight in nanoseconds, to 0.1 ms ("<0.1 ms" for a non-zero one below). */
export function formatMs(ns: number): string {
  const ms = ns / 1e6;
  if (ns > 0 && ms < 0.05) return '<0.1 ms';
  return `${ms.toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 })} ms`;
}

/** "12.5% (1,234.5 ms)" for time weights, else the share and the count of events. */
function shareOf(top: TopFunctions, weight: number, count: number): string {
  return top.unit === 'nanoseconds' ? `${percent(weight, top.total)} (${formatMs(weight)})` : share(weight, count, top.total);
}

/**
 * @param onPick a row activated (click, Enter): the caller opens that function's sandwich
 */
export function topFunctionsTable(top: TopFunctions, onPick: (name: string) => void): HTMLElement {
  const events = top.unit === 'samples' ? 'samples' : 'events';
  return sortableTable({
    caption: 'Top functions',
    rows: top.functions,
    sortBy: 1,
    descending: true,
    onActivate: (f: TopFunction) => onPick(f.name),
    rowTitle: 'Show its callers and callees (the sandwich) and highlight it in the flame graph',
    columns: [
      { label: 'Function', text: (f) => f.name, key: (f) => f.name },
      { label: 'Self', text: (f) => shareOf(top, f.exclusive, f.exclusiveCount), key: (f) => f.exclusive, numeric: true, title: `Share of ${top.unit} in the function itself (${events})` },
      { label: 'Total', text: (f) => shareOf(top, f.inclusive, f.inclusiveCount), key: (f) => f.inclusive, numeric: true, title: `Share of ${top.unit} in the function and its callees (${events})` },
    ],
  });
}
