import type { Translation } from '../resources'

export const memory: Translation['memory'] = {
  open: '记忆',
  openHint: '助手跨对话记住的内容',
  title: '记忆',
  intro: '需要时会在任意对话中被召回。所有内容都保存在这台电脑上。',
  count_one: '{{count, number}} 条记忆',
  count_other: '{{count, number}} 条记忆',
  close: '返回对话',
  categories: {
    user_preference: '偏好',
    fact: '事实',
    task: '任务',
    other: '其他'
  },
  allCategories: '全部类别',
  searchLabel: '搜索记忆',
  searchPlaceholder: '搜索记忆',
  filterLabel: '按类别筛选',
  newMemory: '新建记忆',
  listLabel: '记忆',
  loading: '正在加载记忆…',
  loadFailed: '无法加载记忆：{{message}}',
  emptyTitle: '还没有记忆',
  emptyBody: '在消息上点击“记住这条”，或在这里添加记忆。需要时，记忆会在任意对话中被召回。',
  noMatches: '没有匹配的记忆。',
  showMore: '显示更多',
  updated: '更新于 {{time}}',
  actionsFor: '这条记忆的操作',
  edit: '编辑',
  delete: '删除',
  origin: '来源',
  changeFailed: '无法保存修改：{{message}}',
  missing: '这条记忆已不存在。',
  createdSimilar: '已有一条几乎相同的记忆，已改为更新它。',
  createdSame: '这条内容已经记住了。',
  deleted: '记忆已删除。',
  undo: '撤销',
  editor: {
    contentLabel: '记忆内容',
    placeholder: '需要记住的内容，例如“我习惯使用公制单位。”',
    categoryLabel: '类别',
    save: '保存',
    add: '添加记忆'
  },
  originPanel: {
    label: '这条记忆的来源',
    loading: '正在加载来源…',
    failed: '无法加载来源：{{message}}',
    fromMessage: '来自“{{title}}”中的第 {{seq}} 条消息（{{role}}）',
    fromThread: '来自“{{title}}”，原消息已被删除。',
    typed: '在记忆管理中手动添加。',
    gone: '所在对话已被删除，记忆仍然保留。',
    openMessage: '打开原消息',
    history: '历史',
    actions: {
      create: '创建',
      update: '更新',
      delete: '删除',
      restore: '恢复'
    },
    reasons: {
      explicit: '手动添加',
      remember_message: '通过“记住这条”',
      edit: '编辑',
      dedup_hash: '再次记住了相同的内容',
      dedup_similar: '记住了一条相似的内容',
      user_delete: '由你删除',
      undo_delete: '撤销删除',
      extraction: '自动提取'
    },
    before: '之前：{{content}}'
  },
  status: {
    label: '记忆检索状态',
    ready: '语义召回已就绪',
    loading: '正在加载嵌入模型…',
    downloading: '正在下载嵌入模型… {{percent}} %',
    downloadingFile: '{{file}}：{{loaded}} / {{total}}',
    idle: '无嵌入模型：仅文字匹配',
    unavailable: '模型不可用：仅文字匹配',
    model: '{{model}} · {{dimension}} 维',
    messages_one: '已索引 {{done}} / {{count, number}} 条消息',
    messages_other: '已索引 {{done}} / {{count, number}} 条消息',
    memories_one: '已索引 {{done}} / {{count, number}} 条记忆',
    memories_other: '已索引 {{done}} / {{count, number}} 条记忆',
    indexing: '还有 {{count, number}} 项正在索引…',
    indexingRate: '还有 {{count, number}} 项正在索引 · 每秒 {{rate}} 项 · {{left}}',
    timeLeft: {
      seconds: '约剩 {{count}} 秒',
      minutes: '约剩 {{count}} 分钟',
      hours: '约剩 {{count}} 小时'
    },
    failed_one: '{{count, number}} 项无法生成向量，仍可通过全文检索找到。',
    failed_other: '{{count, number}} 项无法生成向量，仍可通过全文检索找到。',
    reembedding: '正在为新模型重新生成向量，尚未完成的条目只能按文字匹配。',
    loadFailed: '无法读取记忆状态：{{message}}'
  },
  warnings: {
    no_model: '未配置嵌入模型：记忆检索只按文字匹配，不理解语义。',
    loading: '嵌入模型仍在加载：记忆检索暂时只按文字匹配。',
    downloading: '正在下载嵌入模型：记忆检索暂时只按文字匹配。',
    unavailable: '无法加载嵌入模型（{{reason}}）：记忆检索只按文字匹配。',
    indexing: '嵌入模型正在准备索引：记忆检索暂时只按文字匹配。',
    embed_slow: '未能在 {{ms}} 毫秒内为你的文字生成向量：本次记忆检索只按文字匹配。',
    embed_failed: '无法为你的文字生成向量（{{reason}}）：本次记忆检索只按文字匹配。',
    text_slow: '文字检索未能在 {{ms}} 毫秒内完成：本次记忆检索只按语义匹配。',
    text_failed: '文字检索失败（{{reason}}）：本次记忆检索只按语义匹配。',
    search_timeout: '记忆检索超过 {{ms}} 毫秒，已跳过：本次请求不含记忆。',
    search_failed: '记忆检索失败（{{reason}}）：本次请求不含记忆。'
  },
  settings: {
    title: '模型设置',
    folderLabel: '模型文件夹',
    folderHint:
      '存放模型的文件夹，或包含 Xenova/multilingual-e5-small 或 Xenova/bge-small-zh-v1.5 的模型根目录。留空则使用默认位置。',
    folderPlaceholder: '默认',
    save: '使用此文件夹',
    reset: '恢复默认',
    allowDownload:
      '若各文件夹中都没有模型，则下载一次（约 {{mb}} MB，来自 Hugging Face；不会发送你的任何数据）',
    autoExtract:
      '每次回复后，由该对话的模型从你的消息中记下长期偏好和事实（向同一服务商多发一次简短请求）',
    indexingThreadsLabel: '索引线程数',
    indexingThreadsAuto: '自动：{{count}}（核心数的一半）',
    indexingThreadsHint:
      '在后台为消息和记忆生成向量所用的核心数。越多，大量历史记录越快完成索引；无论设多少，发送消息时索引都会暂停。每个线程在内存中各持有一份模型（约 {{mb}} MB）。',
    saved: '已保存，模型正在重新加载。',
    savedOther: '已保存。',
    failed: '无法保存模型设置：{{message}}',
    modelLabel: '嵌入模型',
    modelHint: '切换后会在后台重新为所有消息和记忆生成向量；完成前记忆检索只按文字匹配。',
    models: {
      e5: 'multilingual-e5-small：中文、英文及跨语言',
      bge: 'bge-small-zh-v1.5：更小，以中文为主'
    }
  },
  extracted: {
    label: '从这条消息记住的内容',
    created: '已记住：',
    updated: '已更新记忆：',
    unchanged: '早已记住：',
    forgotten: '已忘记：',
    forget: '忘记',
    undo: '撤销'
  },
  remember: {
    action: '记住这条',
    hint: '把这条消息保存为记忆，可在任意对话中召回',
    pending: '正在记住…',
    created: '已记住',
    updatedSimilar: '已更新相似的记忆',
    updated: '已更新记忆',
    unchanged: '已经记住了',
    failed: '未能记住：{{message}}',
    open: '在记忆中打开'
  }
}
