/**
 * Conversation history, headless, on the app's own store, migrations and services:
 * - `npm run -s history -- import <file> --db <sqlite> [--with-branches]` imports a ChatGPT,
 *   Claude or Context Lens export and prints one JSON line
 *   `{format, threads, messages, skipped, forks}`;
 * - `npm run -s history -- export --db <sqlite> --format json|md --out <path> [--thread <id>]
 *   [--with-requests]` writes an export and prints `{path, threads, messages}`.
 * Exit codes: 0 done, 1 bad input (the import's line is still printed: what came before the
 * problem is stored), 2 bad command line.
 */
import { createReadStream, existsSync } from 'node:fs'
import { openDatabase } from '../src/main/store/database'
import { exportHistory, ExportNotFoundError } from '../src/main/services/history/exportHistory'
import { importHistory } from '../src/main/workers/import/importHistory'

const USAGE = `usage:
  npm run -s history -- import <file> --db <sqlite> [--with-branches]
  npm run -s history -- export --db <sqlite> --format json|md --out <path> [--thread <id>] [--with-requests]`

class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number
  ) {
    super(message)
  }
}

interface Parsed {
  positional: string[]
  values: Map<string, string>
  flags: Set<string>
}

const VALUE_OPTIONS = new Set(['--db', '--format', '--out', '--thread'])
const FLAG_OPTIONS = new Set(['--with-branches', '--with-requests'])

function parse(args: string[]): Parsed {
  const parsed: Parsed = { positional: [], values: new Map(), flags: new Set() }
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string
    if (VALUE_OPTIONS.has(arg)) {
      const value = args[++i]
      if (value === undefined || value.startsWith('--'))
        throw new CliError(`${arg} needs a value\n${USAGE}`, 2)
      parsed.values.set(arg, value)
    } else if (FLAG_OPTIONS.has(arg)) parsed.flags.add(arg)
    else if (arg.startsWith('--')) throw new CliError(`unknown option ${arg}\n${USAGE}`, 2)
    else parsed.positional.push(arg)
  }
  return parsed
}

function required(parsed: Parsed, option: string): string {
  const value = parsed.values.get(option)
  if (value === undefined) throw new CliError(`missing ${option}\n${USAGE}`, 2)
  return value
}

async function runImport(parsed: Parsed): Promise<void> {
  const file = parsed.positional[1]
  if (!file) throw new CliError(`missing the file to import\n${USAGE}`, 2)
  if (!existsSync(file)) throw new CliError(`cannot read ${file}: no such file`, 1)
  const db = openDatabase(required(parsed, '--db'))
  try {
    const summary = await importHistory(db, createReadStream(file, { highWaterMark: 1 << 20 }), {
      withBranches: parsed.flags.has('--with-branches'),
      // The CLI owns its connection: conversations are committed together, twice a second.
      batchMs: 500
    })
    const { format, threads, messages, skipped, forks } = summary
    process.stdout.write(`${JSON.stringify({ format, threads, messages, skipped, forks })}\n`)
    if (summary.error) throw new CliError(`${file}: ${summary.error}`, 1)
  } finally {
    db.close()
  }
}

async function runExport(parsed: Parsed): Promise<void> {
  const format = required(parsed, '--format')
  if (format !== 'json' && format !== 'md')
    throw new CliError(`--format must be json or md\n${USAGE}`, 2)
  const dbPath = required(parsed, '--db')
  if (!existsSync(dbPath)) throw new CliError(`no database at ${dbPath}`, 1)
  const db = openDatabase(dbPath)
  try {
    const thread = parsed.values.get('--thread')
    const result = await exportHistory(db, required(parsed, '--out'), {
      format,
      withRequests: parsed.flags.has('--with-requests'),
      ...(thread !== undefined && { threadId: thread })
    })
    process.stdout.write(`${JSON.stringify(result)}\n`)
  } catch (error) {
    if (error instanceof ExportNotFoundError) throw new CliError(error.message, 1)
    throw error
  } finally {
    db.close()
  }
}

async function main(args: string[]): Promise<void> {
  const parsed = parse(args)
  const command = parsed.positional[0]
  if (command === 'import') return runImport(parsed)
  if (command === 'export') return runExport(parsed)
  throw new CliError(`unknown command "${command ?? ''}"\n${USAGE}`, 2)
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (!(error instanceof CliError)) {
    process.stderr.write(`history: ${error instanceof Error ? error.message : String(error)}\n`)
    process.exitCode = 1
    return
  }
  process.stderr.write(`history: ${error.message}\n`)
  process.exitCode = error.exitCode
})
