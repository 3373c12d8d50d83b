import { render } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { MarkdownContent } from '@renderer/features/chat/MarkdownContent'

const renderMarkdown = (text: string) => render(<MarkdownContent text={text} />).container

describe('MarkdownContent sanitization', () => {
  it('never creates a script element; the HTML is shown as the text that was written', () => {
    const container = renderMarkdown('before <script>window.pwned = true</script> after')

    expect(container.querySelector('script')).toBeNull()
    expect(container).toHaveTextContent('before <script>window.pwned = true</script> after')
  })

  it('never creates an element with an event handler attribute', () => {
    const container = renderMarkdown(
      '<img src="x" onerror="window.pwned = true">\n\n<b onclick="x()">hi</b>'
    )

    expect(container.querySelector('img')).toBeNull()
    expect(container.querySelector('[onerror], [onclick]')).toBeNull()
    expect(container.querySelector('b')).toBeNull()
  })

  it('drops javascript: URLs from links', () => {
    const container = renderMarkdown(
      '[click me](javascript:alert(1)) and [also](JaVaScRiPt:alert(2))'
    )

    expect(container.innerHTML).not.toMatch(/javascript:/i)
    expect(container).toHaveTextContent('click me and also')
  })

  it('opens web links in a new window without a referrer', () => {
    const container = renderMarkdown('See [the docs](https://example.com/docs).')

    const link = container.querySelector('a')
    expect(link).toHaveAttribute('href', 'https://example.com/docs')
    expect(link).toHaveAttribute('target', '_blank')
    expect(link).toHaveAttribute('rel', 'noreferrer')
  })

  it('does not let a relative link navigate the app window', () => {
    const container = renderMarkdown('[settings](../../index.html)')

    expect(container.querySelector('a')).toBeNull()
    expect(container).toHaveTextContent('settings')
  })

  it('names an image with a relative or non-web source instead of linking to it', () => {
    const container = renderMarkdown('![passwords](/etc/passwd) ![up](../index.html)')

    expect(container.querySelector('a, img')).toBeNull()
    expect(container).toHaveTextContent('passwords up')
  })
})

describe('MarkdownContent rendering', () => {
  it('keeps the line breaks typed with Shift+Enter', () => {
    const { container } = render(<MarkdownContent text={'First line\nsecond line'} />)
    expect(container.querySelectorAll('br')).toHaveLength(1)
    expect(container.textContent).toBe('First line\nsecond line')
  })

  it('renders GFM tables', () => {
    const container = renderMarkdown('| Section | Share |\n| --- | --- |\n| recent | 55 % |')

    const table = container.querySelector('table')
    expect(table).not.toBeNull()
    expect([...table!.querySelectorAll('th')].map((th) => th.textContent)).toEqual([
      'Section',
      'Share'
    ])
    expect(table!.querySelector('td')).toHaveTextContent('recent')
  })

  it('renders task lists and strikethrough', () => {
    const container = renderMarkdown('- [x] done\n- [ ] to do\n\n~~gone~~')

    const boxes = container.querySelectorAll<HTMLInputElement>('input[type="checkbox"]')
    expect([...boxes].map((box) => box.checked)).toEqual([true, false])
    expect(container.querySelector('del')).toHaveTextContent('gone')
  })

  it('highlights fenced code with a language, keeping the highlight classes', () => {
    const container = renderMarkdown('```ts\nconst answer: number = 42\n```')

    const code = container.querySelector('pre > code')
    expect(code).toHaveClass('hljs', 'language-ts')
    expect(code?.querySelector('.hljs-keyword')).toHaveTextContent('const')
    expect(code?.querySelector('.hljs-number')).toHaveTextContent('42')
    expect(code).toHaveTextContent('const answer: number = 42')
  })
})
