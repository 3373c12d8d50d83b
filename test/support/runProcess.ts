import { spawn, type SpawnOptions } from 'node:child_process'

/** Runs a program to its end, collecting what it printed (while this process keeps serving). */
export function runProcess(
  command: string,
  args: string[],
  options: SpawnOptions
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout?.on('data', (chunk) => (stdout += chunk))
  child.stderr?.on('data', (chunk) => (stderr += chunk))
  return new Promise((done) => child.on('close', (status) => done({ status, stdout, stderr })))
}
