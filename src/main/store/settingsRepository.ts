import type Database from 'better-sqlite3'

/** Key/value settings stored as JSON text; callers own the shape of each value. */
export class SettingsRepository {
  constructor(private readonly db: Database.Database) {}

  get(key: string): unknown {
    const value = this.db.prepare('SELECT value FROM settings WHERE key = ?').pluck().get(key) as
      string | undefined
    return value === undefined ? undefined : JSON.parse(value)
  }

  set(key: string, value: unknown): void {
    this.db
      .prepare(
        'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value'
      )
      .run(key, JSON.stringify(value))
  }
}
