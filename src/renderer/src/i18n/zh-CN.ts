import type { Translation } from './en'

/** Simplified Chinese strings. */
export const zhCN: Translation = {
  app: {
    name: 'Context Lens',
    windowTitle: '{{title}} · Context Lens',
    recoveredTitle: '之前的数据库已损坏。',
    recoveredBody: '你选择了使用新的空数据库。损坏的文件已保留在 {{path}}。'
  },
  common: {
    cancel: '取消',
    dismiss: '关闭',
    retry: '重试'
  },
  threads: {
    listLabel: '对话',
    newThread: '新建对话',
    untitled: '新对话',
    loading: '正在加载对话…',
    emptyTitle: '还没有对话',
    emptyBody: '点击“新建对话”开始。',
    noMessages: '暂无消息',
    rename: '重命名',
    renameLabel: '对话标题',
    delete: '删除',
    actionsFor: '“{{title}}”的操作',
    deleteTitle: '删除这个对话？',
    deleteBody: '“{{title}}”及其全部消息将被删除，且无法恢复。',
    deleteConfirm: '删除对话'
  },
  search: {
    label: '搜索对话和消息',
    placeholder: '搜索对话和消息',
    clear: '清除搜索',
    resultsLabel: '搜索结果',
    searching: '正在搜索…',
    noResults: '没有与“{{query}}”匹配的内容。',
    titleMatch: '标题'
  },
  chat: {
    noThreadTitle: '开始一段对话',
    noThreadBody: '从左侧选择一个对话，或新建一个。你写下的所有内容都保存在这台电脑上。',
    emptyThreadTitle: '这里还没有内容',
    emptyThreadBody: '在下方写下第一条消息。检查器会准确展示模型将收到的内容。',
    loading: '正在加载消息…',
    loadFailed: '无法加载此对话：{{message}}',
    messagesLabel: '消息',
    messageCount_one: '{{count}} 条消息',
    messageCount_other: '{{count}} 条消息',
    roles: {
      user: '你',
      assistant: '助手',
      system: '系统',
      tool: '工具'
    },
    composerLabel: '消息',
    placeholder: '输入消息…',
    hint: 'Enter 发送 · Shift+Enter 换行',
    send: '发送',
    sendFailed: '未发送：{{message}}',
    noModelTitle: '尚未配置模型服务。',
    noModelBody: '你的消息已保存。在配置模型服务之前不会有回复，因此这里不显示任何回答。',
    showInspector: '显示检查器',
    hideInspector: '隐藏检查器',
    inspector: '检查器',
    pin: '置顶',
    pinHint: '置顶的消息总会发送给模型',
    exclude: '排除',
    excludeHint: '排除的消息永远不会发送给模型',
    notSent: '不发送',
    flagFailed: '无法更改此消息：{{message}}',
    buildFailed: '你的消息已保存，但无法为其构建上下文：{{message}}'
  },
  inspector: {
    title: 'Token 预算',
    close: '关闭检查器',
    resize: '调整检查器宽度',
    noThreadTitle: '没有打开的对话',
    noThreadBody:
      '打开一个对话后，检查器会准确展示下一条消息发送时模型将收到的内容：各部分的预算、每个候选项及其被保留或舍弃的原因，以及完整的请求内容。',
    building: '正在生成预览…',
    failed: '检查器无法加载：{{message}}',
    source: {
      preview: '草稿的实时预览',
      previewWhatIf: '实时预览（预算设置尚未保存）',
      history: '已发送的构建 · {{time}}',
      backToPreview: '返回实时预览'
    },
    tabs: {
      label: '检查器视图',
      items: '条目',
      payload: '请求内容',
      settings: '预算',
      history: '历史'
    },
    sections: {
      system: '系统',
      summary: '摘要',
      retrieved: '检索',
      recent: '近期消息',
      input: '输入',
      pinning: '目标提示'
    },
    budget: {
      barLabel: '各部分已用的 token',
      total: '已用 {{used}} / {{budget}} token',
      window: '上下文窗口 {{window}} · 为回复保留 {{reserve}}',
      segment: '{{section}}：已用 {{used}} / 预算 {{budget}} token',
      usage: '{{used}} / {{budget}}',
      items_one: '{{count, number}} 项',
      items_other: '{{count, number}} 项',
      legendLabel: '各部分的用量与预算'
    },
    metadata: {
      label: '本次构建概况',
      included: '已发送',
      dropped: '已舍弃',
      summarized: '已摘要',
      memories: '记忆',
      summaryUsed: '使用了摘要',
      summaryNone: '无摘要'
    },
    warnings: {
      system_truncated: '系统提示词被截短以符合预算。',
      summary_truncated: '摘要被截短或省略以符合其预算。',
      input_over_budget: '你的输入超出了剩余预算，但仍会完整发送。',
      pinned_over_budget: '置顶消息超出了预算，但仍会发送。',
      pinning_dropped: '没有剩余预算容纳目标提示块。',
      context_window_exceeded: '此请求超出了模型的上下文窗口。',
      orphan_tool_result: '一个缺少对应调用的工具结果已被省略。',
      unanswered_tool_call: '一个缺少结果的工具调用已被省略。',
      estimated_tokens: '此模型没有精确的分词器：token 数为估算值。',
      unknown_model: '未知模型：其上下文窗口为假定值。',
      engine_fallback: '所配置的上下文引擎不存在，已改用默认构建器。',
      upstream: '记忆检索失败或超时，本次未附带记忆。'
    },
    decisions: {
      included: '已包含',
      dropped_budget: '舍弃：超预算',
      excluded_by_user: '你已排除',
      pinned: '已置顶',
      covered_by_summary: '已摘要',
      duplicate: '重复'
    },
    trace: {
      label: '各部分的候选项',
      empty: '没有候选项。',
      kinds: {
        system: '系统提示词',
        summary: '对话摘要',
        input: '你的输入',
        pinning: '目标提示块'
      },
      message: '#{{seq}} · {{role}}',
      messageMissing: '此消息已不在对话中',
      memory: '相关度 {{score}} · {{source}}',
      tokensTitle_one: '{{count, number}} 个 token',
      tokensTitle_other: '{{count, number}} 个 token',
      reveal: '在对话中显示第 {{seq}} 条消息',
      collapsed_dropped_budget: '消息 #{{from}}–#{{to}}：{{n}} 条因超预算被舍弃',
      collapsed_covered_by_summary: '消息 #{{from}}–#{{to}}：{{n}} 条已包含在摘要中',
      showMore: '再显示 {{count}} 项'
    },
    payload: {
      label: '发送给模型的完整消息',
      summary_one: '{{count, number}} 条消息，与发送内容完全一致',
      summary_other: '{{count, number}} 条消息，与发送内容完全一致',
      copy: '复制为 JSON',
      copied: '已复制',
      copyFailed: '复制失败',
      toolCall: '调用 {{name}}',
      toolResult: '{{id}} 的结果',
      empty: '（空）'
    },
    config: {
      percentages: '占总预算的比例',
      sum: '合计 {{sum}} %',
      sumOver: '合计 {{sum}} %：最多 100 %',
      sumHeadroom: '合计 {{sum}} %：{{free}} % 未分配',
      shareTokens: '≈ {{tokens}}',
      totalBudget: '总预算',
      totalAuto: '自动：{{tokens}}',
      totalHint: '留空：模型窗口减去为回复保留的部分。',
      tokensUnit: 'token',
      pinning: '目标提示块',
      pinningHint: '在你的输入之前重申当前目标。',
      unsaved: '未保存：预览使用这些设置，但尚未存储。',
      reset: '重置',
      saveThread: '仅用于此对话',
      saveGlobal: '设为默认',
      threadOverrides: '此对话单独设置了：{{fields}}。',
      fieldTotal: '总预算',
      fieldPinning: '目标提示块',
      fieldOther: '模型与引擎',
      loading: '正在加载设置…'
    },
    history: {
      label: '此对话已发送的构建，最新的在前',
      empty: '此对话还没有发送过消息。每条发送的消息都会在这里保留其构建。',
      tokens_one: '{{count, number}} 个 token',
      tokens_other: '{{count, number}} 个 token',
      messages_one: '{{count, number}} 条消息',
      messages_other: '{{count, number}} 条消息'
    }
  },
  settings: {
    language: '语言',
    languageSystem: '跟随系统',
    saveFailed: '无法保存设置：{{message}}',
    loadFailed: '无法加载设置，已使用默认值：{{message}}'
  }
}
