// web/src/live — where `nettrace-analyzer live` keeps a session's bytes: a file in a private
// temporary directory (mkdtemp: mode 0700), not memory, so the server's memory does not
// grow with the session's length. Each reader (a page's /live/stream, a range re-read, the
// download) reads the file from its own position in pieces of PIECE bytes, waits for the
// next bytes when it has caught up with the writer (the live tail), and for its socket to
// drain before reading more: a slow page costs one piece, never a queue of chunks.
// Node only; no dependency.

interface NodeFs {
  mkdtempSync(prefix: string): string;
  openSync(path: string, flags: string): number;
  writeSync(fd: number, bytes: Uint8Array, offset: number, length: number, position: number): number;
  read(fd: number, buffer: Uint8Array, offset: number, length: number, position: number, callback: (e: Error | null, n: number) => void): void;
  closeSync(fd: number): void;
  rmSync(path: string, options: { recursive: boolean; force: boolean }): void;
}

/** A reader's pieces: one read in memory per reader at a time. */
const PIECE = 256 * 1024;

/** Where a reader's pieces go: `write` returns false when the receiver wants a pause. */
export interface SpoolSink {
  write(bytes: Uint8Array): boolean;
  /** Resolves when the receiver takes more (its 'drain'), or when it went away. */
  drained(): Promise<void>;
  /** The receiver went away (the page closed the connection): stop reading. */
  readonly closed: boolean;
}

export class Spool {
  /** Bytes received so far (all written to the file). */
  bytes = 0;
  /** The session has ended: no more bytes will come. */
  ended = false;
  private fd: number;
  private readonly waiting = new Set<() => void>();

  private constructor(
    private readonly fs: NodeFs,
    readonly dir: string,
    readonly path: string,
  ) {
    this.fd = fs.openSync(path, 'w+');
  }

  /** A spool in a new private directory under `tmp` (the system's temporary directory). */
  static create(fs: NodeFs, tmp: string): Spool {
    const dir = fs.mkdtempSync(`${tmp.replace(/\/+$/, '')}/nettrace-live-`);
    return new Spool(fs, dir, `${dir}/session.nettrace`);
  }

  /** Appends the next bytes of the session (synchronously: readers see them at once). */
  add(chunk: Uint8Array): void {
    if (this.fd < 0) return;
    for (let at = 0; at < chunk.length; ) at += this.fs.writeSync(this.fd, chunk, at, chunk.length - at, this.bytes + at);
    this.bytes += chunk.length;
    this.wake();
  }

  end(): void {
    this.ended = true;
    this.wake();
  }

  /** Removes the file and its directory (at exit; idempotent). Readers stop. */
  remove(): void {
    this.ended = true;
    if (this.fd >= 0) this.fs.closeSync(this.fd);
    this.fd = -1;
    this.fs.rmSync(this.dir, { recursive: true, force: true });
    this.wake();
  }

  /**
   * Sends bytes [start, end) to `sink` — end = null: up to the session's end, following the
   * live tail. @returns false when the spool was removed or the sink closed before the end.
   */
  async send(sink: SpoolSink, start = 0, end: number | null = null): Promise<boolean> {
    let at = start;
    for (;;) {
      if (sink.closed || this.fd < 0) return false;
      const limit = end ?? this.bytes;
      if (at >= limit) {
        if (end !== null || this.ended) return true;
        await this.grown();
        continue;
      }
      const piece = await this.read(at, Math.min(PIECE, limit - at));
      if (piece === null) return false;
      at += piece.length;
      if (!sink.write(piece)) await sink.drained();
    }
  }

  /** Resolves at the next add() or end(). */
  private grown(): Promise<void> {
    return new Promise((resolve) => this.waiting.add(resolve));
  }

  private wake(): void {
    const waiting = [...this.waiting];
    this.waiting.clear();
    for (const w of waiting) w();
  }

  private read(position: number, length: number): Promise<Uint8Array | null> {
    const buffer = new Uint8Array(length);
    return new Promise((resolve) => {
      if (this.fd < 0) return resolve(null);
      this.fs.read(this.fd, buffer, 0, length, position, (e, n) => resolve(e !== null || n !== length ? null : buffer));
    });
  }
}
