import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron'
// Before the contract builds its schemas; see the file.
import '@shared/zodWithoutEval'
import { createApi } from '@shared/api'

/** The renderer's only door to the main process: exactly the contract, nothing more. */
contextBridge.exposeInMainWorld(
  'api',
  createApi({
    invoke: (channel, input) => ipcRenderer.invoke(channel, input),
    subscribe: (event, listener) => {
      const forward = (_event: IpcRendererEvent, payload: unknown) => listener(payload)
      ipcRenderer.on(event, forward)
      return () => ipcRenderer.removeListener(event, forward)
    }
  })
)
