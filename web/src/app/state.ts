// web/src/app — the view state that a link reproduces, kept in the URL hash:
//   #tab=events&provider=…&event=…&thread=…&from=…&to=…&type=…&inverted=1
// Values are URL-encoded by URLSearchParams; absent keys mean "any".

export type Tab = 'summary' | 'events' | 'flame';
export const TABS: readonly Tab[] = ['summary', 'events', 'flame'];

export interface ViewState {
  tab: Tab;
  /** Event table filters. */
  provider: string;
  event: string;
  thread: string;
  fromMs: string;
  toMs: string;
  /** Flame graph: the event type whose stacks are drawn, thread filter, inverted. */
  stackEvent: string;
  stackThread: string;
  inverted: boolean;
}

export function defaultState(): ViewState {
  return { tab: 'summary', provider: '', event: '', thread: '', fromMs: '', toMs: '', stackEvent: '', stackThread: '', inverted: false };
}

const KEYS: Record<Exclude<keyof ViewState, 'tab' | 'inverted'>, string> = {
  provider: 'provider',
  event: 'event',
  thread: 'thread',
  fromMs: 'from',
  toMs: 'to',
  stackEvent: 'type',
  stackThread: 'stackThread',
};

export function readHash(hash: string): ViewState {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const state = defaultState();
  const tab = params.get('tab');
  if (tab !== null && (TABS as readonly string[]).includes(tab)) state.tab = tab as Tab;
  for (const [field, key] of Object.entries(KEYS) as [keyof typeof KEYS, string][]) state[field] = params.get(key) ?? '';
  state.inverted = params.get('inverted') === '1';
  return state;
}

export function writeHash(state: ViewState): string {
  const params = new URLSearchParams();
  params.set('tab', state.tab);
  for (const [field, key] of Object.entries(KEYS) as [keyof typeof KEYS, string][]) {
    if (state[field] !== '') params.set(key, state[field]);
  }
  if (state.inverted) params.set('inverted', '1');
  return `#${params.toString()}`;
}
