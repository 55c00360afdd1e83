// A shard's data section that is read when a tensor is asked for, not held: `subarray(begin, end)` returns a
// fresh copy of those bytes from a synchronous reader (a file descriptor in the CLI, FileReaderSync in a
// worker). The graph builder and the external-data loader only ever take one tensor's subarray at a time,
// so a 1.2 GB checkpoint never sits in JS as a whole (docs/MODELS.md, "Memory plan").
import { parseSafetensorsHeader, readHeaderLength, SafetensorsError, type SafetensorsFile, type TensorInfo } from './safetensors';

export type SyncRead = (start: number, end: number) => Uint8Array;

export class LazyBytes extends Uint8Array {
  constructor(
    private readonly read: SyncRead,
    private readonly offset: number,
    size: number,
  ) {
    super(0);
    Object.defineProperty(this, 'byteLength', { value: size });
    Object.defineProperty(this, 'length', { value: size });
  }
  override subarray(begin = 0, end: number = this.length): Uint8Array<ArrayBuffer> {
    if (begin < 0 || end > this.length || end < begin) throw new SafetensorsError('msg.model.st.readOutside', { begin, end, length: this.length });
    const b = this.read(this.offset + begin, this.offset + end);
    if (b.length !== end - begin) throw new SafetensorsError('msg.model.st.shortRead', { got: b.length, want: end - begin, offset: this.offset + begin });
    return b as Uint8Array<ArrayBuffer>;
  }
}

/** A safetensors file whose tensors are read on demand; only the header is read now. */
export function lazySafetensors(read: SyncRead, fileSize: number): SafetensorsFile {
  const n = readHeaderLength(read(0, Math.min(8, fileSize)));
  const header = parseSafetensorsHeader(read(0, Math.min(8 + n, fileSize)), fileSize);
  for (const [name, t] of header.tensors) {
    if (t.dtype === null) throw new SafetensorsError('msg.model.st.dtype', { tensor: name, dtype: JSON.stringify(t.rawDtype) });
  }
  return { tensors: header.tensors as Map<string, TensorInfo>, metadata: header.metadata, data: new LazyBytes(read, header.dataStart, fileSize - header.dataStart) };
}
