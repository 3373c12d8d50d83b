import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { withPrefix } from '../../../src/main/workers/embedding/embeddingModels'
import { locateModel } from '../../../src/main/workers/embedding/modelLocation'
import { BGE_MODEL_ID, E5_MODEL_ID } from '../../../src/shared/embeddingModelIds'
import { DEFAULT_MEMORY_SETTINGS } from '../../../src/main/services/memory/memoryModels'
import { useTempDir } from '../../support/tempDir'

const tempDir = useTempDir()

/** A models root with the named models laid out as transformers.js reads them. */
function modelsRoot(...ids: string[]): string {
  const root = tempDir()
  for (const id of ids) {
    for (const file of ['config.json', 'tokenizer.json', 'tokenizer_config.json']) {
      mkdirSync(join(root, id, 'onnx'), { recursive: true })
      writeFileSync(join(root, id, file), '{}')
    }
    writeFileSync(join(root, id, 'onnx/model_quantized.onnx'), '')
  }
  return root
}

const settings = (patch: Partial<typeof DEFAULT_MEMORY_SETTINGS> = {}) => ({
  ...DEFAULT_MEMORY_SETTINGS,
  ...patch
})

describe('locateModel', () => {
  it('finds the chosen model in a models root that holds both', () => {
    const root = modelsRoot(E5_MODEL_ID, BGE_MODEL_ID)
    const where = { envFolder: root, userModels: tempDir() }
    expect(locateModel({ ...where, settings: settings() })).toMatchObject({
      spec: { id: E5_MODEL_ID, prefixes: { query: 'query: ', passage: 'passage: ' } },
      source: { kind: 'folder', root, name: E5_MODEL_ID }
    })
    expect(
      locateModel({ ...where, settings: settings({ embeddingModel: BGE_MODEL_ID }) })
    ).toMatchObject({ spec: { id: BGE_MODEL_ID, prefixes: null }, source: { name: BGE_MODEL_ID } })
  })

  it('downloads the chosen model when no folder has it, else falls back to one on disk', () => {
    const root = modelsRoot(BGE_MODEL_ID)
    const userModels = tempDir()
    expect(locateModel({ envFolder: root, userModels, settings: settings() })).toMatchObject({
      spec: { id: E5_MODEL_ID },
      source: { kind: 'hub', cacheDir: userModels },
      origin: 'download'
    })
    expect(
      locateModel({ envFolder: root, userModels, settings: settings({ allowDownload: false }) })
    ).toMatchObject({ spec: { id: BGE_MODEL_ID }, origin: 'environment' })
    expect(locateModel({ userModels, settings: settings({ allowDownload: false }) })).toBeNull()
  })
})

describe('withPrefix', () => {
  it("puts e5's query and passage prefixes before the text, and nothing for bge", () => {
    const e5 = locateModel({ userModels: tempDir(), settings: settings() })!.spec
    const bge = locateModel({
      userModels: tempDir(),
      settings: settings({ embeddingModel: BGE_MODEL_ID })
    })!.spec
    expect(withPrefix(e5, '周末有什么建议？', 'query')).toBe('query: 周末有什么建议？')
    expect(withPrefix(e5, 'I started climbing.', 'passage')).toBe('passage: I started climbing.')
    expect(withPrefix(bge, 'I started climbing.', 'query')).toBe('I started climbing.')
  })
})
