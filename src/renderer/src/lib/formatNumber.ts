import { useMemo } from 'react'
import { useTranslation } from 'react-i18next'

/** Whole numbers with the UI language's grouping ("12,345"), for token counts. */
export function useFormatNumber(): (value: number) => string {
  const { i18n } = useTranslation()
  return useMemo(() => {
    const format = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 2 })
    return (value: number) => format.format(value)
  }, [i18n.language])
}

/** Short numbers for tight places ("128K", "12.8万"), in the UI language. */
export function useFormatCompact(): (value: number) => string {
  const { i18n } = useTranslation()
  return useMemo(() => {
    const format = new Intl.NumberFormat(i18n.language, {
      notation: 'compact',
      maximumFractionDigits: 1
    })
    return (value: number) => format.format(value)
  }, [i18n.language])
}
