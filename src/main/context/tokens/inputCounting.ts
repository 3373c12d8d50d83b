/**
 * What the inspector says about how the input was counted, when it was not plain exact BPE:
 * a warning the renderer translates and a note on the input's trace entry.
 */
import type { BuildWarning, TokenCount } from '@shared/context'
import { DEFAULT_SLICES } from './textSlices'

/** Measured bound of the chunked count's error (textSlices.ts, docs/CONTEXT.md). */
export const CHUNKED_ERROR_PERCENT = 0.5

export interface InputCountingReport {
  warning: BuildWarning | null
  note: string | undefined
}

/**
 * `exactCounter` is false for models without a known tokenizer: every count is an estimate
 * there and the build already carries `estimated_tokens`.
 */
export function inputCountingReport(count: TokenCount, exactCounter: boolean): InputCountingReport {
  if (count.method === 'estimate' && exactCounter) {
    return {
      warning: {
        code: 'input_estimated',
        message:
          'This long draft is counted with the estimate while you type; it is counted exactly when you send it.'
      },
      note: 'estimated while typing; counted exactly when sent'
    }
  }
  if (count.method === 'ends') {
    // Only a text far over the window is counted so; the safety net's `input_trimmed` says so.
    return {
      warning: null,
      note: 'counted exactly at its beginning and end, the parts that can be sent; the middle is extrapolated'
    }
  }
  if (count.method === 'chunked') {
    const chunk = DEFAULT_SLICES.longRunBytes
    return {
      warning: {
        code: 'input_chunked',
        message: `Your message has long runs without a break (base64, a hash, text without spaces); they were counted in chunks of ${chunk} bytes (${chunk} letters, ${Math.floor(chunk / 3)} Chinese characters), within about ${CHUNKED_ERROR_PERCENT} % of the exact count.`
      },
      note: `runs without breaks counted in ${chunk}-byte chunks (within about ${CHUNKED_ERROR_PERCENT} %)`
    }
  }
  return { warning: null, note: undefined }
}
