/**
 * Summaries are written in the user's language: a Chinese thread gets a Chinese checkpoint, so
 * the model and the user reading it in the inspector see the terms they actually used.
 */
import type { ProviderMessage } from '@shared/context'

export type SummaryLanguage = 'en' | 'zh'

/** Han ideographs, kana and hangul, as the token estimate counts them. */
const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]/g
const LATIN_WORD = /[A-Za-z]+/g

/**
 * A Chinese character carries about as much as an English word, so the share compares CJK
 * characters with Latin words. 30 % is enough: Chinese users paste English code and errors.
 */
const CJK_SHARE = 0.3

function cjkShare(text: string): number {
  const cjk = text.match(CJK)?.length ?? 0
  const words = text.match(LATIN_WORD)?.length ?? 0
  return cjk + words === 0 ? 0 : cjk / (cjk + words)
}

/**
 * The language of the user's own messages (tool output and code are mostly English whatever
 * the user writes); with no user message, of everything.
 */
export function detectLanguage(messages: readonly ProviderMessage[]): SummaryLanguage {
  const userText = messages
    .filter((m) => m.role === 'user')
    .map((m) => m.content)
    .join('\n')
  const text = userText.trim() ? userText : messages.map((m) => m.content).join('\n')
  return cjkShare(text) >= CJK_SHARE ? 'zh' : 'en'
}
