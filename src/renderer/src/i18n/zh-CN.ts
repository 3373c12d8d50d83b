import type { Translation } from './en'

/** Simplified Chinese strings. */
export const zhCN: Translation = {
  app: {
    name: 'Context Lens',
    windowTitle: '{{title}} · Context Lens',
    recoveredTitle: '之前的数据库已损坏。',
    recoveredBody: '仍可读取的内容已全部复制到新文件中。损坏的文件已保留在 {{path}}。',
    recoveredCopied: '已恢复：{{list}}。',
    recoveredLost: '无法读取：{{list}}。',
    recoveredNothing: '损坏的文件中没有任何内容可以读取。',
    recoveredUnknown: '丢失了多少{{tables}}无法得知：文件的这一部分完全无法读取。',
    recoveredTableNames: {
      threads: '对话',
      messages: '消息',
      thread_summaries: '摘要',
      message_usage: '用量记录',
      context_builds: '检查器构建',
      settings: '设置',
      memories: '记忆',
      memory_history: '记忆历史',
      mcp_servers: 'MCP 服务器'
    },
    recoveredTables: {
      threads_one: '{{count}} 个对话',
      threads_other: '{{count}} 个对话',
      messages_one: '{{count}} 条消息',
      messages_other: '{{count}} 条消息',
      thread_summaries_one: '{{count}} 条摘要',
      thread_summaries_other: '{{count}} 条摘要',
      message_usage_one: '{{count}} 条用量记录',
      message_usage_other: '{{count}} 条用量记录',
      context_builds_one: '{{count}} 次检查器构建',
      context_builds_other: '{{count}} 次检查器构建',
      settings_one: '{{count}} 项设置',
      settings_other: '{{count}} 项设置',
      memories_one: '{{count}} 条记忆',
      memories_other: '{{count}} 条记忆',
      memory_history_one: '{{count}} 条记忆历史',
      memory_history_other: '{{count}} 条记忆历史',
      mcp_servers_one: '{{count}} 个 MCP 服务器',
      mcp_servers_other: '{{count}} 个 MCP 服务器'
    }
  },
  storageErrors: {
    storage_corrupt:
      '对话数据库已损坏，因此无法读取或保存此内容。文件的副本会被保留，随后你可以恢复所有仍可读取的内容。',
    storage_full:
      '磁盘已满，因此未能保存。请释放一些空间后重试；你输入的文字仍保留着，之前保存的内容没有丢失。',
    storage_readonly:
      '对话数据库是只读的，因此未能保存。请确认你有权写入该文件及其所在文件夹，然后重试。'
  },
  common: {
    cancel: '取消',
    dismiss: '关闭',
    retry: '重试',
    close: '关闭'
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
    deleteConfirm: '删除对话',
    export: '导出'
  },
  search: {
    label: '搜索对话和消息',
    placeholder: '搜索对话和消息',
    clear: '清除搜索',
    resultsLabel: '搜索结果',
    searching: '正在搜索…',
    noResults: '没有与“{{query}}”匹配的内容。',
    titleMatch: '标题',
    exactTitle: '文字匹配',
    semanticTitle: '语义相关',
    semanticSearching: '正在查找语义相关的消息…',
    similarity: '相似度 {{value}}'
  },
  chat: {
    noThreadTitle: '开始一段对话',
    noThreadBody: '从左侧选择一个对话，或新建一个。你写下的所有内容都保存在这台电脑上。',
    emptyThreadTitle: '这里还没有内容',
    emptyThreadBody: '在下方写下第一条消息。检查器会准确展示模型将收到的内容。',
    loading: '正在加载消息…',
    loadFailed: '无法加载此对话：{{message}}',
    messagesLabel: '消息',
    loadingOlder: '正在加载更早的消息…',
    olderFailed: '无法加载更早的消息；向上滚动可重试。',
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
    copy: '复制',
    copyMessage: '复制这条消息（原文，Markdown 格式）',
    copyCode: '复制这段代码',
    copyState: {
      copied: '已复制',
      failed: '无法复制'
    },
    versions: {
      label: '这条回复的各个版本',
      previous: '上一个版本',
      next: '下一个版本',
      position: '{{n}} / {{m}}'
    },
    noModelTitle: '尚未配置模型服务。',
    noModelBefore: '消息会保存，但在设置中添加模型服务之前不会有回复。',
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
    buildFailed: '你的消息已保存，但无法为其构建上下文：{{message}}',
    noModelAction: '设置模型服务',
    noModelOllama: '检测到本机正在运行 Ollama（{{count}} 个模型），可以一键添加。',
    stop: '停止',
    streaming: '正在回复…',
    replyEmpty: '空回复',
    emptyReply: {
      note: '模型结束了回复，但没有发送任何文字。',
      length:
        '它在写出内容前就用完了输出上限（常见于推理模型的思考过程）；这条回复不会再发给模型。',
      notSent: '这条回复会保留在这里，但不会再发给模型。'
    },
    replyStopped: '已停止',
    replyFailed: '未完成',
    regenerate: '重新生成',
    edit: '编辑',
    editLabel: '编辑消息',
    editResend: '保存并重新发送',
    superseded: '已被新的回复取代',
    branchedAway: '较早版本',
    showHidden_one: '显示 {{count}} 个较早版本',
    showHidden_other: '显示 {{count}} 个较早版本',
    hideHidden: '隐藏较早版本',
    modelLabel: '模型',
    modelDefault: '默认（{{model}}）',
    modelNone: '未选择模型',
    retryNotice: '请求过长，已按 {{budget}} 个 token 重新构建并重试。',
    errorTitle: '回复失败：{{message}}',
    errorKinds: {
      auth: '服务商拒绝了 API 密钥',
      rate_limit: '请求过于频繁',
      network: '网络错误',
      timeout: '请求超时',
      context_length: '请求超出了模型可接受的长度',
      server: '服务器错误',
      bad_response: '无法解析的响应',
      invalid_request: '请求被拒绝',
      aborted: '已停止'
    },
    errorActions: {
      auth: '检查密钥',
      retry: '重试',
      retryIn: '{{seconds}} 秒后重试',
      retryNow: '立即重试'
    },
    contextLengthHelp:
      '已自动缩小并重试过一次。可以排除较长的消息、在检查器中降低上下文预算，或选择窗口更大的模型。',
    usage: {
      tokens: '输入 {{prompt}} · 输出 {{completion}}',
      cache: '缓存读取 {{read}} · 写入 {{write}}',
      cost: '${{cost}}',
      estimated: '估算 {{estimated}}',
      thread: '本对话：{{tokens}} 个 token（服务商报告）',
      threadCost: '本对话：{{tokens}} 个 token · ${{cost}}（服务商报告）',
      title: '提示 {{prompt}} · 补全 {{completion}} · 缓存读取 {{read}} · 缓存写入 {{write}}'
    }
  },
  providers: {
    title: '模型服务',
    add: '添加服务',
    detectOllama: '检测 Ollama',
    ollamaFound_one: 'Ollama 正在运行，有 {{count}} 个模型。',
    ollamaFound_other: 'Ollama 正在运行，有 {{count}} 个模型。',
    ollamaAdd: '添加 Ollama',
    ollamaMissing: '{{url}} 上没有 Ollama 响应。',
    encryptionUnavailable:
      '此系统没有安全存储，无法保存 API 密钥。无需密钥的本地服务（Ollama、LM Studio）仍可使用。',
    kind: '类型',
    name: '名称',
    baseUrl: '接口地址',
    optional: '（可选）',
    apiKey: 'API 密钥',
    apiKeyPlaceholder: '粘贴密钥；加密保存，之后不再显示',
    apiKeyStored: '已保存：{{hint}}（输入以替换）',
    models: '模型',
    modelId: '模型 ID',
    contextWindow: '上下文窗口',
    maxOutput: '最大输出',
    addModel: '添加模型',
    removeModel: '移除模型',
    test: '测试连接',
    testing: '正在测试…',
    testOk: '连接成功，用时 {{ms}} 毫秒。',
    testModels: '连接成功，用时 {{ms}} 毫秒。模型：{{models}}',
    testFailed: '失败：{{kind}}（{{message}}）',
    fetchModels: '列出模型',
    fetchingModels: '正在询问服务…',
    remoteModels: '该服务提供 {{count}} 个模型。添加你要用的：',
    remoteModelsNone: '该服务未列出任何模型。',
    remoteModelsFailed: '无法列出模型：{{kind}}（{{message}}）',
    remoteModelsAppError: '应用错误',
    httpStatus: '（HTTP {{status}}）',
    save: '保存',
    saved: '已保存',
    remove: '删除服务',
    defaultModel: '默认模型',
    noDefault: '无',
    addModelShort: '添加',
    addThisModel: '添加 {{model}}',
    modelAdded: '已添加',
    modelNote: {
      priced:
        '每百万 token：输入 ${{input}} · 输出 ${{output}}，来自 {{date}} 的模型目录。你填写的数值优先。',
      local: '在这台电脑上运行：不按 token 计费。',
      guess:
        '模型目录中没有这个模型：上下文窗口和最大输出可能是估计值（请查看模型说明），没有价格，因此不显示费用。'
    }
  },
  inspector: {
    usage: {
      title: '上一条回复：提示 token',
      estimated: '估算',
      actual: '服务商报告',
      completion: '补全',
      cacheRead: '缓存读取',
      cacheWrite: '缓存写入'
    },
    summary: {
      title: '对话摘要',
      meta: '涵盖至第 {{seq}} 条消息 · 第 {{version}} 版 · {{source}}',
      sources: { model: '由模型生成', fallback: '未使用模型生成', user: '由你编辑' },
      edit: '编辑摘要',
      save: '保存摘要'
    },
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
      previewEmpty: '下一次请求的预览（草稿为空）。上次发送的请求在“历史”中。',
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
      pinning: '目标提示',
      attachments: '附件',
      tools: '工具'
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
      summaryNone: '无摘要',
      counting: {
        exact: '精确 token 计数',
        estimated: '估算的 token 计数'
      },
      engines: {
        builder: '标准引擎',
        compressor: '压缩引擎',
        other: '其他引擎'
      }
    },
    warnings: {
      system_truncated: '系统提示词被截短以符合预算。',
      summary_truncated: '摘要被截短或省略以符合其预算。',
      input_over_budget: '你的输入超出了剩余预算，但仍会完整发送。',
      pinned_over_budget: '置顶消息超出了预算，但仍会发送。',
      pinning_dropped: '没有剩余预算容纳目标提示块。',
      context_window_exceeded: '此请求超出了模型的上下文窗口。',
      request_shrunk:
        '此请求超过了模型上下文窗口的 85%，已重新构建为更小的请求：较早的消息和记忆被让出。',
      input_trimmed: '你的消息超出了模型的上下文窗口：只发送了开头和结尾，完整消息已保存。',
      orphan_tool_result: '一个缺少对应调用的工具结果已被省略。',
      unanswered_tool_call: '一个缺少结果的工具调用已被省略。',
      estimated_tokens: '此模型没有精确的分词器：token 数为估算值。',
      unknown_model: '未知模型：其上下文窗口为假定值。',
      engine_fallback: '所配置的上下文引擎不存在，已改用默认构建器。',
      upstream: '记忆检索未正常完成，悬停查看详情。',
      input_estimated: '这段长草稿在输入时按估算计数，发送时会精确计数。',
      input_chunked:
        '你的消息中有很长的无分隔字符串（base64、哈希、无空格文本），已分块计数，与精确计数相差约 0.5 % 以内。',
      attachments_dropped: '附件中有部分内容超出其预算，未被发送；追踪列表列出了每个片段。',
      tools_dropped: '部分工具超出其预算，未提供给模型；追踪列表列出了是哪些。',
      attachments_not_embedded:
        '以下文件尚未向量化，其分块未按语义排序（按文档顺序选取）：{{files}}。'
    },
    decisions: {
      included: '已包含',
      dropped_budget: '舍弃：超预算',
      excluded_by_user: '你已排除',
      pinned: '已置顶',
      covered_by_summary: '已摘要',
      duplicate: '重复',
      empty_reply: '空回复：不发送'
    },
    trace: {
      label: '各部分的候选项',
      empty: '没有候选项。',
      kinds: {
        system: '系统提示词',
        summary: '对话摘要',
        input: '你的输入',
        pinning: '目标提示块',
        attachment: '文件片段',
        tool: '工具定义'
      },
      attachmentChunk: '{{name}} · 第 {{start}}–{{end}} 行',
      message: '#{{seq}} · {{role}}',
      messageMissing: '此消息已不在对话中',
      score: '得分 {{score}}',
      sourceMemory: '记忆 · {{category}}',
      sourceMessage: '“{{title}}”中的第 {{seq}} 条消息',
      sourceMessageUntitled: '第 {{seq}} 条消息',
      openMemory: '在记忆管理中打开这条记忆',
      openMessage: '在所在对话中打开这条消息',
      openFailed: '无法打开：{{message}}',
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
      chunkedWindow: '利于缓存的历史窗口',
      chunkedWindowHint:
        '对话超出预算时，较早的消息按块整体移出，多数请求与上一次开头相同，服务商可从提示缓存中读取。关闭后，窗口每轮滑动一两条消息。',
      fieldWindow: '历史窗口',
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
  memory: {
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
  },
  compress: {
    usage: '/compress [重点]',
    help: '把较早的消息合并进对话摘要；可选的重点主题会占摘要的大部分',
    discover: '输入 / 查看命令',
    running: '正在把较早的消息压缩进摘要…',
    focus: '重点：{{focus}}',
    done_one: '已将 {{count}} 条消息（{{tokens}} 个 token）压缩进摘要',
    done_other: '已将 {{count}} 条消息（{{tokens}} 个 token）压缩进摘要',
    doneBody_one: '最新的 1 条消息仍按原文发送。没有删除任何内容：只改变了发送给模型的内容。',
    doneBody_other:
      '最新的 {{count}} 条消息仍按原文发送。没有删除任何内容：只改变了发送给模型的内容。',
    modelFallback: '模型未能生成摘要（{{message}}），已改为不使用模型提取摘要。',
    nothingEmpty: '没有可压缩的内容：这个对话还没有消息。',
    nothingInTail_one: '暂时没有可压缩的内容：最新的消息总是按原文发送，更早的内容已在摘要中。',
    nothingInTail_other:
      '暂时没有可压缩的内容：最新的 {{count}} 条消息按原文发送（占用很少），更早的内容已在摘要中。',
    superseded: '压缩期间摘要被编辑过：已保留你的编辑，本次压缩已丢弃。',
    failed: '无法压缩：{{message}}'
  },
  promptCache: {
    label: '提示缓存（Anthropic）',
    option5m: '5 分钟（默认）',
    option1h: '1 小时',
    explain:
      '仅适用于 Anthropic 模型：每次请求的开头会被缓存，在此时间内的下一次请求以输入价格的十分之一读取它。写入 1 小时缓存的费用是输入价格的 2 倍（5 分钟为 1.25 倍），适合消息之间停顿较长的情况。应用中显示的费用按 5 分钟写入计算。'
  },
  settings: {
    language: '语言',
    languageSystem: '跟随系统',
    saveFailed: '无法保存设置：{{message}}',
    loadFailed: '无法加载设置，已使用默认值：{{message}}'
  },
  welcome: {
    title: '欢迎使用 Context Lens',
    body: '一个让你准确看到模型收到了什么的聊天助手：发送的每条消息、记忆和文件，各自的花费，以及哪些内容为什么被略去。',
    needsProvider:
      '要获得回复，请先添加模型服务：OpenAI 或 Anthropic 的 API 密钥，或你电脑上的服务（Ollama、LM Studio、vLLM）。',
    addProvider: '添加模型服务',
    ollamaFound_one: '检测到本机正在运行 Ollama（{{count}} 个模型），将为你自动填好。',
    ollamaFound_other: '检测到本机正在运行 Ollama（{{count}} 个模型），将为你自动填好。',
    kindsLabel: '或从这里开始：',
    localFirst: '对话保存在这台电脑上；只有你发送的内容会交给模型服务。'
  },
  theme: {
    label: '主题',
    system: '跟随系统',
    light: '浅色',
    dark: '深色'
  },
  settingsPage: {
    title: '设置',
    open: '设置',
    back: '返回对话',
    backHint: '返回对话（Esc）',
    sections: '设置分区',
    models: '默认模型'
  },
  gauge: {
    label: '上下文',
    buttonLabel: '{{source}}的上下文：{{budget}} 个 token 中用了 {{used}} 个。打开详情。',
    usage: '{{used}} / {{budget}}',
    window: '窗口 {{window}}',
    source: {
      draft: '草稿预览',
      sent: '上次发送的请求',
      next: '下一次请求'
    },
    heading: {
      draft: '如果现在发送这份草稿',
      sent: '上次发送的请求 · {{time}}',
      next: '下一次请求（草稿为空）'
    },
    totals: '{{budget}} 个 token 中用了 {{used}} 个 · 窗口 {{window}} · 安全网在 {{limit}}（85 %）',
    sectionRow: '{{used}} / {{budget}}',
    sectionItems_one: '{{n}} 项',
    sectionItems_other: '{{n}} 项',
    openSection: '在检查器中打开“{{section}}”',
    openHint: '点击某个部分，在检查器中打开它。',
    notesLabel: '关于这次请求',
    summaryInUse_one: '正在使用摘要：它代表 {{n}} 条较早的消息。',
    summaryInUse_other: '正在使用摘要：它代表 {{n}} 条较早的消息。',
    memoriesDropped_one: '{{n}} 条记忆因空间不足未放入。',
    memoriesDropped_other: '{{n}} 条记忆因空间不足未放入。',
    safetyNet: '安全网生效：{{what}}',
    safetyNetShrunk: '请求在窗口的 85 % 以内重新构建。',
    safetyNetTrimmed: '只发送消息的开头和结尾。',
    percent: '{{percent}} %',
    attachDraft: '作为文件附加',
    attachDraftHint:
      '草稿超过了输入部分的份额。作为附件随消息发送时，只发送其中最相关的部分，检查器会显示是哪些。',
    pastedFileName: '粘贴的文本.txt',
    nearBudget:
      '已用预算的 {{percent}} %。超出预算后，较早的消息和记忆会先让出位置；达到 {{limit}} 个 token（窗口的 85 %）时，安全网会重建请求。',
    overBudget:
      '超出预算（{{percent}} %）：较早的消息和记忆已让出位置，你的消息会完整发送。距离安全网（窗口的 85 %）还有 {{left}} 个 token。',
    wouldShrink:
      '如果现在发送，这次请求超过窗口的 85 %，会在 {{limit}} 个 token 内重新构建：较早的消息和记忆让出空间（{{dropped}} 条消息未放入）。',
    wouldTrim:
      '如果现在发送，你的消息放不进窗口：只发送开头和结尾（{{sent}} 个 token），完整内容仍会保存。'
  },
  threadStats: {
    total: '{{tokens}} token',
    barLabel: '上次请求用了 {{budget}} 个 token 中的 {{used}} 个（{{percent}} %）',
    noBuild: '尚未发送',
    details: '“{{title}}”的上下文',
    lastBuild: '上次请求，{{time}}：{{budget}} 个 token 中用了 {{used}} 个（{{percent}} %）',
    section: '{{section}}：{{used}}',
    cost: '累计费用：${{cost}}',
    costPartial: '累计费用：${{cost}}（另有 {{count}} 条回复没有价格）',
    costNone: '累计费用：暂无记录',
    summaryAt: '摘要最近更新于 {{time}}',
    summaryNever: '还没有摘要',
    sortLabel: '对话排序',
    sort: {
      recent: '最近活动',
      fullest: '上下文最满',
      cost: '费用最高'
    },
    filtered_one: '显示 {{total}} 个对话中有数据的 {{shown}} 个。',
    filtered_other: '显示 {{total}} 个对话中有数据的 {{shown}} 个。'
  },
  files: {
    attach: '为这条消息附加文件',
    attachThread: '为整个对话添加文件',
    threadFiles: '对话文件',
    threadFilesHint: '随本对话的每条消息一起发送。可将文件拖到这里。',
    dropHere: '松开即可把文件附加到你的消息',
    remove: '移除 {{name}}',
    reading_one: '正在读取 {{count}} 个文件…',
    reading_other: '正在读取 {{count}} 个文件…',
    chipTitle: '{{name}} · {{kind}} · {{size}} · {{chars}} 个字符',
    notEmbedded: '尚未向量化：如需切分，分块按文档顺序选取',
    refused: '未附加：{{name}}',
    failed: '无法附加 {{name}}：{{message}}',
    dismiss: '关闭',
    reasons: {
      too_large: '“{{name}}”超过了 {{limit}} 的大小上限。',
      too_long: '“{{name}}”的文本超过了 {{limit}} 个字符的上限。',
      binary: '“{{name}}”是二进制文件；只能附加文本、Markdown、代码、CSV/JSON 和 PDF。',
      encoding: '“{{name}}”不是 UTF-8 或 UTF-16 文本；请另存为 UTF-8 后重新附加。',
      empty: '“{{name}}”没有文本（空文件，或没有文字层的扫描版 PDF）。',
      pdf_unreadable: '“{{name}}”无法作为 PDF 读取。',
      unreadable: '“{{name}}”无法读取。'
    },
    inspector: {
      file: '{{name}}：已发送 {{sent}} / {{total}} 个分块',
      chunk: '分块 {{index}} · 第 {{from}}–{{to}} 行',
      whole: '整个文件',
      relevance: '相关度 {{score}}',
      byWords: '未排序'
    }
  },
  history: {
    open: '导入与导出',
    title: '导入和导出对话',
    close: '关闭',
    importHeading: '导入',
    importHint:
      'ChatGPT 或 Claude 的数据导出（conversations.json），或 Context Lens 的 JSON 导出。格式根据文件内容识别。同一个文件再次导入不会重复添加。',
    withBranches: '同时导入被放弃的分支（编辑过的提问、重新生成的回答），作为单独的分支对话',
    chooseFile: '选择要导入的文件…',
    importing: '正在导入 {{file}}…',
    progress: '已导入 {{conversations}} 个对话、{{messages}} 条消息',
    cancel: '取消导入',
    cancelling: '正在取消…',
    doneTitle: '已导入 {{file}}',
    cancelledTitle: '已取消导入 {{file}}；之前已导入的内容会保留',
    stoppedTitle: '导入 {{file}} 时中止；出问题之前的对话已保留',
    detectedFormat: '格式：{{format}}',
    formats: {
      chatgpt: 'ChatGPT 导出',
      claude: 'Claude 导出',
      'context-lens': 'Context Lens 导出'
    },
    importedCounts_one:
      '新增 {{count}} 个对话（其中 {{forks}} 个分支），共 {{messages}} 条消息，以及 {{memories}} 条记忆。',
    importedCounts_other:
      '新增 {{count}} 个对话（其中 {{forks}} 个分支），共 {{messages}} 条消息，以及 {{memories}} 条记忆。',
    placeholders_one: '{{count}} 个图片或附件以带名称的占位符保存（导出文件中不含文件本身）。',
    placeholders_other: '{{count}} 个图片和附件以带名称的占位符保存（导出文件中不含文件本身）。',
    skippedHeading: '未导入：',
    skipped: {
      system: '{{count}} 条对话中从未显示的系统提示和自定义指令',
      tool: '{{count}} 条工具调用和工具结果（代码运行、浏览）',
      hidden: '{{count}} 条隐藏消息和隐藏的推理',
      empty: '{{count}} 条空消息',
      branch: '{{count}} 条被放弃分支上的消息（勾选“作为分支导入”即可保留）',
      unsupported: '{{count}} 条本应用无法显示的消息',
      already_imported: '{{count}} 个已导入过的对话',
      memory_exists: '{{count}} 条已存在的记忆'
    },
    indexingHint: '导入的消息现在即可搜索；按语义搜索会在索引完成后可用（见“记忆”）。',
    exportAllHeading: '导出全部对话',
    exportThreadHeading: '导出',
    exportThreadTitle: '导出“{{title}}”',
    formatLabel: '格式',
    format: {
      md: 'Markdown：便于阅读，含日期和角色',
      json: 'JSON：完整（标记、摘要、记忆），可再次导入'
    },
    withRequests: '包含实际发送给模型的请求',
    exportButton: '导出…',
    exporting: '正在导出…',
    exported_one: '已将 {{count}} 个对话（{{messages}} 条消息）保存到 {{path}}。',
    exported_other: '已将 {{count}} 个对话（{{messages}} 条消息）保存到 {{path}}。'
  },
  fork: {
    action: '从这里分支',
    hint: '新建一个对话，包含截至这条消息（含）的内容；之后的消息只留在当前对话中。',
    failed: '无法分支：{{reason}}',
    from: '分支自“{{title}}”',
    openOrigin: '打开“{{title}}”的第 {{seq}} 条消息'
  },
  backup: {
    title: '备份',
    explain:
      '在应用运行时复制全部对话。更新修改数据库之前、导入之前也会自动备份。保留最近的 10 份。',
    now: '立即备份',
    progress: '备份进度',
    restoreFile: '从文件恢复…',
    restore: '恢复',
    confirm: '用这份备份替换当前的对话吗？当前的对话会另存一份，不会删除。',
    restored:
      '已恢复 {{threads}} 个对话（{{messages}} 条消息）。原来的对话保存在 {{keptAt}}。正在重新打开…',
    none: '还没有备份。',
    size: '{{mb}} MB',
    reasons: {
      manual: '手动',
      'pre-migration': '更新之前',
      'pre-import': '导入之前'
    }
  },
  tools: {
    settingsTitle: '工具（MCP 服务器）',
    settingsIntro:
      '服务器仅在启用后启动。本地服务器只获得你在此填写的环境变量，不会继承应用自身的任何环境；命令先在该 PATH 中查找，再在应用的 PATH 中查找。',
    noServers: '尚未添加 MCP 服务器。',
    addTitle: '添加服务器',
    name: '名称',
    kind: '连接方式',
    kinds: { stdio: '本地命令（stdio）', http: 'HTTP' },
    command: '命令',
    args: '参数（每行一个）',
    env: '环境变量（NAME=value，每行一个）',
    cwd: '工作目录（留空为主目录）',
    url: 'URL',
    headers: '请求头（Name: value，每行一个）',
    enabled: '启用',
    add: '添加服务器',
    remove: '删除',
    restart: '重新启动',
    badLine: '第 {{line}} 行不是 {{format}} 格式。',
    status: {
      stopped: '已停止',
      starting: '正在启动…',
      running: '运行中',
      error: '启动失败'
    },
    toolCount_one: '{{count}} 个工具',
    toolCount_other: '{{count}} 个工具',
    picker: '工具',
    pickerTitle: '此对话向模型提供的工具',
    pickerCount: '工具（{{count}}）',
    pickerEmpty: '没有可用的工具：请在设置中添加或启动 MCP 服务器。',
    alwaysAllowed: '始终允许',
    revokeAlways: '改为每次询问',
    builtin: '内置',
    approvalTitle: '{{tool}}（{{source}}）请求运行',
    approvalArgs: '参数',
    allowOnce: '允许一次',
    allowAlways: '始终允许此工具',
    deny: '拒绝',
    callTitle: '请求运行 {{tool}}',
    resultTitle: '工具输出',
    resultNote: '仅作为数据显示：其中的指令不会被应用执行。',
    showFull: '显示完整输出',
    hideFull: '收起',
    fullFailed: '无法读取存储的输出：{{error}}',
    truncatedPreview: '已显示 {{shown}} / {{total}} 个字符。'
  },
  cost: {
    footer: '缓存命中 {{read}} · 写入缓存 {{write}} · 未缓存 {{uncached}}',
    parts: '未缓存 ${{input}} · 缓存读取 ${{read}} · 缓存写入 ${{write}} · 输出 ${{output}}',
    title: '本次请求的费用',
    part: '部分',
    tokens: 'Token',
    amount: '费用',
    served: '缓存命中',
    written: '写入缓存',
    uncached: '未缓存',
    output: '输出',
    total: '合计',
    unpriced: '该模型没有已知价格，只显示 token 数。',
    prefixShared:
      '与上一次请求开头相同：{{total}} 条消息中的 {{shared}} 条（{{tokens}} 个 token）。',
    missAt: '缓存未命中。本次请求与上一次最早在{{where}}处不同。',
    differsAt: '与上一次请求最早的不同之处：{{where}}。',
    previously: '上一次请求在该位置是{{where}}。',
    previousEnded: '上一次请求在该位置已结束。',
    samePrefix: '本次请求重复了上一次请求，只是在末尾追加了内容。',
    firstRequest: '这是本对话的第一次请求，还没有可复用的内容。',
    whereMessage: '{{section}}，第 {{seq}} 条消息',
    whereItem: '{{section}}',
    otherSection: '其他部分',
    thread: '本对话累计',
    threadCost_one: '{{count}} 条回复共 ${{cost}}',
    threadCost_other: '{{count}} 条回复共 ${{cost}}',
    threadUnpriced: '本对话的回复都没有已知价格。',
    savings: '缓存节省了 ${{amount}}。',
    savingsNegative: '缓存写入比缓存读取节省的多花了 ${{amount}}。',
    whatIf_one: '如果不按缓存友好的顺序组织：${{cost}}（重放了 {{count}} 轮）。',
    whatIf_other: '如果不按缓存友好的顺序组织：${{cost}}（重放了 {{count}} 轮）。',
    whatIfAsk: '如果不按缓存友好的顺序组织，会花多少？',
    whatIfRunning: '正在重放各轮…',
    loading: '正在计算费用…',
    failed: '无法解释费用：{{message}}'
  },
  summaries: {
    notSmaller:
      '摘要未保存：它有 {{summary}} 个 token，并不少于它要替换的 {{replaced}} 个 token。没有任何改动。',
    history: '版本',
    compare: '压缩前后对比',
    restore: '恢复此版本',
    restored: '已恢复',
    current: '当前',
    versionLine: '第 {{version}} 版 · {{kind}} · {{replaced}} → {{summary}} 个 token',
    kinds: {
      auto: '自动',
      compress: '/compress',
      edit: '已编辑',
      restore: '已恢复'
    },
    before: '压缩前：被替换的内容',
    after: '压缩后：摘要',
    previousSummary: '上一版摘要（第 {{version}} 版）',
    noPrevious: '此前没有摘要。',
    replacedMessages_one: '折叠了 {{count}} 条消息',
    replacedMessages_other: '折叠了 {{count}} 条消息',
    noMessages: '没有折叠任何消息（编辑或恢复）。',
    close: '关闭',
    showCompare: '查看压缩前后对比',
    stale: '已过时：写入此摘要后，第 {{seq}} 条消息发生了变化。将在你发送下一条消息后重写。',
    paused:
      '自动摘要连续失败 {{count}} 次后已停止（{{message}}）。较早的消息仍然保存着，只是没有被摘要。',
    retry: '重试',
    running: '正在更新摘要…',
    exempt: '不纳入摘要',
    exemptHint: '已豁免：这条消息永远不会被折叠进对话摘要',
    exemptLabel: '不纳入摘要'
  }
}
