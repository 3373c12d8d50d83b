/**
 * The BUILT app (out/main/index.js, as electron-builder packages it) started under plain Node
 * with a fake `electron` hooked into the module loader: everything behind Electron's API is
 * the real bundle, its real workers, real SQLite and the real test model. Unlike
 * electron-entry.test.ts (the TypeScript sources under vitest), this catches what only the
 * bundle shows: chunk paths and __dirname, the bootstrap's order, process exit.
 */
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { endpoints } from '@shared/contract'
import type { MemoryStatus } from '@shared/domain'
import { bootBuiltApp, BUILT_MAIN, ROOT, type BootedApp } from '../support/bootBuiltApp'
import { closedPort } from '../support/closedPort'
import { hubMirror } from '../support/hubMirror'
import { pollUntil } from '../support/poll'
import { MODELS_DIR, prepareEmbeddings } from '../support/embeddings'
import { useTempDir } from '../support/tempDir'

const tempDir = useTempDir()
const running: BootedApp[] = []

function boot(env: Record<string, string>): BootedApp {
  const app = bootBuiltApp({ FAKE_ELECTRON_USER_DATA: join(tempDir(), 'user-data'), ...env })
  running.push(app)
  return app
}

async function memoryStatus(app: BootedApp): Promise<MemoryStatus> {
  const answer = (await app.invoke('memory:status')) as { ok: boolean; data: MemoryStatus }
  expect(answer.ok).toBe(true)
  return answer.data
}

function memoryModelSettles(app: BootedApp, timeoutMs: number): Promise<MemoryStatus> {
  return pollUntil(
    async () => {
      const status = await memoryStatus(app)
      const settled = status.model.state === 'ready' || status.model.state === 'unavailable'
      return settled ? status : undefined
    },
    { what: 'the memory model to be ready or unavailable', timeoutMs, intervalMs: 200 }
  )
}

beforeAll(async () => {
  if (!existsSync(BUILT_MAIN)) throw new Error('Run `npm run build` first: this test runs out/.')
  await prepareEmbeddings()
})

