// web/src/ui — small DOM helpers. Trace strings are data: every text goes through
// textContent (or a Text node); nothing here ever parses HTML.

export type Child = Node | string | null | undefined | false;

/** Creates an element with classes, attributes and children (strings become Text nodes). */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: { class?: string; text?: string; attrs?: Record<string, string> } = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (props.class !== undefined) element.className = props.class;
  if (props.attrs !== undefined) for (const [k, v] of Object.entries(props.attrs)) element.setAttribute(k, v);
  if (props.text !== undefined) element.textContent = props.text;
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child);
  }
  return element;
}

export const numberFormat = new Intl.NumberFormat('en-US');
export const fmt = (n: number): string => numberFormat.format(n);

/** A share with one decimal (two below 0.1%); a non-zero share too small to show is "<0.01%",
 *  never "0.00%". */
export function percent(part: number, whole: number): string {
  if (!(whole > 0)) return '—';
  const value = (100 * part) / whole;
  if (part > 0 && value < 0.005) return '<0.01%';
  return `${value.toFixed(part * 1000 < whole ? 2 : 1)}%`;
}

/** A <select> with a first "any" option (value "") and the given options. */
export function fillSelect(select: HTMLSelectElement, anyLabel: string, options: { value: string; label: string }[]): void {
  select.replaceChildren(h('option', { text: anyLabel, attrs: { value: '' } }));
  for (const o of options) select.append(h('option', { text: o.label, attrs: { value: o.value } }));
}

/** Offers text, bytes (ArrayBuffer-backed, not shared) or a Blob as a file download (a Blob URL on an <a download>). */
export function download(data: string | Uint8Array | Blob, fileName: string, type: string): void {
  const url = URL.createObjectURL(new Blob([data as string | Uint8Array<ArrayBuffer> | Blob], { type }));
  const a = h('a', { attrs: { href: url, download: fileName } });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
