import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { ModelRowNote } from '@renderer/features/settings/providers/ModelRowNote'

const model = { id: 'gpt-4o', contextWindow: 128_000, maxOutput: 16_384 }

describe('where a model’s numbers come from', () => {
  it('shows the catalog’s prices beside the catalog’s date', () => {
    render(
      <ModelRowNote
        kind="openai"
        saved={{ ...model, inputPrice: 2.5, outputPrice: 10 }}
        catalogDate="2026-09-23"
      />
    )
    expect(screen.getByTestId('provider-model-note')).toHaveTextContent(
      '$2.50 in · $10.00 out per million tokens, from the model catalog of 2026-09-23.'
    )
  })

  it('says a model the catalog does not know has guessed numbers and no cost', () => {
    render(<ModelRowNote kind="openai-compatible" saved={model} catalogDate="2026-09-23" />)
    const note = screen.getByTestId('provider-model-note')
    expect(note).toHaveAttribute('data-state', 'guess')
    expect(note).toHaveTextContent('may be guesses')
  })

  it('says a local model costs nothing per token, and says nothing for an unsaved row', () => {
    const { rerender } = render(
      <ModelRowNote
        kind="ollama"
        saved={{ ...model, inputPrice: 0, outputPrice: 0 }}
        catalogDate="2026-09-23"
      />
    )
    expect(screen.getByTestId('provider-model-note')).toHaveTextContent('no cost per token')
    rerender(<ModelRowNote kind="ollama" saved={undefined} catalogDate="2026-09-23" />)
    expect(screen.queryByTestId('provider-model-note')).toBeNull()
  })
})
