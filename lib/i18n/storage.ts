// Strings of: keeping the user's work — storage failures (full quota, unreadable or missing storage), the
// limit on custom scenarios, the workspace file (export, import, its refusals and merge preview) and the
// note after the inference worker crashed.
import type { Dict } from './types';

export const storageStrings = {
  'storage.what.settings': { en: 'your settings', zh: '你的设置' },
  'storage.what.scenario': { en: 'the scenario “{name}”', zh: '场景“{name}”' },
  'storage.what.scenarios': { en: '{count} scenarios', zh: '{count} 个场景' },
  'storage.what.deletion': { en: 'a deletion', zh: '删除操作' },
  'storage.what.changes': { en: 'your latest changes', zh: '你最近的更改' },
  'storage.what.imports': { en: 'the imported files', zh: '导入的文件' },
  'storage.usage': { en: ' ({used} of {quota} used)', zh: '（已用 {used}，共 {quota}）' },
  'storage.quota': {
    en: 'Could not save {what}: the browser’s storage for kvscope is full{usage}. Everything saved before is kept, and the change stays in this tab until it closes. Free space — delete imports you no longer need on the “Your data” tab, or export the workspace there and delete from it — and the next change saves it.',
    zh: '无法保存{what}：浏览器分配给 kvscope 的存储空间已满{usage}。之前保存的内容都还在，这次更改会保留在本标签页中直到关闭。请释放空间（在“你的数据”标签页删除不再需要的导入，或先在那里导出工作区再删除），下一次更改时就会保存。',
  },
  'storage.failed': {
    en: 'Could not save {what}: {detail}. Everything saved before is kept; the change stays in this tab until it closes.',
    zh: '无法保存{what}：{detail}。之前保存的内容都还在；这次更改会保留在本标签页中直到关闭。',
  },
  'storage.unavailable': {
    en: 'This browser does not let kvscope keep data here ({detail}), e.g. in a private window: your scenarios and settings last until the tab closes. Export the workspace on the “Your data” tab to keep them.',
    zh: '此浏览器不允许 kvscope 在这里保存数据（{detail}），例如在隐私窗口中：你的场景和设置只保留到标签页关闭。要保留它们，请在“你的数据”标签页导出工作区。',
  },
  'storage.blocked': {
    en: 'Another kvscope tab holds the stored data in an older form: close the other kvscope tabs and reload. Nothing was lost.',
    zh: '另一个 kvscope 标签页正以旧格式占用已保存的数据：请关闭其他 kvscope 标签页并重新加载。没有丢失任何内容。',
  },
  'storage.read': {
    en: 'What you saved could not be read ({detail}). It is left untouched: changes in this tab are not saved over it. Reload to try again.',
    zh: '无法读取你保存的内容（{detail}）。它保持原样：本标签页中的更改不会覆盖它。请重新加载再试。',
  },
  'storage.dismiss': { en: 'dismiss', zh: '关闭' },

  'scenario.capConfirm': {
    en: 'You have {max} scenarios of your own, the most kvscope keeps. Remove the oldest, “{oldest}”, to make room for the new one?\n\nCancel keeps everything: delete a scenario yourself, or export the workspace first (on the “Your data” tab).',
    zh: '你已有 {max} 个自己的场景，这是 kvscope 保留的上限。要删除最早的“{oldest}”，为新场景腾出位置吗？\n\n选择取消则全部保留：你可以自己删除一个场景，或先（在“你的数据”标签页）导出工作区。',
  },

  'workspace.title': { en: 'Workspace', zh: '工作区' },
  'workspace.intro': {
    en: 'Everything kvscope keeps in this browser — settings, your scenarios, imported run logs and attention files — as one JSON file: a backup, or a move to another browser. Importing one adds to what is here and never replaces an item.',
    zh: 'kvscope 在此浏览器中保存的全部内容（设置、你的场景、导入的运行日志和注意力文件）合成一个 JSON 文件：可用于备份，或迁移到另一个浏览器。导入时只会添加，不会替换已有的任何条目。',
  },
  'workspace.export': { en: 'Export workspace (.json)', zh: '导出工作区（.json）' },
  'workspace.import': { en: 'Import workspace…', zh: '导入工作区…' },
  'workspace.exported': { en: 'Saved {file}: {scenarios} scenarios and {imports} imported files ({size}).', zh: '已保存 {file}：{scenarios} 个场景和 {imports} 个导入文件（{size}）。' },
  'workspace.exportFailed': { en: 'Could not export the workspace: {reason}', zh: '无法导出工作区：{reason}' },
  'workspace.reading': { en: 'reading {file}…', zh: '正在读取 {file}…' },
  'workspace.refused': { en: '{file} was not imported: {reason}. Nothing was changed.', zh: '{file} 未导入：{reason}。没有做任何更改。' },
  'workspace.err.tooLarge': { en: 'the file has {size} characters, more than the {max} kvscope reads', zh: '文件有 {size} 个字符，超过 kvscope 可读取的 {max}' },
  'workspace.err.json': { en: 'it is not valid JSON (line {line}, column {column}: {detail})', zh: '它不是有效的 JSON（第 {line} 行第 {column} 列：{detail}）' },
  'workspace.err.format': { en: 'it is not a kvscope workspace file (its “format” is {found})', zh: '它不是 kvscope 工作区文件（其“format”为 {found}）' },
  'workspace.err.version': { en: 'it is version {found} of the workspace format; this kvscope reads up to version {max}', zh: '它是工作区格式的第 {found} 版；此 kvscope 最多读取第 {max} 版' },
  'workspace.err.type': { en: 'at {place}: expected {expected}, found {found}', zh: '位置 {place}：应为 {expected}，实际为 {found}' },
  'workspace.err.value': { en: 'at {place}: the value is not allowed ({detail})', zh: '位置 {place}：该值不被接受（{detail}）' },
  'workspace.err.request': { en: 'at {place}: not a valid request ({detail})', zh: '位置 {place}：不是有效的请求（{detail}）' },
  'workspace.kind.object': { en: 'an object', zh: '对象' },
  'workspace.kind.array': { en: 'an array', zh: '数组' },
  'workspace.kind.string': { en: 'a string', zh: '字符串' },
  'workspace.kind.number': { en: 'a number', zh: '数字' },
  'workspace.kind.boolean': { en: 'true or false', zh: '布尔值' },
  'workspace.kind.null': { en: 'null', zh: 'null（空值）' },
  'workspace.kind.missing': { en: 'nothing (the field is missing)', zh: '无（缺少该字段）' },
  'workspace.preview': { en: '{file} (exported {when}) holds {scenarios} scenarios and {imports} imported files. Importing it will:', zh: '{file}（导出于 {when}）包含 {scenarios} 个场景和 {imports} 个导入文件。导入它将会：' },
  'workspace.unknownDate': { en: 'at an unknown time', zh: '时间未知' },
  'workspace.add': { en: 'add the scenario “{name}”', zh: '添加场景“{name}”' },
  'workspace.addRenamed': { en: 'add the scenario “{from}” as “{name}” (the name is taken here)', zh: '以“{name}”为名添加场景“{from}”（此处已有同名场景）' },
  'workspace.addImport': { en: 'add the imported file “{name}”', zh: '添加导入文件“{name}”' },
  'workspace.addImportRenamed': { en: 'add the imported file “{from}” as “{name}” (the name is taken here)', zh: '以“{name}”为名添加导入文件“{from}”（此处已有同名文件）' },
  'workspace.same': { en: 'skip {count} items that are already here, identical', zh: '跳过 {count} 个此处已有的相同条目' },
  'workspace.nothingNew': { en: 'add nothing: everything in the file is already here', zh: '不添加任何内容：文件中的一切此处都已存在' },
  'workspace.useSettings': { en: 'also replace my settings (language, model, view, tab…) with the file’s', zh: '同时用文件中的设置（语言、模型、视图、标签页…）替换我的设置' },
  'workspace.overCap': {
    en: 'Refused: you would have {total} scenarios of your own, more than the {max} kvscope keeps. Delete {excess} first (or import this file into an empty browser).',
    zh: '已拒绝：你将拥有 {total} 个自己的场景，超过 kvscope 保留的上限 {max}。请先删除 {excess} 个（或把此文件导入到一个空的浏览器中）。',
  },
  'workspace.apply': { en: 'Import', zh: '导入' },
  'workspace.cancel': { en: 'Cancel', zh: '取消' },
  'workspace.done': { en: 'Imported {scenarios} scenarios and {imports} files; nothing already here was changed.', zh: '已导入 {scenarios} 个场景和 {imports} 个文件；此处已有的内容均未更改。' },
  'workspace.doneSettings': { en: 'Imported {scenarios} scenarios and {imports} files, and the file’s settings; nothing already here was changed.', zh: '已导入 {scenarios} 个场景和 {imports} 个文件以及文件中的设置；此处已有的内容均未更改。' },

  'worker.restarted': {
    en: 'The inference worker stopped ({reason}) and was restarted: the model was loaded again and the views run again. Your scenarios and the text you were editing are kept.',
    zh: '推理 worker 停止了（{reason}），已重新启动：模型已重新加载，视图会重新运行。你的场景和正在编辑的文本都已保留。',
  },
  'worker.reloadFailed': { en: 'The model could not be loaded again in the new worker ({detail}).', zh: '新的 worker 未能重新加载模型（{detail}）。' },
  'worker.failed': {
    en: 'The inference worker keeps stopping ({reason}); the engine is off until you restart it. Your scenarios and the text you were editing are kept.',
    zh: '推理 worker 反复停止（{reason}）；在你重启之前引擎处于关闭状态。你的场景和正在编辑的文本都已保留。',
  },
  'worker.memory': { en: 'It most likely ran out of memory.', zh: '很可能是内存不足。' },
  'worker.hints': {
    en: 'If it happens again: show a shorter context (an earlier call of the loop, or fewer messages), switch the runtime to WASM instead of WebGPU, or choose a smaller model.',
    zh: '如果再次发生：请显示更短的上下文（循环中更早的一次调用，或更少的消息），把运行时从 WebGPU 切换为 WASM，或选择更小的模型。',
  },
  'worker.dismiss': { en: 'dismiss', zh: '关闭' },
} satisfies Dict;
