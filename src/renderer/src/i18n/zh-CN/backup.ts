import type { Translation } from '../resources'

export const backup: Translation['backup'] = {
  title: '备份',
  explain: '在应用运行时复制全部对话。更新修改数据库之前、导入之前也会自动备份。保留最近的 10 份。',
  now: '立即备份',
  progress: '备份进度',
  restoreFile: '从文件恢复…',
  restore: '恢复',
  confirm: '用这份备份替换当前的对话吗？当前的对话会另存一份，不会删除。',
  restored:
    '已恢复 {{threads}} 个对话（{{messages}} 条消息）。原来的对话保存在 {{keptAt}}。正在重新打开…',
  none: '还没有备份。',
  size: '{{mb}} MB',
  reasons: {
    manual: '手动',
    'pre-migration': '更新之前',
    'pre-import': '导入之前'
  }
}
