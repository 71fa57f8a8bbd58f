// web/src/views — the flame graph's grouping and folding controls, beside the weight picker
// (issue 13 item 3): Group (none / by module / just my code), "Drop time leaves", and
// PerfView's Fold, Exclude, Include and Group pattern boxes. The state lives in the URL hash
// (app/state.ts: group, leaves, fold, exclude, include, groupPats); the query options are the
// engine's (core/analysis/stack_transform_options.h), so the page shows what the CLI's
// --group-by-module / --just-my-code / --drop-time-leaves / --fold-pats … print.
import type { StackQuery } from '../api/handle.js';
import { h } from '../ui/dom.js';

/** The hash fields these controls own (strings, as every ViewState field in the hash). */
export interface TransformState {
  /** '' (no grouping), 'module' or 'jmc' (just my code). */
  group: string;
  /** '1': CPU_TIME / UNMANAGED_CODE_TIME / unresolved leaves folded into their caller. */
  dropLeaves: string;
  foldPats: string;
  excludePats: string;
  includePats: string;
  groupPats: string;
}

type TransformQuery = Pick<
  StackQuery,
  'groupByModule' | 'justMyCode' | 'dropTimeLeaves' | 'foldPats' | 'excludePats' | 'includePats' | 'groupPats'
>;

/** The query options of a state: only those that are set, so a query without any is unchanged. */
export function transformQuery(s: TransformState): TransformQuery {
  const q: TransformQuery = {};
  if (s.group === 'module') q.groupByModule = true;
  if (s.group === 'jmc') q.justMyCode = true;
  if (s.dropLeaves === '1') q.dropTimeLeaves = true;
  if (s.foldPats.trim() !== '') q.foldPats = s.foldPats;
  if (s.excludePats.trim() !== '') q.excludePats = s.excludePats;
  if (s.includePats.trim() !== '') q.includePats = s.includePats;
  if (s.groupPats.trim() !== '') q.groupPats = s.groupPats;
  return q;
}

const PATTERN_HELP =
  "';'-separated PerfView patterns: % = a run of letters, digits, '.', '_' or '?' (stops at '!'), * = anything, ^ = start, {} = capture";

const patternBox = (id: string, label: string, title: string): HTMLLabelElement =>
  h('label', { attrs: { title: `${title}. ${PATTERN_HELP}` } }, `${label} `,
    h('input', { class: 'pattern', attrs: { type: 'text', id, size: '14', spellcheck: 'false', placeholder: 'pattern;…' } }));

/** The controls (ids g-group, g-drop-leaves, g-fold, g-exclude, g-include, g-grouppats). */
export function transformControls(): HTMLElement {
  const group = h('select', { attrs: { id: 'g-group', title: 'Group frames: by module (Module!), or "just my code" (each call into the framework — System.*, Microsoft.*, the runtime\'s native modules — as one OTHER <<entry>> frame)' } },
    h('option', { text: 'none', attrs: { value: '' } }),
    h('option', { text: 'by module', attrs: { value: 'module' } }),
    h('option', { text: 'just my code', attrs: { value: 'jmc' } }));
  return h('span', { class: 'stack-transform', attrs: { id: 'g-transform' } },
    h('label', {}, 'Group ', group),
    h('label', { attrs: { title: 'Fold CPU_TIME, UNMANAGED_CODE_TIME and unresolved (?!?, module!?) leaves into their caller' } },
      h('input', { attrs: { type: 'checkbox', id: 'g-drop-leaves' } }), ' Drop time leaves'),
    patternBox('g-fold', 'Fold', 'Frames matching are removed and their weight charged to their caller (FoldPats)'),
    patternBox('g-exclude', 'Exclude', 'Stacks with a frame matching are left out (ExcPats)'),
    patternBox('g-include', 'Include', 'Only stacks on which every pattern matches a frame (IncPats)'),
    patternBox('g-grouppats', 'Group pats', 'pattern->name groups frames, pattern=>name keeps the entry frame (GroupPats)'));
}

type Find = <T extends HTMLElement>(id: string) => T;

/** Shows a state in the controls. */
export function showTransform(byId: Find, s: TransformState): void {
  byId<HTMLSelectElement>('g-group').value = s.group === 'module' || s.group === 'jmc' ? s.group : '';
  byId<HTMLInputElement>('g-drop-leaves').checked = s.dropLeaves === '1';
  byId<HTMLInputElement>('g-fold').value = s.foldPats;
  byId<HTMLInputElement>('g-exclude').value = s.excludePats;
  byId<HTMLInputElement>('g-include').value = s.includePats;
  byId<HTMLInputElement>('g-grouppats').value = s.groupPats;
}

/** The state the controls show. */
export function readTransform(byId: Find): TransformState {
  return {
    group: byId<HTMLSelectElement>('g-group').value,
    dropLeaves: byId<HTMLInputElement>('g-drop-leaves').checked ? '1' : '',
    foldPats: byId<HTMLInputElement>('g-fold').value,
    excludePats: byId<HTMLInputElement>('g-exclude').value,
    includePats: byId<HTMLInputElement>('g-include').value,
    groupPats: byId<HTMLInputElement>('g-grouppats').value,
  };
}

/** Calls `onChange` when a control changes (a pattern box: on Enter or when it loses focus). */
export function wireTransform(byId: Find, onChange: () => void): void {
  for (const id of ['g-group', 'g-drop-leaves', 'g-fold', 'g-exclude', 'g-include', 'g-grouppats'])
    byId(id).addEventListener('change', onChange);
}
