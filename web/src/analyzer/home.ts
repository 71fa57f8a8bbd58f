// web/src/analyzer — the Home button (the title) and its way back. Home shows the landing
// area *instead of* the open trace (not over it): the trace's views, tabs and exports are
// hidden, still loaded, and "Back to <name>" shows them again without reading it anew.

export interface HomeParts {
  home: HTMLElement;
  back: HTMLButtonElement;
  landing: HTMLElement;
  drop: HTMLElement;
  result: HTMLElement;
  tabs: HTMLElement;
  exports: HTMLElement;
}

export interface HomeHooks {
  /** The name of the trace shown (also a refused file's summary), or null when none is. */
  shownName(): string | null;
  /** Whether the exports apply (a trace handle is open). */
  canExport(): boolean;
  /** Called after Back, to restore what the hidden views need (focus, redraws). */
  onBack(): void;
}

/** Wires Home and Back; @returns showResult(), which a new read calls to leave Home. */
export function wireHome(parts: HomeParts, hooks: HomeHooks): { showResult(): void } {
  const showResult = (): void => {
    parts.result.hidden = false;
    parts.back.hidden = true;
  };
  parts.home.addEventListener('click', () => {
    parts.landing.hidden = false;
    const name = hooks.shownName();
    if (name !== null) {
      parts.result.hidden = true;
      parts.tabs.hidden = true;
      parts.exports.hidden = true;
      parts.back.textContent = `Back to ${name}`;
      parts.back.hidden = false;
    }
    parts.drop.focus();
  });
  parts.back.addEventListener('click', () => {
    showResult();
    parts.landing.hidden = true;
    parts.tabs.hidden = false;
    parts.exports.hidden = !hooks.canExport();
    hooks.onBack();
  });
  return { showResult };
}
