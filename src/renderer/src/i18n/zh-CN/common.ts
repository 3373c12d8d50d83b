import type { Translation } from '../resources'

export const common: Translation['common'] = {
  cancel: '取消',
  dismiss: '关闭',
  retry: '重试',
  close: '关闭'
}
