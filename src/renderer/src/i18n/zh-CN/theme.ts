import type { Translation } from '../resources'

export const theme: Translation['theme'] = {
  label: '主题',
  system: '跟随系统',
  light: '浅色',
  dark: '深色'
}
