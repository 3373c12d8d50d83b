/**
 * Headless ContextBuilder: `npm run ctx -- build --input <file.json>` prints the BuiltContext
 * the app would build for that input. Exit codes: 0 built, 1 bad input, 2 bad command line.
 */
import { readFileSync } from 'node:fs'
import { prepareBuild } from '../src/main/context/buildInput'
import { EngineRegistry } from '../src/main/context/engine/engineRegistry'

const USAGE = 'usage: npm run ctx -- build --input <file.json>'

class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number
  ) {
    super(message)
  }
}

function inputPath(args: string[]): string {
  const [command, ...rest] = args
  if (command !== 'build') throw new CliError(`unknown command "${command ?? ''}"\n${USAGE}`, 2)
  const flag = rest.indexOf('--input')
  const path = flag === -1 ? undefined : rest[flag + 1]
  if (path === undefined || path.startsWith('--'))
    throw new CliError(`missing --input <file>\n${USAGE}`, 2)
  return path
}

function readJson(path: string): unknown {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    throw new CliError(
      `cannot read ${path}: ${code === 'ENOENT' ? 'no such file' : String(error)}`,
      1
    )
  }
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new CliError(`${path} is not valid JSON: ${(error as Error).message}`, 1)
  }
}

function main(args: string[]): void {
  const path = inputPath(args)
  const prepared = prepareBuild(readJson(path))
  if (!prepared.ok) {
    throw new CliError(
      `${path} does not match the input shape:\n  ${prepared.issues.join('\n  ')}`,
      1
    )
  }
  const built = new EngineRegistry().build(prepared.request, prepared.config)
  process.stdout.write(`${JSON.stringify(built, null, 2)}\n`)
}

try {
  main(process.argv.slice(2))
} catch (error) {
  if (!(error instanceof CliError)) throw error
  process.stderr.write(`ctx: ${error.message}\n`)
  process.exitCode = error.exitCode
}
