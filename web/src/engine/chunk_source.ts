// web/src/engine — the one way the JS side reads a trace: ask a source for the bytes in
// [start, end). A File/Blob reads with Blob.slice(), so a multi-GB file is never loaded whole;
// an in-memory buffer hands out views without copying.

export interface ChunkSource {
  readonly size: number;
  /** The bytes in [start, end); fewer only at the end of the source. */
  read(start: number, end: number): Promise<Uint8Array>;
}

/** Structural Blob: browsers' File/Blob and Node's Blob (fs.openAsBlob) all fit. */
export interface BlobLike {
  readonly size: number;
  slice(start?: number, end?: number): { arrayBuffer(): Promise<ArrayBuffer> };
}

export type TraceSource = BlobLike | ArrayBuffer | ArrayBufferView;

export function toChunkSource(source: TraceSource): ChunkSource {
  if (source instanceof ArrayBuffer) return bytesSource(new Uint8Array(source));
  if (ArrayBuffer.isView(source)) {
    return bytesSource(new Uint8Array(source.buffer, source.byteOffset, source.byteLength));
  }
  const blob = source;
  return {
    size: blob.size,
    read: async (start, end) => new Uint8Array(await blob.slice(start, end).arrayBuffer()),
  };
}

function bytesSource(bytes: Uint8Array): ChunkSource {
  return { size: bytes.length, read: async (start, end) => bytes.subarray(start, end) };
}
