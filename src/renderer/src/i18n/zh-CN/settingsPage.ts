import type { Translation } from '../resources'

export const settingsPage: Translation['settingsPage'] = {
  title: '设置',
  open: '设置',
  back: '返回对话',
  backHint: '返回对话（Esc）',
  sections: '设置分区',
  models: '默认模型'
}
