// web/src/views — the Top functions table beside the flame graph: each function's self and
// total weight as a share of all stacks, with the amount next to it (ms or s for time
// weights, KB/MB for bytes, the number of events for counts: ui/units.ts), so that a
// function seen in 1 or 2 samples of a large trace is not shown as "0.00%".
import type { TopFunctions } from '../api/types.js';
import { fmt, percent } from '../ui/dom.js';
import { sortableTable } from '../ui/sortable_table.js';
import { countNoun, formatCount, formatWeight, weightName } from '../ui/units.js';

type TopFunction = TopFunctions['functions'][number];

/**
 * @param event the event type whose stacks are weighed (what a count counts)
 * @param onPick a row activated (click, Enter): the caller opens that function's sandwich
 */
export function topFunctionsTable(top: TopFunctions, event: string, onPick: (name: string) => void): HTMLElement {
  const counted = top.unit !== 'nanoseconds' && top.unit !== 'bytes';
  const noun = countNoun(event);
  // "12.5% (1.25 s)", "12.5% (4.5 MB)"; a count's noun is in the header: "12.5% (1,234)".
  const cell = (weight: number): string =>
    weight === 0 ? '—' : `${percent(weight, top.total)} (${counted ? fmt(weight) : formatWeight(weight, top.unit, event)})`;
  const what = weightName(top.unit, event);
  const header = (label: string): string => (counted ? `${label} (${noun})` : label);
  return sortableTable({
    caption: 'Top functions',
    rows: top.functions,
    sortBy: 1,
    descending: true,
    onActivate: (f: TopFunction) => onPick(f.name),
    rowTitle: 'Show its callers and callees (the sandwich) and highlight it in the flame graph',
    columns: [
      { label: 'Function', text: (f) => f.name, key: (f) => f.name },
      {
        label: header('Self'), text: (f) => cell(f.exclusive), key: (f) => f.exclusive, numeric: true,
        title: `Share of ${what} in the function itself (a cell's tooltip: the ${noun})`,
        cell: (f) => titled(cell(f.exclusive), formatCount(f.exclusiveCount, noun)),
      },
      {
        label: header('Total'), text: (f) => cell(f.inclusive), key: (f) => f.inclusive, numeric: true,
        title: `Share of ${what} in the function and its callees (a cell's tooltip: the ${noun})`,
        cell: (f) => titled(cell(f.inclusive), formatCount(f.inclusiveCount, noun)),
      },
    ],
  });
}

/** A text with a tooltip (the events behind a time or byte amount). */
function titled(text: string, title: string): Node {
  const span = document.createElement('span');
  span.textContent = text;
  span.title = title;
  return span;
}
