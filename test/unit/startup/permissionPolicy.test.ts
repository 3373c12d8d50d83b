import { describe, expect, it } from 'vitest'
import { isPermissionGranted } from '../../../src/main/startup/permissionPolicy'

const packaged = 'file:///opt/Context%20Lens/resources/app.asar/out/renderer/index.html'
const dev = 'http://localhost:5173/'

describe('isPermissionGranted', () => {
  it('grants clipboard writing to the app page only', () => {
    expect(isPermissionGranted('clipboard-sanitized-write', packaged, packaged)).toBe(true)
    expect(isPermissionGranted('clipboard-sanitized-write', 'http://localhost:5173/#/x', dev)).toBe(
      true
    )
    expect(
      isPermissionGranted('clipboard-sanitized-write', 'https://evil.example/', packaged)
    ).toBe(false)
    expect(
      isPermissionGranted('clipboard-sanitized-write', 'file:///tmp/other.html', packaged)
    ).toBe(false)
    expect(isPermissionGranted('clipboard-sanitized-write', undefined, packaged)).toBe(false)
  })

  it('denies everything else, to the app page too', () => {
    for (const permission of [
      'clipboard-read',
      'media',
      'geolocation',
      'notifications',
      'openExternal'
    ]) {
      expect(isPermissionGranted(permission, packaged, packaged)).toBe(false)
    }
  })
})