describe('the built app under a fake Electron', () => {
  it('starts a locked-down window, answers every contract channel and loads the memory model', async () => {
    const app = boot({ CONTEXT_LENS_MODELS_DIR: MODELS_DIR })
    const window = await app.waitFor((r) => r.type === 'window')
    expect(window.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      preload: join(ROOT, 'out/preload/index.js')
    })
    expect(existsSync(String((window.webPreferences as { preload: string }).preload))).toBe(true)
    await app.waitFor((r) => r.type === 'show')
    const handled = app.reports.filter((r) => r.type === 'handle').map((r) => r.channel)
    expect(handled.sort()).toEqual(
      endpoints()
        .map((e) => e.channel)
        .sort()
    )
    // A run from source keeps its data apart from the installed app's.
    const userData = app.reports.find((r) => r.type === 'setPath' && r.name === 'userData')
    expect(String(userData?.path)).toMatch(/user-data-dev$/)

    const load = await app.waitFor((r) => r.type === 'load')
    const pageUrl = String(load.url)
    expect(pageUrl).toBe(`file://${join(ROOT, 'out/renderer/index.html')}`)
    expect(await app.permission('clipboard-sanitized-write', pageUrl)).toBe(true)
    expect(await app.permission('clipboard-sanitized-write', 'https://evil.example/')).toBe(false)
    expect(await app.permission('media', pageUrl)).toBe(false)

    const status = await memoryModelSettles(app, 90_000)
    expect(status.model).toMatchObject({ state: 'ready', error: null })
    expect(status.model.dimension).toBe(384)
    // The model runs in a utility process that gets only what it needs of the environment.
    const utility = app.reports.find((r) => r.type === 'utility-fork')
    expect(utility?.serviceName).toBe('Context Lens embeddings')
    const allowed = ['PATH', 'HOME', 'TMPDIR', 'TEMP', 'TMP', 'SYSTEMROOT', 'LANG', 'USERPROFILE']
    expect((utility?.envKeys as string[]).filter((k) => !allowed.includes(k))).toEqual([])

    expect(await app.quit()).toBe(0)
  }, 120_000)

  it('a crashed embedding process is started again and the model is ready again', async () => {
    const app = boot({ CONTEXT_LENS_MODELS_DIR: MODELS_DIR })
    await app.waitFor((r) => r.type === 'show')
    expect((await memoryModelSettles(app, 90_000)).model.state).toBe('ready')
    const first = await app.waitFor((r) => r.type === 'utility-fork')
    // What a native crash in ONNX Runtime looks like from outside: the process is gone.
    process.kill(first.pid as number, 'SIGKILL')
    const second = await app.waitFor((r) => r.type === 'utility-fork' && r.pid !== first.pid)
    expect(second.pid).not.toBe(first.pid)
    const status = await memoryModelSettles(app, 90_000)
    expect(status.model).toMatchObject({ state: 'ready', error: null })
    expect(app.child.exitCode).toBeNull()
    expect(await app.quit()).toBe(0)
  }, 180_000)

  it('shows the window after a timeout when the page never says ready-to-show', async () => {
    const app = boot({ FAKE_ELECTRON_PAGE: 'silent', CONTEXT_LENS_MODELS_DIR: MODELS_DIR })
    const window = await app.waitFor((r) => r.type === 'window')
    expect(window.show).toBe(false)
    const started = Date.now()
    await app.waitFor((r) => r.type === 'show', 15_000)
    expect(Date.now() - started).toBeGreaterThan(3_000)
    expect(await app.quit()).toBe(0)
  }, 60_000)

  it('shows the window at once when the page fails to load', async () => {
    const app = boot({ FAKE_ELECTRON_PAGE: 'fail', CONTEXT_LENS_MODELS_DIR: MODELS_DIR })
    await app.waitFor((r) => r.type === 'window')
    await app.waitFor((r) => r.type === 'show', 3_000)
    expect(await app.quit()).toBe(0)
  }, 60_000)

  it('a native module that cannot be loaded ends in a dialog naming it, and an exit', async () => {
    // Where `npm run dev` keeps better-sqlite3 built for Electron: a file that is no library.
    const appPath = tempDir()
    const version = '45.4.1'
    const release = join(
      appPath,
      '.cache/electron-native',
      `${version}-${process.platform}-${process.arch}`,
      'node_modules/better-sqlite3/build/Release'
    )
    mkdirSync(release, { recursive: true })
    writeFileSync(join(release, 'better_sqlite3.node'), 'not a shared library')
    const started = Date.now()
    const app = boot({ FAKE_ELECTRON_APP_PATH: appPath, FAKE_ELECTRON_VERSION: version })

    expect(await app.exited).toBe(1)
    expect(Date.now() - started).toBeLessThan(10_000)
    const box = app.reports.find((r) => r.type === 'error-box')
    expect(box?.title).toBe(
      'Context Lens could not start: the database engine (better-sqlite3) could not be loaded.'
    )
    expect(box?.content).toMatch(/Reinstall Context Lens/)
    expect(box?.content).toMatch(/ERR_DLOPEN_FAILED/)
    expect(app.reports.some((r) => r.type === 'lock-released')).toBe(true)
    expect(app.reports.some((r) => r.type === 'window')).toBe(false)
  }, 30_000)

  it('a missing sqlite-vec ends in a dialog naming it, and an exit', async () => {
    const app = boot({ FAKE_ELECTRON_MISSING: `sqlite-vec-${process.platform}-${process.arch}` })
    expect(await app.exited).toBe(1)
    const box = app.reports.find((r) => r.type === 'error-box')
    expect(box?.title).toBe(
      'Context Lens could not start: the vector search extension (sqlite-vec) is missing.'
    )
    expect(app.reports.some((r) => r.type === 'lock-released')).toBe(true)
  }, 30_000)

  it('on a Chinese system, a damaged store and a failed start are explained in Chinese', async () => {
    const path = join(tempDir(), 'store.sqlite')
    writeFileSync(path, 'not a database at all '.repeat(500))
    const damaged = boot({ FAKE_ELECTRON_LOCALE: 'zh-CN', CONTEXT_LENS_DB_PATH: path })
    const box = await damaged.waitFor((r) => r.type === 'message-box')
    expect(box).toMatchObject({
      message: '你的对话文件已损坏。',
      buttons: ['恢复仍可读取的内容', '退出']
    })
    expect(String(box.detail)).toContain(`位于 ${path} 的对话数据库已损坏，无法读取（`)
    expect(await damaged.exited).toBe(0) // the fake user chose the last button, Quit
    expect(damaged.reports.some((r) => r.type === 'window')).toBe(false)

    const failed = boot({
      FAKE_ELECTRON_LOCALE: 'zh-CN',
      FAKE_ELECTRON_MISSING: `sqlite-vec-${process.platform}-${process.arch}`
    })
    expect(await failed.exited).toBe(1)
    const error = failed.reports.find((r) => r.type === 'error-box')
    expect(error?.title).toBe('Context Lens 无法启动：缺少向量搜索扩展（sqlite-vec）。')
    expect(error?.content).toMatch(/^安装不完整。请从下载页面重新安装 Context Lens。/)
  }, 30_000)

  it('an offline first run reports why the model download failed, through Electron net', async () => {
    const port = await closedPort()
    const app = boot({ HF_ENDPOINT: `http://127.0.0.1:${port}` })
    await app.waitFor((r) => r.type === 'show')
    const status = await memoryModelSettles(app, 20_000)
    expect(status.model.state).toBe('unavailable')
    expect(status.model.error).toMatch(
      new RegExp(`Could not download the embedding model .* from 127\\.0\\.0\\.1:${port}`)
    )
    expect(status.model.error).toMatch(/the connection was refused \[.*ECONNREFUSED/)
    expect(status.model.error).not.toMatch(/exited/)
    const fetched = app.reports.find((r) => r.type === 'net-fetch')
    expect(String(fetched?.url)).toMatch(/\/resolve\/main\/config\.json$/)
    expect(await app.quit()).toBe(0)
  }, 60_000)

  it('downloads from the mirror set in the settings, with progress; cancelled, it resumes where it stopped', async () => {
    const mirror = await hubMirror(MODELS_DIR, { holdWeightsAfter: 4_000_000 })
    try {
      const userData = join(tempDir(), 'user-data')
      const app = boot({
        FAKE_ELECTRON_USER_DATA: userData,
        HF_ENDPOINT: `http://127.0.0.1:${await closedPort()}`
      })
      await app.waitFor((r) => r.type === 'show')
      expect((await memoryModelSettles(app, 20_000)).model.error).toMatch(/refused/)

      // The settings name a mirror (and the smaller model): the download starts there.
      const model = 'Xenova/bge-small-zh-v1.5'
      const updated = (await app.invoke('memory:updateSettings', {
        modelMirror: mirror.url,
        embeddingModel: model
      })) as { ok: boolean }
      expect(updated.ok).toBe(true)
      const weights = 'onnx/model_quantized.onnx'
      const part = join(`${userData}-dev`, 'models', model, `${weights}.part`)
      await pollUntil(
        async () => {
          const status = await memoryStatus(app)
          expect(status.model.state).toBe('downloading')
          const progress = status.model.progress.find((p) => p.file === weights)
          return (progress?.loaded ?? 0) >= 4_000_000 && progress?.total === 24_010_842
        },
        { what: 'the first 4 MB of the weights', timeoutMs: 90_000, intervalMs: 100 }
      )

      // Cancel: turning the download off stops it; what came is kept.
      await app.invoke('memory:updateSettings', { allowDownload: false })
      // The download fails only once its .part file is closed (stream.pipeline waits for it),
      // and the app logs that failure: after it, the file's size is what a resume starts from.
      await pollUntil(() => app.stderr().includes('the download was cancelled'), {
        what: 'the cancelled download to end (logged), its .part file closed',
        timeoutMs: 20_000
      })
      const kept = statSync(part).size
      expect(kept).toBeGreaterThan(0)
      expect(kept).toBeLessThanOrEqual(4_000_000)

      // On again: a Range request for the rest, then the real model loads from those files.
      mirror.release()
      await app.invoke('memory:updateSettings', { allowDownload: true })
      const status = await memoryModelSettles(app, 90_000)
      expect(status.model).toMatchObject({ state: 'ready', id: model, error: null })
      const resumed = mirror.requests.filter((r) => r.path.endsWith(weights)).at(-1)
      expect(resumed?.headers.range).toBe(`bytes=${kept}-`)
      expect(existsSync(part)).toBe(false)
      expect(await app.quit()).toBe(0)
    } finally {
      await mirror.close()
    }
  }, 180_000)
})
