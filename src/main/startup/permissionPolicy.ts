/**
 * The one permission the app's page needs: writing text to the clipboard ("Copy as JSON" in
 * the inspector uses navigator.clipboard). Everything else, and anything asked by another
 * origin, is denied.
 */
import { isTrustedSenderUrl } from '../ipc/senderPolicy'

const GRANTED = new Set(['clipboard-sanitized-write'])

export function isPermissionGranted(
  permission: string,
  requestingUrl: string | undefined,
  appUrl: string
): boolean {
  return GRANTED.has(permission) && isTrustedSenderUrl(requestingUrl, appUrl)
}
