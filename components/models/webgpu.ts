// What this browser offers a model: a WebGPU adapter (asked once per page; the answer does not change while
// it is open) and the memory figures preflight weighs a checkpoint against. WebGPU's types are not in
// TypeScript's DOM lib, so the few members used are declared here.
import { WASM_HEAP_BYTES, type BrowserBudget } from '../../lib/model/preflight';

interface GpuAdapterLike {
  limits?: { maxBufferSize?: number; maxStorageBufferBindingSize?: number };
  info?: { vendor?: string; architecture?: string; description?: string; isFallbackAdapter?: boolean };
  isFallbackAdapter?: boolean;
}
interface GpuLike {
  requestAdapter(options?: { powerPreference?: 'high-performance' | 'low-power' }): Promise<GpuAdapterLike | null>;
}

export interface WebGpuProbe {
  /** Buffer limits of the adapter, or null where there is none. */
  adapter: null | { maxBufferSize: number; maxStorageBufferBindingSize: number; info: string; fallback: boolean };
}

let probe: Promise<WebGpuProbe> | null = null;

/** The adapter's limits, asked for once; null adapter when the browser has no navigator.gpu or gives none. */
export function probeWebGpu(): Promise<WebGpuProbe> {
  probe ??= (async (): Promise<WebGpuProbe> => {
    const gpu = typeof navigator === 'undefined' ? undefined : (navigator as Navigator & { gpu?: GpuLike }).gpu;
    if (!gpu) return { adapter: null };
    try {
      const a = await gpu.requestAdapter({ powerPreference: 'high-performance' });
      if (!a) return { adapter: null };
      const info = [a.info?.vendor, a.info?.architecture, a.info?.description].filter((s) => s && s.trim()).join(' ');
      // A software adapter (SwiftShader, e.g. Chromium without a GPU) runs WebGPU on the CPU, far slower than WASM.
      const fallback = a.info?.isFallbackAdapter === true || a.isFallbackAdapter === true || /swiftshader/i.test(info);
      return { adapter: { maxBufferSize: a.limits?.maxBufferSize ?? 256 * 1024 ** 2, maxStorageBufferBindingSize: a.limits?.maxStorageBufferBindingSize ?? 128 * 1024 ** 2, info, fallback } };
    } catch {
      return { adapter: null };
    }
  })();
  return probe;
}

/** The budget preflight checks against: the adapter's limits, navigator.deviceMemory, the 4 GiB WASM heap. */
export async function browserBudget(): Promise<BrowserBudget> {
  const { adapter } = await probeWebGpu();
  const dm = typeof navigator === 'undefined' ? undefined : (navigator as Navigator & { deviceMemory?: number }).deviceMemory;
  return {
    webgpu: adapter && { maxBufferSize: adapter.maxBufferSize, maxStorageBufferBindingSize: adapter.maxStorageBufferBindingSize, adapterInfo: adapter.info || undefined },
    ...(typeof dm === 'number' && dm > 0 ? { deviceMemoryGiB: dm } : {}),
    wasmHeapBytes: WASM_HEAP_BYTES,
  };
}
