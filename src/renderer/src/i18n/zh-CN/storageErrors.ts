import type { Translation } from '../resources'

export const storageErrors: Translation['storageErrors'] = {
  storage_corrupt:
    '对话数据库已损坏，因此无法读取或保存此内容。文件的副本会被保留，随后你可以恢复所有仍可读取的内容。',
  storage_full:
    '磁盘已满，因此未能保存。请释放一些空间后重试；你输入的文字仍保留着，之前保存的内容没有丢失。',
  storage_readonly:
    '对话数据库是只读的，因此未能保存。请确认你有权写入该文件及其所在文件夹，然后重试。'
}
