/**
 * Off-main-thread file work: PDF text extraction with pdfjs-dist's legacy build (which runs on
 * plain Node, without a DOM or canvas) and chunking of large texts. Each worker runs one job
 * from `workerData`, posts its result and exits, so a hostile PDF that hangs pdfjs is ended by
 * the caller's timeout without touching anything else.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { chunkDocument } from '../../context/attachments/chunkDocument'
import { o200kCounter } from '../../context/tokens/tokenCounter'
import type { FileJob, FileJobResult } from './fileProtocol'

interface TextItem {
  str: string
  hasEOL: boolean
}

async function extractPdf(bytes: Uint8Array): Promise<FileJobResult> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs')
  const document = await pdfjs.getDocument({
    data: bytes,
    // No fonts are rendered: text comes from the content streams and ToUnicode maps.
    disableFontFace: true,
    useSystemFonts: false,
    isEvalSupported: false,
    verbosity: 0
  }).promise
  try {
    const pages: string[] = []
    for (let number = 1; number <= document.numPages; number++) {
      const page = await document.getPage(number)
      const content = await page.getTextContent()
      let text = ''
      for (const item of content.items as TextItem[]) {
        if (typeof item.str !== 'string') continue
        text += item.str
        if (item.hasEOL) text += '\n'
      }
      pages.push(text.replace(/[ \t]+\n/g, '\n').trimEnd())
      page.cleanup()
    }
    return { type: 'pdf', text: pages.join('\n\n'), pages: document.numPages }
  } finally {
    await document.destroy()
  }
}

async function run(job: FileJob): Promise<FileJobResult> {
  if (job.type === 'pdf') return extractPdf(job.bytes)
  return {
    type: 'chunk',
    chunks: chunkDocument(job.text, job.kind, job.maxTokens, (text: string) =>
      o200kCounter.count(text)
    )
  }
}

run(workerData as FileJob)
  .then((result) => parentPort?.postMessage(result))
  .catch((error: unknown) =>
    parentPort?.postMessage({
      type: 'error',
      message: error instanceof Error ? error.message : String(error)
    } satisfies FileJobResult)
  )
