/**
 * A separate Node process over the real store, for what a test process cannot do to itself:
 * be killed with SIGKILL mid-write, or run as another user (read-only files, as root here).
 * Bundled by bundleStoreChild; modes:
 *   write <db>  sends messages through the real registry and prints `ack <n>` after each one
 *               is acknowledged, until killed;
 *   open <db> [language]
 *               opens the store as the app does on a system in `language` (en by default),
 *               answers every dialog with its last button (Quit) and prints the dialogs as JSON.
 */
import { createHandlers } from '../../src/main/ipc/handlers'
import { createRegistry } from '../../src/main/ipc/registry'
import { createServices } from '../../src/main/services/createServices'
import { openDatabase } from '../../src/main/store/database'
import type { Language } from '@shared/domain'
import { openStoreInteractively } from '../../src/main/storeRecovery'

const [mode, path, extra] = process.argv.slice(2) as [string, string, string | undefined]

async function write(): Promise<void> {
  const db = openDatabase(path)
  const services = createServices({
    db,
    publish: () => {},
    log: () => {},
    info: { version: 'test', systemLocale: 'en-US', databasePath: path, recoveredFromBackup: null }
  })
  const registry = createRegistry(createHandlers(services))
  const existing = services.threads.list()[0]
  const threadId = existing ? existing.id : services.threads.create('durability').id
  for (let n = Number(extra ?? 0); ; n++) {
    const result = await registry.invoke('messages:send', { threadId, content: `durable ${n}` })
    if (!result.ok) throw new Error(JSON.stringify(result.error))
    process.stdout.write(`ack ${n}\n`)
  }
}

async function open(): Promise<void> {
  const asked: { message: string; detail: string; buttons: string[] }[] = []
  const store = await openStoreInteractively(
    path,
    {},
    {
      language: (extra ?? 'en') as Language,
      ask: ({ message, detail, buttons }) => {
        asked.push({ message, detail, buttons })
        return buttons.length - 1
      }
    }
  )
  store?.db.close()
  process.stdout.write(JSON.stringify({ opened: store !== null, asked }))
}

if (mode === 'write') void write()
else void open()
