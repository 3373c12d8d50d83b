import { countTokens as countO200k } from 'gpt-tokenizer/encoding/o200k_base'

/** Counts tokens the way the target model's tokenizer would. A port: builds never recount. */
export interface TokenCounter {
  readonly encoding: string
  count(text: string): number
}

/**
 * Exact BPE counts with OpenAI's o200k encoding (GPT-4o and later). Per-model encodings and
 * the estimate for unknown tokenizers belong to the ContextBuilder issue.
 */
export const o200kCounter: TokenCounter = {
  encoding: 'o200k_base',
  count: (text) => (text.length === 0 ? 0 : countO200k(text))
}
