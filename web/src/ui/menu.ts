// web/src/ui — a drop-down menu: a <details class="menu"> whose summary is the button and
// whose panel holds the choices (the flame graph's fold and filter boxes, the exports). It
// opens and closes as a <details> does; wireMenus also closes an open one on Escape, on a
// click elsewhere, and after a choice (a button in it clicked).
import { h } from './dom.js';

/** A menu: a summary button `label` (its tooltip `title`), and `children` in a panel under it. */
export function menu(id: string, label: string, title: string, ...children: HTMLElement[]): HTMLDetailsElement {
  return h(
    'details',
    { class: 'menu', attrs: { id } },
    h('summary', { text: label, attrs: { title } }),
    h('div', { class: 'menu-panel' }, ...children),
  );
}

/** Closes the open menus under `root` on Escape, a click outside them, or a click on one of their buttons. */
export function wireMenus(root: HTMLElement): void {
  const menus = (): HTMLDetailsElement[] => [...root.querySelectorAll<HTMLDetailsElement>('details.menu[open]')];
  root.addEventListener('pointerdown', (e) => {
    for (const m of menus()) if (!e.composedPath().includes(m)) m.open = false;
  });
  root.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape') return;
    for (const m of menus()) {
      if (!e.composedPath().includes(m)) continue;
      m.open = false;
      m.querySelector('summary')?.focus();
    }
  });
  root.addEventListener('click', (e) => {
    const target = e.target instanceof Element ? e.target.closest('details.menu .menu-panel button') : null;
    const open = target?.closest('details.menu');
    if (open instanceof HTMLDetailsElement) open.open = false;
  });
}
