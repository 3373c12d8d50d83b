import type Database from 'better-sqlite3'
import type { McpServerConfig } from '@shared/tools'

export interface McpServerRecord {
  id: string
  name: string
  enabled: boolean
  config: McpServerConfig
  createdAt: number
}

interface Row {
  id: string
  name: string
  enabled: number
  config: string
  created_at: number
}

const toRecord = (row: Row): McpServerRecord => ({
  id: row.id,
  name: row.name,
  enabled: row.enabled === 1,
  config: JSON.parse(row.config) as McpServerConfig,
  createdAt: row.created_at
})

/** The MCP servers of Settings, oldest first. */
export class McpServerRepository {
  constructor(private readonly db: Database.Database) {}

  list(): McpServerRecord[] {
    const rows = this.db.prepare('SELECT * FROM mcp_servers ORDER BY created_at, id').all() as Row[]
    return rows.map(toRecord)
  }

  get(id: string): McpServerRecord | undefined {
    const row = this.db.prepare('SELECT * FROM mcp_servers WHERE id = ?').get(id) as Row | undefined
    return row ? toRecord(row) : undefined
  }

  insert(record: McpServerRecord): void {
    this.db
      .prepare(
        'INSERT INTO mcp_servers (id, name, enabled, config, created_at) VALUES (?, ?, ?, ?, ?)'
      )
      .run(
        record.id,
        record.name,
        record.enabled ? 1 : 0,
        JSON.stringify(record.config),
        record.createdAt
      )
  }

  update(record: McpServerRecord): void {
    this.db
      .prepare('UPDATE mcp_servers SET name = ?, enabled = ?, config = ? WHERE id = ?')
      .run(record.name, record.enabled ? 1 : 0, JSON.stringify(record.config), record.id)
  }

  remove(id: string): boolean {
    return this.db.prepare('DELETE FROM mcp_servers WHERE id = ?').run(id).changes > 0
  }
}
