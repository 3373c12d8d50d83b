import { memo, useRef, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import Markdown, { type Components, type Options } from 'react-markdown'
import remarkBreaks from 'remark-breaks'
import remarkGfm from 'remark-gfm'
import rehypeSanitize, { defaultSchema } from 'rehype-sanitize'
import rehypeHighlight from 'rehype-highlight'
import './markdown.css'
import { rawHtmlAsText } from './rawHtmlAsText'
import { CopyButton } from './CopyButton'

type PluginList = NonNullable<Options['rehypePlugins']>

// In a chat a line break is a line break, as people type it with Shift+Enter.
const remarkPlugins: PluginList = [remarkGfm, remarkBreaks]

/**
 * Order matters. Sanitizing runs on everything the message produced and keeps only
 * `language-*` classes on code; highlighting runs afterwards, so its `hljs-*` spans (built from
 * text only) are added to an already-safe tree and are not stripped.
 */
const rehypePlugins: PluginList = [
  rawHtmlAsText,
  [rehypeSanitize, defaultSchema],
  [rehypeHighlight, { detect: false }]
]

const OPENS_EXTERNALLY = /^(https?:|mailto:)/i

/** A code block with its own Copy: the block's text as shown, without the markdown fences. */
function CodeBlock({ children }: { children: ReactNode }) {
  const { t } = useTranslation()
  const pre = useRef<HTMLPreElement>(null)
  return (
    <div className="code-block">
      <pre ref={pre}>{children}</pre>
      <CopyButton
        className="code-block__copy"
        testId="copy-code"
        label={t('chat.copyCode')}
        getText={() => pre.current?.textContent ?? ''}
      />
    </div>
  )
}

const components: Components = {
  pre: ({ children }) => <CodeBlock>{children}</CodeBlock>,
  a: ({ href, title, children }) => {
    // The main process sends new-window requests to the system browser.
    if (href && OPENS_EXTERNALLY.test(href)) {
      return (
        <a href={href} title={title} target="_blank" rel="noreferrer">
          {children}
        </a>
      )
    }
    if (href?.startsWith('#')) return <a href={href}>{children}</a>
    // A relative link would navigate the app window itself away; keep the text, drop the link.
    return <span title={href}>{children}</span>
  },
  // The renderer loads nothing from the network (see the CSP), so an image is offered as a
  // link, under the same rule as links: a relative or other source is only named.
  img: ({ src, alt }) => {
    if (typeof src !== 'string' || !src) return null
    if (!/^https?:/i.test(src)) return <span title={src}>{alt || src}</span>
    return (
      <a className="markdown-image" href={src} target="_blank" rel="noreferrer">
        {alt || src}
      </a>
    )
  }
}

export const MarkdownContent = memo(function MarkdownContent({ text }: { text: string }) {
  return (
    <div className="markdown">
      <Markdown remarkPlugins={remarkPlugins} rehypePlugins={rehypePlugins} components={components}>
        {text}
      </Markdown>
    </div>
  )
})
