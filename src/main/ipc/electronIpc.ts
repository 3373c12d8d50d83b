import type { IpcMain, IpcMainInvokeEvent } from 'electron'
import { fail } from '@shared/result'
import type { HandlerRegistry } from './registry'

/** Binds every contract channel to ipcMain, refusing calls from frames we do not trust. */
export function registerIpc(
  ipcMain: IpcMain,
  registry: HandlerRegistry,
  isTrusted: (event: IpcMainInvokeEvent) => boolean
): void {
  for (const channel of registry.channels) {
    ipcMain.handle(channel, (event, input: unknown) =>
      isTrusted(event)
        ? registry.invoke(channel, input)
        : fail({ code: 'forbidden_sender', message: 'This window may not call the app.' })
    )
  }
}
