// Strings of: the Data tab: importing request bodies, run logs and attention files.
import type { Dict } from './types';

export const dataStrings = {
  'tab.data': { en: 'Your data', zh: '你的数据' },
  'data.title': { en: 'Bring your own data', zh: '导入你自己的数据' },
  'data.intro': {
    en: 'Drop files anywhere on the page, choose them, or paste text. kvscope recognises three kinds by their content: an OpenAI chat-completions request body becomes a new scenario (the views above then show it on the embedded model); a run log shows how the context grew call by call; attention computed elsewhere (e.g. Qwen3-8B on your GPU) gets the heatmap, sink and position views. Nothing is uploaded: files are read in this tab.',
    zh: '可以把文件拖放到页面任意位置、选择文件，或粘贴文本。kvscope 按内容识别三种数据：OpenAI chat-completions 请求体会成为一个新场景（上方视图随即在内置模型上展示它）；运行日志展示上下文如何逐次调用增长；在别处计算的注意力（例如你 GPU 上的 Qwen3-8B）可以用热力图、汇聚点和位置视图查看。不会上传任何内容：文件只在本标签页中读取。',
  },
  'data.choose': { en: 'Choose files…', zh: '选择文件…' },
  'data.dropHere': { en: 'or drop them here', zh: '或拖放到这里' },
  'data.pasteLabel': { en: 'Paste a request body, a run log or an attention JSON', zh: '粘贴请求体、运行日志或注意力 JSON' },
  'data.pastePlaceholder': { en: '{"messages": [{"role": "user", "content": "…"}], "tools": […]}', zh: '{"messages": [{"role": "user", "content": "北京 的 天气 怎么样"}], "tools": […]}' },
  'data.pasteName': { en: 'name', zh: '名称' },
  'data.pasteDefaultName': { en: 'pasted', zh: '粘贴的数据' },
  'data.pasteButton': { en: 'Import pasted text', zh: '导入粘贴的文本' },
  'data.formats': {
    en: 'Accepted: request bodies ({"messages", "tools"}; other fields are ignored with a note) · run logs (the book’s result JSON with tracker_calls, a web-page capture of it, or a list of {agent, prompt_tokens, completion_tokens, note}) · attention (kvscope-attention JSON or .safetensors written by tools/export_attention.py, or the book’s attention_visualization trajectory JSON). Links: add ?url=<address of a file> to the page address to import it on opening (the server must allow this page to read it).',
    zh: '可接受：请求体（{"messages", "tools"}；其他字段会被忽略并给出说明）· 运行日志（书中带 tracker_calls 的结果 JSON、它的网页抓取文本，或 {agent, prompt_tokens, completion_tokens, note} 列表）· 注意力（tools/export_attention.py 写出的 kvscope-attention JSON 或 .safetensors，或书中的 attention_visualization 轨迹 JSON）。链接：在页面地址后加 ?url=<文件地址>，打开时即导入（该服务器须允许本页面读取）。',
  },
  'data.dropOverlay': { en: 'Drop to import (request bodies, run logs, attention files)', zh: '松开即可导入（请求体、运行日志、注意力文件）' },
  'data.reading': { en: 'reading {name}…', zh: '正在读取 {name}…' },
  'data.cancelled': { en: 'Reading {name} was cancelled: nothing was kept.', zh: '已取消读取 {name}：未保存任何内容。' },
  'data.fetching': { en: 'fetching {url}…', zh: '正在获取 {url}…' },
  'data.fetchFailed': {
    en: 'could not fetch {url}: {reason}. The file’s server must be reachable and allow this page to read it (CORS); nothing was changed.',
    zh: '无法获取 {url}：{reason}。文件所在服务器必须可访问，并允许本页面读取（CORS）；没有做任何更改。',
  },
  // ?url= links (lib/io/linkPolicy): the confirmation before another site is read, and every refusal.
  'link.confirm': {
    en: 'This link asks kvscope to fetch a file from another site: {host}. The file is read as data only (nothing in it runs or is shown as a web page), and reading stops at {limit}.',
    zh: '此链接要求 kvscope 从另一个网站获取文件：{host}。文件只作为数据读取（其中任何内容都不会运行，也不会作为网页显示），读取到 {limit} 即停止。',
  },
  'link.confirmFetch': { en: 'Fetch from {host}', zh: '从 {host} 获取' },
  'link.confirmCancel': { en: 'Cancel', zh: '取消' },
  'link.cancelled': { en: 'Nothing was fetched from {host}.', zh: '没有从 {host} 获取任何内容。' },
  'link.fetching': { en: 'fetching {url} (at most {limit})…', zh: '正在获取 {url}（最多 {limit}）…' },
  'link.invalid': { en: 'The ?url= of this link, “{url}”, is not a web address; nothing was fetched.', zh: '此链接的 ?url=（“{url}”）不是网址；没有获取任何内容。' },
  'link.tooLong': {
    en: 'The ?url= of this link is {chars} characters long, over the limit of {limit}; nothing was fetched.',
    zh: '此链接的 ?url= 长 {chars} 个字符，超过 {limit} 的上限；没有获取任何内容。',
  },
  'link.scheme': {
    en: 'The link asks kvscope to open a {scheme} address (“{url}”); kvscope fetches only https: addresses and files of this site, so nothing was fetched.',
    zh: '此链接要求 kvscope 打开一个 {scheme} 地址（“{url}”）；kvscope 只获取 https: 地址和本网站的文件，因此没有获取任何内容。',
  },
  'link.insecure': {
    en: 'The link points to {host} over plain http:, which anyone on the way can read and change; kvscope fetches only https: addresses and files of this site, so nothing was fetched.',
    zh: '此链接通过明文 http: 指向 {host}，途中任何人都能读取和篡改；kvscope 只获取 https: 地址和本网站的文件，因此没有获取任何内容。',
  },
  'link.credentials': {
    en: 'The link carries a user name or password in its address (“{url}”); kvscope never fetches such links, so nothing was fetched.',
    zh: '此链接的地址中带有用户名或密码（“{url}”）；kvscope 从不获取这类链接，因此没有获取任何内容。',
  },
  'link.tooLarge': {
    en: 'The file at {url} is {size}, over the limit of {limit} for links; it was not read. Download it and drop it on the page instead.',
    zh: '{url} 处的文件大小为 {size}，超过链接导入 {limit} 的上限；没有读取它。请先下载，再把它拖放到页面上。',
  },
  'link.tooLargeRead': {
    en: 'The file at {url} is larger than the limit of {limit} for links; reading stopped there and nothing was kept. Download it and drop it on the page instead.',
    zh: '{url} 处的文件超过链接导入 {limit} 的上限；读取已在此停止，没有保留任何内容。请先下载，再把它拖放到页面上。',
  },
  'link.webPage': {
    en: 'The link points to a web page ({type}), not to a data file; kvscope does not open web pages, so nothing was imported. Link to the raw file instead (on GitHub: the “Raw” button).',
    zh: '此链接指向一个网页（{type}），而不是数据文件；kvscope 不打开网页，因此没有导入任何内容。请改为链接原始文件（在 GitHub 上：点击“Raw”按钮）。',
  },
  'link.contentType': {
    en: 'The file at {url} is of type {type}; kvscope reads only JSON, text or raw bytes (octet-stream) from links, so nothing was imported.',
    zh: '{url} 处的文件类型为 {type}；kvscope 只从链接读取 JSON、文本或原始字节（octet-stream），因此没有导入任何内容。',
  },
  'link.redirected': {
    en: 'The link to {url} was redirected to {to}, an address kvscope does not fetch from (only https: and this site); nothing was imported.',
    zh: '指向 {url} 的链接被重定向到 {to}，kvscope 不从该地址获取内容（只允许 https: 和本网站）；没有导入任何内容。',
  },
  'data.importedRequest': { en: 'Imported “{source}” as the new scenario “{name}”; the views now show it.', zh: '已将“{source}”导入为新场景“{name}”，视图现在展示的就是它。' },
  'data.requestKnown': { en: 'Imported “{source}”: the same request is already saved as “{name}”, which is now selected.', zh: '已导入“{source}”：相同的请求已保存为“{name}”，现已选中它。' },
  'data.importedRunlog': { en: 'Imported the run log “{name}”: {calls} calls ({form}).', zh: '已导入运行日志“{name}”：{calls} 次调用（{form}）。' },
  'data.importedAttention': { en: 'Imported the attention file “{name}”: {tokens} tokens, {layers} layer(s).', zh: '已导入注意力文件“{name}”：{tokens} 个 token，{layers} 层。' },
  'data.failed': { en: 'Could not import “{name}” — nothing was changed:', zh: '无法导入“{name}”——没有做任何更改：' },
  'data.openAnyway': { en: 'Open it in the editor anyway (as a new scenario, to fix it there)', zh: '仍然在编辑器中打开（作为新场景，在那里修正）' },
  'data.notKept': {
    en: 'Shown, but not kept across reloads: {reason}',
    zh: '已显示，但刷新后不会保留：{reason}',
  },
  'data.dismiss': { en: 'dismiss', zh: '关闭' },
  'data.list': { en: 'Your imported run logs and attention files', zh: '你导入的运行日志和注意力文件' },
  'data.listNote': { en: 'kept in this browser (IndexedDB); imported request bodies are in the scenario list above.', zh: '保存在本浏览器中（IndexedDB）；导入的请求体在上方的场景列表中。' },
  'data.empty': { en: 'Nothing imported yet.', zh: '还没有导入任何数据。' },
  'data.kind.runlog': { en: 'run log', zh: '运行日志' },
  'data.kind.attention': { en: 'attention', zh: '注意力' },
  'data.show': { en: 'show', zh: '查看' },
  'data.rename': { en: 'name', zh: '名称' },
  'data.delete': { en: 'delete', zh: '删除' },
  'data.deleteConfirm': { en: 'Delete the import “{name}” from this browser?', zh: '从本浏览器删除导入的“{name}”？' },
  'data.loadFailed': { en: 'Could not read the stored import “{name}”: {reason}', zh: '无法读取已保存的导入“{name}”：{reason}' },
  'data.loading': { en: 'reading “{name}”…', zh: '正在读取“{name}”…' },
  'data.size': { en: '{size}', zh: '{size}' },
  'data.form.result-json': { en: 'result JSON', zh: '结果 JSON' },
  'data.form.page-capture': { en: 'web-page capture', zh: '网页抓取文本' },
  'data.form.list': { en: 'list of calls', zh: '调用列表' },
  'export.heatmapCaption': { en: 'attention, layer {layer}, {head}, {scale} scale', zh: '注意力，第 {layer} 层，{head}，{scale} 色标' },
} satisfies Dict;
