import type { Translation } from '../resources'

export const inspector: Translation['inspector'] = {
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
    previewEmpty: '下一次请求的预览（草稿为空）',
    previewWhatIf: '实时预览（预算设置尚未保存）',
    lastSent: '上次发送的请求 · {{time}}。输入内容即可看到草稿的实时预览。',
    history: '已发送的构建 · {{time}}',
    backToPreview: '返回实时预览',
    backToLastSent: '返回上次发送的请求'
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
    windowCapped:
      '上下文窗口 {{window}} · 为回复保留 {{reserve}} · 预算以安全网的 85\u00a0% 为上限',
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
    retrieved: '已检索',
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
    totalHint: '留空：模型窗口减去为回复保留的部分，最多为窗口的 85 %（安全网的上限）。',
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
  recall: {
    label: '检索结果说明',
    retrieved_one: '已检索：{{count, number}} 项，{{tokens}} 个 token',
    retrieved_other: '已检索：{{count, number}} 项，{{tokens}} 个 token',
    memories_one: '{{count, number}} 条记忆，{{tokens}} 个 token',
    memories_other: '{{count, number}} 条记忆，{{tokens}} 个 token',
    thisThread_one: '本对话较早的 {{count, number}} 条消息，{{tokens}} 个 token',
    thisThread_other: '本对话较早的 {{count, number}} 条消息，{{tokens}} 个 token',
    otherThreads_one: '来自其他对话的 {{count, number}} 条消息，{{tokens}} 个 token',
    otherThreads_other: '来自其他对话的 {{count, number}} 条消息，{{tokens}} 个 token',
    sentenceEnd: '。',
    nothingPassed: '没有内容达到相关度门槛（记忆 {{memory}}，消息 {{message}}）',
    nothingElse: '没有其他内容达到相关度门槛（记忆 {{memory}}，消息 {{message}}）',
    didNotFit_one: '另有 {{count, number}} 项达到相关度门槛，但预算放不下',
    didNotFit_other: '另有 {{count, number}} 项达到相关度门槛，但预算放不下',
    absentNames: '找到的内容都没有提到 {{names}}，因此其他对话的消息须达到相关度 {{gate}}',
    conversationBest: '本对话中已有相关度 {{best}} 的消息，因此其他对话的消息也须达到这一相关度',
    aboutTheUser:
      '你问的是你自己的事：其他对话中你自己的消息相关度加 {{own}}，助手的回复减 {{reply}}，回复也不随你的消息一起带上',
    textOnly: '仅按文字匹配：嵌入模型尚未就绪',
    fillSpareOn: '已开启“填满剩余预算”：低于相关度门槛的内容也会填入剩余预算',
    free: '预算中有 {{tokens}} 个 token 未使用',
    rejectedTitle_one: '未发送的最佳候选',
    rejectedTitle_other: '未发送的 {{count, number}} 个最佳候选',
    relevanceVsGate: '相关度 {{relevance}} < 门槛 {{gate}}',
    overLimit_one:
      '相关度 {{relevance}} ≥ 门槛 {{gate}}，但超出本次检索的 {{count, number}} 条上限',
    overLimit_other:
      '相关度 {{relevance}} ≥ 门槛 {{gate}}，但超出本次检索的 {{count, number}} 条上限',
    overTokens: '相关度 {{relevance}} ≥ 门槛 {{gate}}，但超出本次检索的 {{tokens}} 个 token 额度',
    fromMemories: '记忆',
    fromThisThread: '本对话较早的消息',
    fromThread: '来自“{{title}}”',
    tryGate: '以门槛 {{gate}} 预览',
    trying: '正在以相关度门槛 {{gate}} 预览（未保存）。',
    tryReset: '恢复校准的门槛',
    scopeLegend: '检索范围',
    scope: {
      thread: '仅本对话',
      thread_memories: '本对话和记忆',
      all: '所有对话和记忆'
    },
    scopeHint: {
      thread: '本对话中窗口已不再发送的较早消息。',
      thread_memories: '以及你保存的记忆。其他对话不参与。',
      all: '以及你其他对话中的消息，并标注对话标题。只有达到相关度门槛的内容才会发送。'
    },
    fillSpare: '填满剩余预算',
    fillSpareHint:
      '关闭（推荐）：没有相关内容需要的预算保持空闲，请求更省钱。开启：低于相关度门槛的最接近内容以及每条命中前后的消息会填满剩余预算。',
    field: '检索'
  },
  history: {
    label: '此对话已发送的构建，最新的在前',
    empty: '此对话还没有发送过消息。每条发送的消息都会在这里保留其构建。',
    tokens_one: '{{count, number}} 个 token',
    tokens_other: '{{count, number}} 个 token',
    messages_one: '{{count, number}} 条消息',
    messages_other: '{{count, number}} 条消息'
  }
}
