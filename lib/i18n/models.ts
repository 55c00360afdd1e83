// Strings of opening real checkpoints: the "Open a model…" dialog (Hub, folder, cache), the preflight report
// and its reasons, source errors, the load line's file progress and the runtime switch.
// Reason and error templates (`reason.*`, `sourceErr.*`) word lib/model/preflight.ts's and
// lib/model/source's codes; their params arrive already formatted (bytes as "1.5 GiB", counts grouped).
import type { Dict } from './types';

export const modelsStrings = {
  // The picker row
  'models.open': { en: 'Open a model…', zh: '打开模型…' },
  'models.openTitle': {
    en: 'Load a Qwen3, Qwen2 or Llama checkpoint from the Hugging Face Hub, a mirror, or a folder on this computer',
    zh: '从 Hugging Face Hub、镜像站或本机文件夹加载 Qwen3、Qwen2 或 Llama 检查点',
  },
  'models.groupEmbedded': { en: 'embedded', zh: '内置' },
  'models.groupRecent': { en: 'recent from the Hub', zh: '最近从 Hub 加载' },
  'models.groupFolder': { en: 'folder', zh: '文件夹' },
  'models.hubDescription': { en: 'Hugging Face model {repo} at revision {revision}, from {endpoint}', zh: 'Hugging Face 模型 {repo}，版本 {revision}，来自 {endpoint}' },
  'models.folderDescription': { en: 'checkpoint from the folder {label} on this computer (not kept after a reload)', zh: '来自本机文件夹 {label} 的检查点（重新加载页面后不保留）' },
  'models.lostFolder': {
    en: 'The folder model {label} was open before the reload; a folder stays only in the page that opened it, so {model} is shown instead. Open the folder again to use it.',
    zh: '重新加载前打开的是文件夹模型 {label}；文件夹只在打开它的页面中可用，因此现在显示 {model}。如需使用，请重新打开该文件夹。',
  },
  'models.dismiss': { en: 'dismiss', zh: '关闭' },

  // The runtime switch and note
  'provider.label': { en: 'runtime', zh: '运行时' },
  'provider.auto': { en: 'Auto', zh: '自动' },
  'provider.webgpu': { en: 'WebGPU', zh: 'WebGPU' },
  'provider.wasm': { en: 'WASM', zh: 'WASM' },
  'provider.autoTitle': { en: 'WebGPU where this browser offers an adapter, otherwise WASM (reloads the model)', zh: '浏览器提供 WebGPU 适配器时用 WebGPU，否则用 WASM（会重新加载模型）' },
  'provider.webgpuTitle': { en: 'Run on the GPU through WebGPU; falls back to WASM where it cannot start (reloads the model)', zh: '通过 WebGPU 在 GPU 上运行；无法启动时回退到 WASM（会重新加载模型）' },
  'provider.wasmTitle': { en: 'Run on the CPU through WebAssembly, within its 4 GiB of memory (reloads the model)', zh: '通过 WebAssembly 在 CPU 上运行，内存上限 4 GiB（会重新加载模型）' },
  'provider.noAdapter': { en: 'no WebGPU adapter in this browser', zh: '此浏览器没有 WebGPU 适配器' },
  'provider.softwareAdapter': { en: 'only a software WebGPU adapter here (slower than WASM); choose WebGPU to use it anyway', zh: '此处只有软件实现的 WebGPU 适配器（比 WASM 慢）；如仍要使用，请选择 WebGPU' },
  'provider.why': { en: 'not on WebGPU: {reason}', zh: '未使用 WebGPU：{reason}' },
  'provider.whyShort': { en: 'not WebGPU (why?)', zh: '非 WebGPU（原因？）' },

  // The load line
  'models.fileBytes': { en: '{loaded} of {total}', zh: '{loaded} / 共 {total}' },
  'models.fileEta': { en: '{eta} left', zh: '剩余 {eta}' },
  'models.fileCached': { en: 'from the browser cache', zh: '来自浏览器缓存' },

  // The dialog
  'models.dialogTitle': { en: 'Open a model', zh: '打开模型' },
  'models.close': { en: 'close (Esc)', zh: '关闭（Esc）' },
  'models.intro': {
    en: 'kvscope runs Qwen3, Qwen2 / Qwen2.5 and Llama checkpoints (safetensors with F32, F16 or BF16 weights) in this tab. Check reads only config.json and the safetensors headers; the weights are downloaded when you click Load.',
    zh: 'kvscope 可在本标签页中运行 Qwen3、Qwen2 / Qwen2.5 和 Llama 检查点（safetensors 格式，F32、F16 或 BF16 权重）。“检查”只读取 config.json 和 safetensors 文件头；点击“加载”后才下载权重。',
  },
  'models.hubTitle': { en: 'Hugging Face Hub', zh: 'Hugging Face Hub 模型库' },
  'models.hubRepo': { en: 'repository', zh: '仓库' },
  'models.hubPlaceholder': { en: 'org/name, org/name@revision or a Hub URL', zh: 'org/name、org/name@版本 或 Hub 网址' },
  'models.examples': { en: 'examples', zh: '示例' },
  'models.endpoint': { en: 'Mirror / endpoint', zh: '镜像 / 端点' },
  'models.endpointHelp': {
    en: 'Files are fetched from {url}. A mirror such as https://hf-mirror.com, or a local server with the same layout, works as well. Gated repositories need a download with huggingface-cli and the folder section below.',
    zh: '文件从 {url} 获取。也可以使用镜像站（如 https://hf-mirror.com）或具有相同目录结构的本地服务器。需要授权的仓库请用 huggingface-cli 下载后，通过下方的文件夹加载。',
  },
  'models.endpointReset': { en: 'use huggingface.co', zh: '使用 huggingface.co' },
  'models.check': { en: 'Check', zh: '检查' },
  'models.checkTitle': { en: 'Read config.json and the safetensors headers (a few KB) and estimate what loading costs', zh: '读取 config.json 和 safetensors 文件头（几 KB），估算加载所需的资源' },
  'models.checking': { en: 'reading config.json and the safetensors headers…', zh: '正在读取 config.json 和 safetensors 文件头…' },
  'models.load': { en: 'Load', zh: '加载' },
  'models.loadOn': { en: 'Load on {provider}', zh: '在 {provider} 上加载' },
  'models.loadOnTitle': { en: 'The runtime chosen now cannot run it; this switches the runtime to {provider} and loads it there', zh: '当前选择的运行时无法运行该模型；点击后切换到 {provider} 并在其上加载' },
  'models.loadDisabled': { en: 'cannot be loaded here: {reason}', zh: '无法在此加载：{reason}' },
  'models.folderTitle': { en: 'Folder on this computer', zh: '本机文件夹' },
  'models.folderPick': { en: 'choose a folder', zh: '选择文件夹' },
  'models.folderPicker': { en: 'open a folder…', zh: '打开文件夹…' },
  'models.folderDrop': { en: 'or drop the model folder (or its files) here', zh: '或把模型文件夹（或其中的文件）拖到这里' },
  'models.folderFiles': { en: '{label}: {count} files', zh: '{label}：{count} 个文件' },
  'models.folderReading': { en: 'reading the folder…', zh: '正在读取文件夹…' },
  'models.folderEmpty': { en: 'No files were found in what was dropped or picked.', zh: '拖入或选择的内容中没有文件。' },
  'models.cachedTitle': { en: 'Kept in this browser', zh: '本浏览器中的缓存' },
  'models.cachedEmpty': { en: 'No Hub model is kept in this browser yet.', zh: '本浏览器中还没有缓存的 Hub 模型。' },
  'models.cachedUnavailable': {
    en: 'This page has no Cache Storage (it needs https or localhost), so downloads are not kept after a reload.',
    zh: '此页面没有 Cache Storage（需要 https 或 localhost），因此下载的文件在重新加载后不会保留。',
  },
  'models.cachedFiles': { en: '{count} files · {bytes}', zh: '{count} 个文件 · {bytes}' },
  'models.cachedFrom': { en: 'from {endpoint}', zh: '来自 {endpoint}' },
  'models.cachedLoad': { en: 'Load', zh: '加载' },
  'models.delete': { en: 'Delete', zh: '删除' },
  'models.deleteConfirm': { en: 'Delete {bytes}', zh: '删除 {bytes}' },
  'models.cancel': { en: 'cancel', zh: '取消' },
  'models.refresh': { en: 'refresh', zh: '刷新' },

  // The preflight report
  'report.title': { en: 'Preflight: {label}', zh: '预检：{label}' },
  'report.architecture': { en: 'architecture', zh: '架构' },
  'report.shape': {
    en: '{layers} layers · {heads} heads ({kvHeads} K/V) · head dim {headDim} · hidden {hidden} · vocabulary {vocab}',
    zh: '{layers} 层 · {heads} 个头（{kvHeads} 个 K/V 头）· 头维度 {headDim} · 隐藏维度 {hidden} · 词表 {vocab}',
  },
  'report.parameters': { en: 'parameters', zh: '参数量' },
  'report.dtype': { en: 'dtype', zh: '数据类型' },
  'report.download': { en: 'download', zh: '下载量' },
  'report.downloadValue': { en: '{bytes} in {count} files', zh: '{bytes}，共 {count} 个文件' },
  'report.downloadUnknown': { en: '{bytes} in {count} files (some sizes unknown)', zh: '{bytes}，共 {count} 个文件（部分大小未知）' },
  'report.weights': { en: 'weights in memory', zh: '内存中的权重' },
  'report.weightsValue': { en: '{bytes} as {type}', zh: '{bytes}（以 {type} 存储）' },
  'report.kv': { en: 'K/V cache per 1k tokens', zh: '每 1k token 的 K/V 缓存' },
  'report.attention': { en: 'attention at {tokens} tokens', zh: '{tokens} 个 token 时的注意力' },
  'report.attentionValue': { en: '{reduced} for all layers head-reduced · {perHead} for one layer per head', zh: '所有层（按头汇总）{reduced} · 单层逐头 {perHead}' },
  'report.memory': { en: 'memory at {tokens} tokens', zh: '{tokens} 个 token 时的内存' },
  'report.memoryValue': { en: 'WASM heap {wasm} (tab {tab}) · GPU {gpu}', zh: 'WASM 堆 {wasm}（标签页共 {tab}）· GPU {gpu}' },
  'report.verdicts': { en: 'this browser', zh: '本浏览器' },
  'report.ok': { en: 'can run it', zh: '可以运行' },
  'report.okUpTo': { en: 'can run it, up to {tokens} tokens', zh: '可以运行，最多 {tokens} 个 token' },
  'report.no': { en: 'cannot run it', zh: '无法运行' },
  'report.refused': { en: 'not supported', zh: '不支持' },
  'report.notes': { en: 'notes', zh: '说明' },
  'report.unknown': { en: 'unknown', zh: '未知' },
} satisfies Dict;
