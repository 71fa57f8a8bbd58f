// web/src/views — the flame graph's colours, light and dark: warm hues chosen by frame name (a
// hash, so a function keeps its colour across traces and views), the same hues dimmed for
// search misses, one colour for matches and one for the hovered node; for a differential
// graph, reds (grew) and blues (shrank) by strength and one grey (no significant change). As
// CSS colours (for fillStyle) and as ImageData words (for cells written as pixels).

/** Colour buckets: HUES hues, then HUES dimmed ones, then MATCH and HOVER, then the
 *  differential ones: GREW + s and SHRANK + s for strength s in [0, STRENGTHS), then UNCHANGED. */
export const HUES = 45;
export const DIM = HUES;
export const MATCH = 2 * HUES;
export const HOVER = 2 * HUES + 1;
export const STRENGTHS = 5;
export const GREW = 2 * HUES + 2;
export const SHRANK = GREW + STRENGTHS;
export const UNCHANGED = SHRANK + STRENGTHS;

/** The differential bucket of a change of share `delta` (a fraction), significant or not:
 *  one strength a percentage point, the last from 4 points on. */
export function changeBucket(delta: number, significant: boolean): number {
  if (!significant || delta === 0) return UNCHANGED;
  const s = Math.min(STRENGTHS - 1, Math.floor(Math.abs(delta) * 100));
  return (delta > 0 ? GREW : SHRANK) + s;
}

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
    // Saturated, never grey: a significant change must not read as "no change".
    for (const hue of [0, 220])
      for (let s = 0; s < STRENGTHS; s++) {
        const k = s / (STRENGTHS - 1);
        this.colours.push(dark ? `hsl(${hue} ${45 + 40 * k}% ${30 + 10 * k}%)` : `hsl(${hue} ${55 + 35 * k}% ${78 - 22 * k}%)`);
      }
    this.colours.push(dark ? 'hsl(0 0% 32%)' : 'hsl(0 0% 82%)');
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
