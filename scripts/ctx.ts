/**
 * The context core, headless:
 * - `npm run ctx -- build --input <file.json>` prints the BuiltContext the app would build;
 * - `npm run ctx -- compress --input <file.json>` compresses OpenAI-format messages;
 * - `npm run ctx -- cache --input <file.json>` adds Anthropic cache breakpoints to them;
 * - `npm run ctx -- simulate --input <thread.json> [--budget N] [--policy chunked|sliding]`
 *   replays a thread turn by turn and reports how much of each request a prompt cache serves.
 * Exit codes: 0 done, 1 bad input, 2 bad command line.
 */
import { readFileSync } from 'node:fs'
import { prepareBuild } from '../src/main/context/cli/buildInput'
import { runCompressCommand } from '../src/main/context/cli/compressInput'
import { EngineRegistry } from '../src/main/context/engine/engineRegistry'
import { runCacheCommand } from '../src/main/context/cli/promptCacheInput'
import { runSimulation, type SimulationOptions } from '../src/main/context/cli/simulation'

const COMMANDS = ['build', 'compress', 'cache', 'simulate'] as const
type Command = (typeof COMMANDS)[number]

const USAGE = `usage: npm run ctx -- <${COMMANDS.join('|')}> --input <file.json>
       npm run ctx -- simulate --input <thread.json> [--budget N] [--policy chunked|sliding]`

class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number
  ) {
    super(message)
  }
}

function flagValue(rest: string[], name: string): string | undefined {
  const flag = rest.indexOf(name)
  const value = flag === -1 ? undefined : rest[flag + 1]
  if (flag !== -1 && (value === undefined || value.startsWith('--'))) {
    throw new CliError(`${name} needs a value\n${USAGE}`, 2)
  }
  return value
}

function simulationOptions(rest: string[]): SimulationOptions {
  const options: SimulationOptions = {}
  const budget = flagValue(rest, '--budget')
  if (budget !== undefined) {
    const value = Number(budget)
    if (!Number.isInteger(value) || value < 1) {
      throw new CliError(`--budget must be a whole number of tokens, at least 1\n${USAGE}`, 2)
    }
    options.budget = value
  }
  const policy = flagValue(rest, '--policy')
  if (policy !== undefined) {
    if (policy !== 'chunked' && policy !== 'sliding') {
      throw new CliError(`--policy must be "chunked" or "sliding"\n${USAGE}`, 2)
    }
    options.policy = policy
  }
  return options
}

function commandLine(args: string[]): {
  command: Command
  path: string
  simulation: SimulationOptions
} {
  const [command, ...rest] = args
  if (!COMMANDS.includes(command as Command)) {
    throw new CliError(`unknown command "${command ?? ''}"\n${USAGE}`, 2)
  }
  const path = rest.includes('--input') ? flagValue(rest, '--input') : undefined
  if (path === undefined) throw new CliError(`missing --input <file>\n${USAGE}`, 2)
  const simulation = command === 'simulate' ? simulationOptions(rest) : {}
  return { command: command as Command, path, simulation }
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

function badShape(path: string, issues: string[]): CliError {
  return new CliError(`${path} does not match the input shape:\n  ${issues.join('\n  ')}`, 1)
}

async function run(
  command: Command,
  path: string,
  json: unknown,
  simulation: SimulationOptions
): Promise<unknown> {
  if (command === 'simulate') {
    const result = runSimulation(json, simulation)
    if (!result.ok) throw badShape(path, result.issues)
    return result.report
  }
  if (command === 'compress') {
    const result = await runCompressCommand(json)
    if (!result.ok) throw badShape(path, result.issues)
    return result.output
  }
  if (command === 'cache') {
    const result = runCacheCommand(json)
    if (!result.ok) throw badShape(path, result.issues)
    return result.output
  }
  const prepared = prepareBuild(json)
  if (!prepared.ok) throw badShape(path, prepared.issues)
  return new EngineRegistry().build(prepared.request, prepared.config)
}

async function main(args: string[]): Promise<void> {
  const { command, path, simulation } = commandLine(args)
  const output = await run(command, path, readJson(path), simulation)
  process.stdout.write(`${JSON.stringify(output, null, 2)}\n`)
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (!(error instanceof CliError)) throw error
  process.stderr.write(`ctx: ${error.message}\n`)
  process.exitCode = error.exitCode
})
