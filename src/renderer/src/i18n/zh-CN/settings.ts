import type { Translation } from '../resources'

export const settings: Translation['settings'] = {
  language: '语言',
  languageSystem: '跟随系统',
  saveFailed: '无法保存设置：{{message}}',
  loadFailed: '无法加载设置，已使用默认值：{{message}}'
}
