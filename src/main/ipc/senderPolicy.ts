/**
 * Only our own renderer may call the IPC handlers: a frame that navigated elsewhere, an iframe
 * or any other origin is refused. `appUrl` is the dev server URL or the packaged index.html.
 */
export function isTrustedSenderUrl(senderUrl: string | undefined, appUrl: string): boolean {
  if (!senderUrl) return false
  let sender: URL
  let app: URL
  try {
    sender = new URL(senderUrl)
    app = new URL(appUrl)
  } catch {
    return false
  }
  if (app.protocol === 'file:') {
    return sender.protocol === 'file:' && sender.pathname === app.pathname
  }
  return sender.origin === app.origin
}
