// web/src/reader — the structural Blob every file-like source is read through, in a file of
// its own so that the sources (chunk_source.ts) and the readers they use (node_file.ts,
// read_ahead.ts) all import it without importing each other.

/** Structural Blob: browsers' File/Blob and Node's Blob (fs.openAsBlob) all fit. */
export interface BlobLike {
  readonly size: number;
  slice(start?: number, end?: number): { arrayBuffer(): Promise<ArrayBuffer> };
  /** The bytes in order (browsers' and Node's Blobs have it; a path's FileHandle reads do not). */
  stream?(): ReadableStream<Uint8Array>;
  /** Reads at `position` into `target` until it is full or the source ends; @returns the bytes
   *  read. A path's FileHandle has it (node_file.ts): its reads ahead then reuse their buffers. */
  readInto?(target: Uint8Array, position: number): Promise<number>;
}
