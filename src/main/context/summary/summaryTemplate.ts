/**
 * The structured checkpoint a summary follows, in English and Chinese. Fixed headings make a
 * summary easy to update iteratively (items move from "remaining work" to "completed actions")
 * and easy to scan in the inspector.
 */
import type { SummaryLanguage } from './summaryLanguage'

export const SUMMARY_SECTIONS = [
  'goal',
  'constraints',
  'completed',
  'activeState',
  'blocked',
  'decisions',
  'resolvedQuestions',
  'pendingAsks',
  'relevantFiles',
  'remainingWork',
  'criticalContext'
] as const
export type SummarySection = (typeof SUMMARY_SECTIONS)[number]

interface SectionText {
  heading: string
  /** What belongs under the heading, for the summarizer. */
  hint: string
}

const EN: Record<SummarySection, SectionText> = {
  goal: { heading: 'Goal', hint: 'What the user is trying to accomplish overall.' },
  constraints: {
    heading: 'Constraints and preferences',
    hint: 'Requirements, style, tools and things the user asked to avoid.'
  },
  completed: {
    heading: 'Completed actions',
    hint: 'Work already done: files changed, commands run, their results.'
  },
  activeState: {
    heading: 'Active state',
    hint: 'What was in progress at the end of these turns; current values and settings.'
  },
  blocked: { heading: 'Blocked', hint: 'Blockers, failures and open errors, quoted exactly.' },
  decisions: { heading: 'Key decisions', hint: 'Technical decisions and why they were made.' },
  resolvedQuestions: {
    heading: 'Resolved questions',
    hint: 'Questions the user asked that were already answered, with the answer.'
  },
  pendingAsks: {
    heading: 'Pending user asks',
    hint: 'Requests of the user that were not fulfilled yet.'
  },
  relevantFiles: {
    heading: 'Relevant files',
    hint: 'Paths read, modified or created, each with a short note.'
  },
  remainingWork: { heading: 'Remaining work', hint: 'What still has to be done, in order.' },
  criticalContext: {
    heading: 'Critical context',
    hint: 'Exact values that must not be lost: identifiers, numbers, error messages, versions.'
  }
}

const ZH: Record<SummarySection, SectionText> = {
  goal: { heading: '目标', hint: '用户总体上想要完成什么。' },
  constraints: { heading: '约束与偏好', hint: '要求、风格、工具，以及用户要求避免的事情。' },
  completed: { heading: '已完成的操作', hint: '已经完成的工作：修改的文件、运行的命令及其结果。' },
  activeState: { heading: '当前状态', hint: '这些轮次结束时正在进行的工作；当前的值和设置。' },
  blocked: { heading: '受阻事项', hint: '阻碍、失败和未解决的错误，原样引用。' },
  decisions: { heading: '关键决策', hint: '做出的技术决策及其原因。' },
  resolvedQuestions: { heading: '已解决的问题', hint: '用户提出且已经回答的问题，以及答案。' },
  pendingAsks: { heading: '待处理的用户请求', hint: '用户提出但尚未完成的请求。' },
  relevantFiles: { heading: '相关文件', hint: '读取、修改或创建的路径，各附一句说明。' },
  remainingWork: { heading: '剩余工作', hint: '仍需完成的工作，按顺序列出。' },
  criticalContext: {
    heading: '关键上下文',
    hint: '不能丢失的确切值：标识符、数字、错误信息、版本号。'
  }
}

const TEXT: Record<SummaryLanguage, Record<SummarySection, SectionText>> = { en: EN, zh: ZH }

export function sectionHeading(section: SummarySection, language: SummaryLanguage): string {
  return TEXT[language][section].heading
}

/** The empty checkpoint with a hint under each heading, as the summarizer is asked to fill it. */
export function renderTemplate(language: SummaryLanguage): string {
  return SUMMARY_SECTIONS.map(
    (s) => `## ${TEXT[language][s].heading}\n[${TEXT[language][s].hint}]`
  ).join('\n\n')
}
