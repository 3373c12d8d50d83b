import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { windowIconPath } from '../../../src/main/windowIcon'

const root = resolve(import.meta.dirname, '../../..')
const resources = join(root, 'resources')
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

/** Width and height from a PNG's IHDR chunk, after checking the signature. */
function pngSize(data: Buffer): { width: number; height: number } {
  expect(data.subarray(0, 8)).toEqual(PNG_SIGNATURE)
  expect(data.toString('ascii', 12, 16)).toBe('IHDR')
  return { width: data.readUInt32BE(16), height: data.readUInt32BE(20) }
}

/** electron-builder.yml's top-level sections: their `key: value` lines and `- item` lists. */
function topLevelSections(yaml: string) {
  const sections: Record<string, { values: Record<string, string>; items: string[] }> = {}
  let current = { values: {}, items: [] } as (typeof sections)[string]
  for (const line of yaml.split('\n')) {
    const top = /^(\w+):/.exec(line)
    if (top) sections[top[1]!] = current = { values: {}, items: [] }
    const value = /^ {2}(\w+): (.+)$/.exec(line)
    if (value) current.values[value[1]!] = value[2]!
    const item = /^ {2}- '?([^']+)'?$/.exec(line)
    if (item) current.items.push(item[1]!)
  }
  return {
    files: sections.files!.items,
    directories: { buildResources: sections.directories!.values.buildResources },
    linux: { icon: sections.linux!.values.icon! },
    mac: { icon: sections.mac!.values.icon! },
    win: { icon: sections.win!.values.icon! }
  }
}

describe('the app icon (resources/, made by scripts/make-icons.mjs from icon.svg)', () => {
  it('has a PNG of each size for Linux, each really that size', () => {
    for (const size of [16, 32, 48, 64, 128, 256, 512]) {
      const data = readFileSync(join(resources, 'icons', `${size}x${size}.png`))
      expect(pngSize(data)).toEqual({ width: size, height: size })
    }
  })

  it('has an ICO whose directory points at PNG images of the sizes it claims', () => {
    const ico = readFileSync(join(resources, 'icon.ico'))
    expect([ico.readUInt16LE(0), ico.readUInt16LE(2)]).toEqual([0, 1])
    const count = ico.readUInt16LE(4)
    const sizes: number[] = []
    for (let i = 0; i < count; i++) {
      const entry = 6 + 16 * i
      const size = ico.readUInt8(entry) || 256
      const length = ico.readUInt32LE(entry + 8)
      const offset = ico.readUInt32LE(entry + 12)
      expect(offset + length).toBeLessThanOrEqual(ico.length)
      expect(pngSize(ico.subarray(offset, offset + length))).toEqual({ width: size, height: size })
      sizes.push(size)
    }
    expect(sizes).toEqual(expect.arrayContaining([16, 32, 48, 256]))
  })

  it('has an ICNS whose elements add up to its length and hold PNGs up to 1024 pixels', () => {
    const icns = readFileSync(join(resources, 'icon.icns'))
    expect(icns.toString('ascii', 0, 4)).toBe('icns')
    expect(icns.readUInt32BE(4)).toBe(icns.length)
    const types: string[] = []
    for (let at = 8; at < icns.length;) {
      const type = icns.toString('ascii', at, at + 4)
      const length = icns.readUInt32BE(at + 4)
      expect(length).toBeGreaterThan(8)
      pngSize(icns.subarray(at + 8, at + length))
      types.push(type)
      at += length
    }
    expect(types).toEqual(expect.arrayContaining(['icp4', 'ic07', 'ic08', 'ic09', 'ic10']))
  })

  it('is small enough to commit', () => {
    for (const file of ['icon.ico', 'icon.icns', 'icons/512x512.png']) {
      expect(readFileSync(join(resources, file)).length).toBeLessThan(200_000)
    }
  })

  it('is what electron-builder packs and the window shows', () => {
    const config = topLevelSections(readFileSync(join(root, 'electron-builder.yml'), 'utf8'))
    expect(config.directories.buildResources).toBe('resources')
    expect(existsSync(join(root, config.mac.icon))).toBe(true)
    expect(existsSync(join(root, config.win.icon))).toBe(true)
    expect(existsSync(join(root, config.linux.icon, '256x256.png'))).toBe(true)

    const window = windowIconPath(root, 'linux')!
    expect(pngSize(readFileSync(window))).toEqual({ width: 256, height: 256 })
    expect(config.files).toContain(window.slice(root.length + 1).replaceAll('\\', '/'))
    expect(windowIconPath(root, 'win32')).toBe(window)
    expect(windowIconPath(root, 'darwin')).toBeUndefined()
  })
})
