export const common = {
  cancel: 'Cancel',
  dismiss: 'Dismiss',
  retry: 'Try again',
  close: 'Close'
}
