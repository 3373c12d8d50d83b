/**
 * Which keyring Electron's safeStorage uses on Linux. Chromium picks one from
 * XDG_CURRENT_DESKTOP: GNOME-like desktops get libsecret, KDE gets KWallet, and every other
 * desktop (sway, Hyprland, i3, niri...) gets `basic_text`, a hard-coded key that the app
 * rightly refuses, even when a keyring is running (electron #39789). So on those desktops,
 * when a Secret Service (gnome-keyring, KeePassXC, KWallet's bridge) is on the session bus,
 * the app asks for libsecret itself. It must be chosen before `ready`.
 */
import { spawnSync } from 'node:child_process'

/** Desktops for which Chromium already selects a real keyring on its own. */
const DESKTOPS_WITH_KEYRING = [
  'gnome',
  'unity',
  'pantheon',
  'xfce',
  'cinnamon',
  'deepin',
  'ukui',
  'budgie',
  'mate',
  'kde'
]

export interface PasswordStoreContext {
  platform: NodeJS.Platform
  env: NodeJS.ProcessEnv
  argv: readonly string[]
  /** Whether org.freedesktop.secrets is running or can be started on the session bus. */
  secretServiceAvailable: () => boolean
}

/** The `--password-store` value to add, or null to leave Chromium's choice alone. */
export function choosePasswordStore(context: PasswordStoreContext): string | null {
  if (context.platform !== 'linux') return null
  // The user chose one on the command line: theirs wins.
  if (context.argv.some((arg) => arg.startsWith('--password-store'))) return null
  const desktops = (context.env.XDG_CURRENT_DESKTOP ?? '').toLowerCase().split(':').filter(Boolean)
  if (desktops.some((d) => DESKTOPS_WITH_KEYRING.some((known) => d.includes(known)))) return null
  if (!context.env.DBUS_SESSION_BUS_ADDRESS) return null
  return context.secretServiceAvailable() ? 'gnome-libsecret' : null
}

const SECRETS = 'org.freedesktop.secrets'

/**
 * Asks the session bus (with dbus-send, present wherever D-Bus is) whether a Secret Service
 * owns its name or can be activated. One second at most: a hung bus must not hold the start.
 */
export function secretServiceOnSessionBus(): boolean {
  for (const method of ['ListNames', 'ListActivatableNames']) {
    const answer = spawnSync(
      'dbus-send',
      [
        '--session',
        '--print-reply',
        '--dest=org.freedesktop.DBus',
        '/org/freedesktop/DBus',
        `org.freedesktop.DBus.${method}`
      ],
      { encoding: 'utf8', timeout: 1_000 }
    )
    if (answer.status === 0 && answer.stdout.includes(`"${SECRETS}"`)) return true
  }
  return false
}
