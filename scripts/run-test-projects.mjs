// `npm test` after the models and the build: each vitest project on its own, one after the
// other, with its wall time, so CI shows where the time goes. Every project runs even when an
// earlier one fails; the exit code is the first failure's.
import { spawnSync } from 'node:child_process'

const PROJECTS = ['unit', 'integration', 'renderer', 'e2e']
const extra = process.argv.slice(2)
const times = []
let failed = 0
for (const project of PROJECTS) {
  const started = performance.now()
  const result = spawnSync('npx', ['vitest', 'run', '--project', project, ...extra], {
    stdio: 'inherit',
    shell: process.platform === 'win32'
  })
  const seconds = (performance.now() - started) / 1000
  const status = result.status ?? 1
  times.push(`${project}: ${seconds.toFixed(0)} s${status === 0 ? '' : ' (failed)'}`)
  console.log(`[test] ${project} finished in ${seconds.toFixed(0)} s with exit code ${status}`)
  if (status !== 0 && failed === 0) failed = status
}
console.log(`[test] wall time per project: ${times.join(', ')}`)
process.exit(failed)
