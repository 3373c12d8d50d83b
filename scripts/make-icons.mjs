// Renders resources/icon.svg (the one source image) into the app icons: PNGs for Linux and
// the window (resources/icons/<n>x<n>.png), resources/icon.icns for macOS and
// resources/icon.ico for Windows. sharp rasterizes; the ICO and ICNS containers are written
// here around PNG data, which both formats accept (Windows Vista+, macOS 10.7+).
// Run `npm run icons` after editing the SVG and commit the results.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import sharp from 'sharp'

const resources = join(dirname(fileURLToPath(import.meta.url)), '..', 'resources')
const svg = readFileSync(join(resources, 'icon.svg'))
const SVG_SIZE = 256

/** Linux wants a folder of sizes; the window icon is the 256 one. */
const PNG_SIZES = [16, 32, 48, 64, 128, 256, 512]
const ICO_SIZES = [16, 24, 32, 48, 64, 128, 256]
/** ICNS element types that hold PNG data, by pixel size (ic10 is 512@2x). */
const ICNS_TYPES = [
  ['icp4', 16],
  ['icp5', 32],
  ['icp6', 64],
  ['ic07', 128],
  ['ic08', 256],
  ['ic09', 512],
  ['ic10', 1024]
]

const cache = new Map()
/** The SVG drawn at `size` pixels (rendered at that density, not scaled from a bitmap). */
function png(size) {
  if (!cache.has(size)) {
    cache.set(
      size,
      sharp(svg, { density: (72 * size) / SVG_SIZE })
        .resize(size, size)
        .png({ compressionLevel: 9, palette: size <= 64 })
        .toBuffer()
    )
  }
  return cache.get(size)
}

/** ICONDIR, one 16-byte ICONDIRENTRY per image, then the PNGs. 256 is written as 0. */
function ico(images) {
  const header = Buffer.alloc(6 + 16 * images.length)
  header.writeUInt16LE(0, 0)
  header.writeUInt16LE(1, 2)
  header.writeUInt16LE(images.length, 4)
  let offset = header.length
  images.forEach(({ size, data }, i) => {
    const entry = 6 + 16 * i
    header.writeUInt8(size >= 256 ? 0 : size, entry)
    header.writeUInt8(size >= 256 ? 0 : size, entry + 1)
    header.writeUInt8(0, entry + 2)
    header.writeUInt8(0, entry + 3)
    header.writeUInt16LE(1, entry + 4)
    header.writeUInt16LE(32, entry + 6)
    header.writeUInt32LE(data.length, entry + 8)
    header.writeUInt32LE(offset, entry + 12)
    offset += data.length
  })
  return Buffer.concat([header, ...images.map(({ data }) => data)])
}

/** 'icns' + total length, then per image: its 4-char type, 8 + length, the PNG (big-endian). */
function icns(images) {
  const elements = images.map(({ type, data }) => {
    const head = Buffer.alloc(8)
    head.write(type, 0, 'ascii')
    head.writeUInt32BE(8 + data.length, 4)
    return Buffer.concat([head, data])
  })
  const head = Buffer.alloc(8)
  head.write('icns', 0, 'ascii')
  head.writeUInt32BE(8 + elements.reduce((sum, e) => sum + e.length, 0), 4)
  return Buffer.concat([head, ...elements])
}

mkdirSync(join(resources, 'icons'), { recursive: true })
for (const size of PNG_SIZES) {
  writeFileSync(join(resources, 'icons', `${size}x${size}.png`), await png(size))
}
writeFileSync(
  join(resources, 'icon.ico'),
  ico(await Promise.all(ICO_SIZES.map(async (size) => ({ size, data: await png(size) }))))
)
writeFileSync(
  join(resources, 'icon.icns'),
  icns(await Promise.all(ICNS_TYPES.map(async ([type, size]) => ({ type, data: await png(size) }))))
)
console.log(`Icons written to ${resources}`)
