import { join } from 'node:path'

/**
 * The window's icon on Linux and Windows (macOS takes the app bundle's icon.icns instead).
 * `appPath` is app.getAppPath(): the project folder in development, app.asar when packaged
 * (electron-builder.yml packs resources/icons for this).
 */
export function windowIconPath(appPath: string, platform: NodeJS.Platform): string | undefined {
  return platform === 'darwin' ? undefined : join(appPath, 'resources', 'icons', '256x256.png')
}
