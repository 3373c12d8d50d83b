import 'i18next'
import type { Translation } from './resources'

// Makes t() keys and interpolation values type-checked against the English resources.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation'
    resources: { translation: Translation }
  }
}
