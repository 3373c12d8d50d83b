import { rmSync } from 'node:fs'
import type Database from 'better-sqlite3'
import { createServices } from '../../src/main/services/createServices'
import type { ServiceOptions, Services } from '../../src/main/services/serviceTypes'

/**
 * The app's services over a bench store: nothing published or logged unless `options` says
 * otherwise (they override these defaults).
 */
export function benchServices(
  db: Database.Database,
  databasePath: string,
  options: Partial<ServiceOptions> = {}
): Services {
  return createServices({
    db,
    publish: () => {},
    log: () => {},
    info: { version: 'bench', systemLocale: 'en-US', databasePath, recoveredFromBackup: null },
    ...options
  })
}

/** Points the default model at a local bench server (OpenAI-compatible unless `kind` says). */
export function defaultToLocalServer(
  services: Services,
  baseUrl: string,
  model: { id: string; contextWindow: number; maxOutput: number },
  name = 'Bench server',
  kind: 'openai-compatible' | 'anthropic' = 'openai-compatible'
): void {
  const provider = services.providers.create({
    kind,
    name,
    baseUrl,
    models: [model]
  })
  services.settings.update({ defaultModel: { providerId: provider.id, modelId: model.id } })
}

/** Ends a bench session: the turn's background work, the model, the store, the server, the folder. */
export async function closeBenchSession(
  services: Services,
  db: Database.Database,
  server: { close(): Promise<void> },
  dir: string
): Promise<void> {
  await services.chat.settled()
  await services.memoryModel.stop()
  db.close()
  await server.close()
  rmSync(dir, { recursive: true, force: true })
}
