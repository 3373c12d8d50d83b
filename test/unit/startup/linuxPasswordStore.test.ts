import { describe, expect, it, vi } from 'vitest'
import { choosePasswordStore } from '../../../src/main/startup/linuxPasswordStore'

const bus = 'unix:path=/run/user/1000/bus'
const context = (
  env: Record<string, string>,
  running = true,
  platform: NodeJS.Platform = 'linux',
  argv: string[] = ['/opt/context-lens']
) => ({ platform, env, argv, secretServiceAvailable: vi.fn(() => running) })

describe('choosePasswordStore', () => {
  it('asks for libsecret on tiling desktops when a Secret Service is on the bus', () => {
    for (const desktop of ['sway', 'Hyprland', 'i3', 'niri', '']) {
      const c = context({ XDG_CURRENT_DESKTOP: desktop, DBUS_SESSION_BUS_ADDRESS: bus })
      expect(choosePasswordStore(c)).toBe('gnome-libsecret')
    }
  })

  it('leaves the choice to Chromium where it already picks a keyring', () => {
    for (const desktop of ['GNOME', 'ubuntu:GNOME', 'KDE', 'X-Cinnamon', 'XFCE', 'Unity']) {
      const c = context({ XDG_CURRENT_DESKTOP: desktop, DBUS_SESSION_BUS_ADDRESS: bus })
      expect(choosePasswordStore(c)).toBeNull()
      expect(c.secretServiceAvailable).not.toHaveBeenCalled()
    }
  })

  it('adds nothing without a Secret Service, without a session bus, off Linux, or when the user chose', () => {
    expect(
      choosePasswordStore(
        context({ XDG_CURRENT_DESKTOP: 'sway', DBUS_SESSION_BUS_ADDRESS: bus }, false)
      )
    ).toBeNull()
    expect(choosePasswordStore(context({ XDG_CURRENT_DESKTOP: 'sway' }))).toBeNull()
    expect(
      choosePasswordStore(
        context({ XDG_CURRENT_DESKTOP: 'sway', DBUS_SESSION_BUS_ADDRESS: bus }, true, 'darwin')
      )
    ).toBeNull()
    expect(
      choosePasswordStore(
        context({ XDG_CURRENT_DESKTOP: 'sway', DBUS_SESSION_BUS_ADDRESS: bus }, true, 'linux', [
          'x',
          '--password-store=kwallet5'
        ])
      )
    ).toBeNull()
  })
})
