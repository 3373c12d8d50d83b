export interface Probe {
  run(command: string, args: string[]): boolean
  firstLine(command: string, args: string[]): string | null
  exists(path: string): boolean
  env: Record<string, string | undefined>
}
export function systemProbe(env?: Record<string, string | undefined>): Probe
export function missingBuildTools(platform: string, probe: Probe): string[]
export function oldCompilerNote(platform: string, probe: Probe): string | null
export function installAdvice(platform: string, missing: string[], what: string): string
