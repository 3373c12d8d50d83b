/**
 * A sandboxed preload can require only Electron's own modules: a bundle that requires anything
 * else (a node_modules package, node:path) fails in the window, and the page gets no window.api.
 * This reads the BUILT bundle, the file the window loads.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT } from '../support/bootBuiltApp'

const PRELOAD = join(ROOT, 'out/preload/index.js')

/** Every module the bundle loads: literal requires and imports, and any computed require. */
function requiredModules(code: string): string[] {
  const found = new Set<string>()
  for (const match of code.matchAll(/\brequire\s*\(\s*(["'`])([^"'`]+)\1\s*\)/g))
    found.add(match[2] as string)
  for (const match of code.matchAll(/\b(?:import|export)\b[^'"`;]*?\bfrom\s*(["'])([^"']+)\1/g))
    found.add(match[2] as string)
  for (const match of code.matchAll(/\bimport\s*\(\s*(["'`])([^"'`]+)\1\s*\)/g))
    found.add(match[2] as string)
  if (/\brequire\s*\(\s*[^"'`\s)]/.test(code)) found.add('<computed require>')
  return [...found].sort()
}

describe('the preload bundle', () => {
  it('requires nothing but electron', () => {
    expect(existsSync(PRELOAD), 'run `npm run build` first').toBe(true)
    expect(requiredModules(readFileSync(PRELOAD, 'utf8'))).toEqual(['electron'])
  })

  it('the check sees what a bad bundle would load', () => {
    expect(
      requiredModules(
        'const e = require("electron"); const p = require("node:path"); import x from "zod"; require(name)'
      )
    ).toEqual(['<computed require>', 'electron', 'node:path', 'zod'])
  })
})
