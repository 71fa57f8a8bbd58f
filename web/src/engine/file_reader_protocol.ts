// web/src/engine — the messages between the engine worker's reading side (off_thread_blob.ts)
// and the file reader worker it starts (file_reader_worker.ts). Types only.

/** To the reader: read `blob`'s stream; hand over at most `window` bytes not yet acknowledged. */
export interface ReaderStart {
  kind: 'start';
  blob: Blob;
  window: number;
}
/** To the reader: the engine took `bytes` more (the reader may hand over that many more). */
export interface ReaderAck {
  kind: 'ack';
  bytes: number;
}
export type ToReader = ReaderStart | ReaderAck;

/** From the reader: the next piece of the File (its buffer transferred), the end, or a failed read. */
export type FromReader =
  | { kind: 'piece'; bytes: Uint8Array }
  | { kind: 'done' }
  | { kind: 'error'; message: string };
