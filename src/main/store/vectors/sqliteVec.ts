import type Database from 'better-sqlite3'
import { getLoadablePath } from 'sqlite-vec'

/**
 * Native files cannot be loaded from inside an asar archive. electron-builder unpacks them
 * (see asarUnpack in electron-builder.yml), so the path sqlite-vec computes must point there.
 */
export function unpackedPath(path: string): string {
  return path.replace(/([\\/])app\.asar([\\/])/, '$1app.asar.unpacked$2')
}

export function loadSqliteVec(db: Database.Database): string {
  db.loadExtension(unpackedPath(getLoadablePath()))
  return db.prepare('SELECT vec_version() AS version').pluck().get() as string
}
