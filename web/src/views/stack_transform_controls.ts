// web/src/views — the flame graph's grouping and folding controls, beside the weight picker
// Group (none / by module / just my code), "Drop time leaves", and
// PerfView's Fold, Exclude, Include and Group pattern boxes. The state lives in the URL hash
// (app/state.ts: group, leaves, fold, exclude, include, groupPats); the query options are the
// engine's (core/analysis/stacks/stack_transform_options.h), so the page shows what the CLI's
// --group-by-module / --just-my-code / --drop-time-leaves / --fold-pats … print.
import type { StackQuery } from '../api/handle.js';
import { STACK_GROUPS } from '../app/state.js';
import type { ViewState } from '../app/state.js';
import { h } from '../ui/dom.js';
import { menu } from '../ui/menu.js';

/** The view state fields these controls own. */
export type TransformState = Pick<ViewState, 'group' | 'dropLeaves' | 'foldPats' | 'excludePats' | 'includePats' | 'groupPats'>;

type TransformQuery = Pick<
  StackQuery,
  'groupByModule' | 'justMyCode' | 'dropTimeLeaves' | 'foldPats' | 'excludePats' | 'includePats' | 'groupPats'
>;

/** The query options of a state: only those that are set, so a query without any is unchanged. */
export function transformQuery(s: TransformState): TransformQuery {
  const q: TransformQuery = {};
  if (s.group === 'module') q.groupByModule = true;
  if (s.group === 'jmc') q.justMyCode = true;
  if (s.dropLeaves) q.dropTimeLeaves = true;
  if (s.foldPats.trim() !== '') q.foldPats = s.foldPats;
  if (s.excludePats.trim() !== '') q.excludePats = s.excludePats;
  if (s.includePats.trim() !== '') q.includePats = s.includePats;
  if (s.groupPats.trim() !== '') q.groupPats = s.groupPats;
  return q;
}

const PATTERN_HELP =
  "';'-separated PerfView patterns: % = a run of letters, digits, '.', '_' or '?' (stops at '!'), * = anything, ^ = start, {} = capture";

const patternInput = (id: string): HTMLInputElement =>
  h('input', { class: 'pattern', attrs: { type: 'text', id, size: '14', spellcheck: 'false', placeholder: 'pattern;…' } });

const patternBox = (input: HTMLInputElement, label: string, title: string): HTMLLabelElement =>
  h('label', { attrs: { title: `${title}. ${PATTERN_HELP}` } }, `${label} `, input);

/** The controls' elements (ids g-group, g-drop-leaves, g-fold, g-exclude, g-include, g-grouppats):
 *  Group in the toolbar, the rest in the "Fold & filter" menu (id g-transform-menu). */
export interface TransformParts {
  box: HTMLElement;
  /** The menu's button: it says how many of its options are on. */
  menuLabel: HTMLElement;
  group: HTMLSelectElement;
  dropLeaves: HTMLInputElement;
  fold: HTMLInputElement;
  exclude: HTMLInputElement;
  include: HTMLInputElement;
  groupPats: HTMLInputElement;
}

/** Builds the controls (analyzer/layout.ts places them in the flame graph's form). */
export function transformControls(): TransformParts {
  const group = h('select', { attrs: { id: 'g-group', title: 'Group frames: by module (Module!), or "just my code" (each call into the framework — System.*, Microsoft.*, the runtime\'s native modules — as one OTHER <<entry>> frame)' } },
    h('option', { text: 'none', attrs: { value: '' } }),
    h('option', { text: 'by module', attrs: { value: 'module' } }),
    h('option', { text: 'just my code', attrs: { value: 'jmc' } }));
  const dropLeaves = h('input', { attrs: { type: 'checkbox', id: 'g-drop-leaves' } });
  const fold = patternInput('g-fold');
  const exclude = patternInput('g-exclude');
  const include = patternInput('g-include');
  const groupPats = patternInput('g-grouppats');
  const options = menu('g-transform-menu', MENU_LABEL, 'Drop time leaves; PerfView\'s fold, exclude, include and group patterns',
    h('label', { attrs: { title: 'Fold CPU_TIME, UNMANAGED_CODE_TIME and unresolved (?!?, module!?) leaves into their caller' } },
      dropLeaves, ' Drop time leaves'),
    patternBox(fold, 'Fold', 'Frames matching are removed and their weight charged to their caller (FoldPats)'),
    patternBox(exclude, 'Exclude', 'Stacks with a frame matching are left out (ExcPats)'),
    patternBox(include, 'Include', 'Only stacks on which every pattern matches a frame (IncPats)'),
    patternBox(groupPats, 'Group pats', 'pattern->name groups frames, pattern=>name keeps the entry frame (GroupPats)'));
  const box = h('span', { class: 'stack-transform', attrs: { id: 'g-transform' } }, h('label', {}, 'Group ', group), options);
  return { box, menuLabel: options.querySelector('summary')!, group, dropLeaves, fold, exclude, include, groupPats };
}

const MENU_LABEL = 'Fold & filter';

/** Shows a state in the controls. */
export function showTransform(parts: TransformParts, s: TransformState): void {
  parts.group.value = s.group;
  parts.dropLeaves.checked = s.dropLeaves;
  parts.fold.value = s.foldPats;
  parts.exclude.value = s.excludePats;
  parts.include.value = s.includePats;
  parts.groupPats.value = s.groupPats;
  const on = [s.dropLeaves, ...[s.foldPats, s.excludePats, s.includePats, s.groupPats].map((p) => p.trim() !== '')].filter(Boolean).length;
  parts.menuLabel.textContent = on === 0 ? MENU_LABEL : `${MENU_LABEL} (${on} on)`;
}

/** The state the controls show. */
export function readTransform(parts: TransformParts): TransformState {
  return {
    group: STACK_GROUPS.find((g) => g === parts.group.value) ?? '',
    dropLeaves: parts.dropLeaves.checked,
    foldPats: parts.fold.value,
    excludePats: parts.exclude.value,
    includePats: parts.include.value,
    groupPats: parts.groupPats.value,
  };
}

/** Calls `onChange` when a control changes (a pattern box: on Enter or when it loses focus). */
export function wireTransform(parts: TransformParts, onChange: () => void): void {
  for (const input of [parts.group, parts.dropLeaves, parts.fold, parts.exclude, parts.include, parts.groupPats]) input.addEventListener('change', onChange);
}
