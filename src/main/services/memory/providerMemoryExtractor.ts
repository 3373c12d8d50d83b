import {
  MAX_EXTRACTED,
  MAX_EXTRACTED_CHARS,
  buildExtractionPrompt,
  parseExtraction
} from '../../context/recall/memoryExtractionPrompt'
import type { ChatTarget } from '../providers/modelResolver'
import type { MemoryExtractor } from './memoryExtraction'
import { completeText } from '../providers/completeText'
import type { ProviderService } from '../providers/providerService'

/** Enough for MAX_EXTRACTED sentences of MAX_EXTRACTED_CHARS in JSON, in any script. */
const EXTRACTION_MAX_TOKENS = Math.ceil((MAX_EXTRACTED * MAX_EXTRACTED_CHARS) / 2)

/** The thread's chat model as a MemoryExtractor: one completion of the extraction prompt. */
export function providerMemoryExtractor(
  providers: ProviderService,
  target: ChatTarget
): MemoryExtractor {
  return {
    async extract(input, signal) {
      const text = await completeText(
        providers,
        target,
        buildExtractionPrompt(input),
        EXTRACTION_MAX_TOKENS,
        signal
      )
      return parseExtraction(text)
    }
  }
}
