// web/src/ui — a tab list's buttons (ARIA tabs pattern): click selects; ArrowLeft/ArrowRight
// (wrapping), Home and End move the selection among the enabled tabs and focus it.

/**
 * Wires `tabs` (name → button, in display order) to `select(name, focus)`; `focus` is true
 * when the keyboard moved the selection, so the selected tab should take the focus.
 */
export function wireTabs<Name extends string>(tabs: ReadonlyMap<Name, HTMLButtonElement>, select: (name: Name, focus: boolean) => void): void {
  const names = [...tabs.keys()];
  for (const [name, button] of tabs) {
    button.addEventListener('click', () => {
      if (!button.disabled) select(name, false);
    });
    button.addEventListener('keydown', (e) => {
      const enabled = names.filter((n) => !tabs.get(n)!.disabled);
      const i = enabled.indexOf(name);
      const next =
        e.key === 'ArrowRight' ? enabled[(i + 1) % enabled.length]
        : e.key === 'ArrowLeft' ? enabled[(i - 1 + enabled.length) % enabled.length]
        : e.key === 'Home' ? enabled[0]
        : e.key === 'End' ? enabled.at(-1)
        : undefined;
      if (next === undefined) return;
      e.preventDefault();
      select(next, true);
    });
  }
}
