import { highlightTerms } from './highlightTerms'

export function HighlightedText({ text, query }: { text: string; query: string }) {
  return (
    <>
      {highlightTerms(text, query).map((part, index) =>
        part.match ? <mark key={index}>{part.text}</mark> : <span key={index}>{part.text}</span>
      )}
    </>
  )
}
