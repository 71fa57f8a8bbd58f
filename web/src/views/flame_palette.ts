// web/src/views — the flame graph's colours, light and dark: warm hues chosen by frame name (a
// hash, so a function keeps its colour across traces and views), the same hues dimmed for
// search misses, one colour for matches and one for the hovered node. As CSS colours (for
// fillStyle) and as ImageData words (for cells written as pixels).

/** Colour buckets: HUES hues, then HUES dimmed ones, then MATCH and HOVER. */
export const HUES = 45;
export const DIM = HUES;
export const MATCH = 2 * HUES;
export const HOVER = 2 * HUES + 1;

/** The hue bucket of each frame name. */
export function frameHues(names: string[]): Uint8Array {
  return Uint8Array.from(names, (name) => {
    let hash = 0;
    for (let i = 0; i < name.length; i++) hash = (hash * 31 + name.charCodeAt(i)) | 0;
    return Math.abs(hash) % HUES;
  });
}

export class FlamePalette {
  /** By bucket, as CSS colours. */
  readonly colours: string[] = [];
  private wordsCache: Uint32Array | null = null;

  constructor(readonly dark: boolean) {
    for (let i = 0; i < HUES; i++) this.colours.push(dark ? `hsl(${10 + i} 60% 35%)` : `hsl(${10 + i} 85% 68%)`);
    for (let i = 0; i < HUES; i++) this.colours.push(dark ? `hsl(${10 + i} 10% 25%)` : `hsl(${10 + i} 15% 85%)`);
    this.colours.push(dark ? '#b0489a' : '#f28ad8', dark ? '#5b7bd6' : '#9db7ff');
  }

  /** Label colour on a cell; `dim` for search misses. */
  text(dim: boolean): string {
    if (dim) return this.dark ? '#777' : '#666';
    return this.dark ? '#f3f3f3' : '#111';
  }

  /**
   * The colours as ImageData words: RGBA bytes read as one little-endian 32-bit word (the
   * byte order of every platform browsers run on). The context normalises each CSS colour
   * to #rrggbb (its fillStyle is left at the last one).
   */
  words(g: CanvasRenderingContext2D): Uint32Array {
    this.wordsCache ??= Uint32Array.from(this.colours, (colour) => {
      g.fillStyle = colour;
      const hex = String(g.fillStyle);
      const rgb = /^#[0-9a-f]{6}$/i.test(hex) ? parseInt(hex.slice(1), 16) : 0x808080;
      return ((0xff << 24) | ((rgb & 0xff) << 16) | (rgb & 0xff00) | (rgb >> 16)) >>> 0;
    });
    return this.wordsCache;
  }
}
