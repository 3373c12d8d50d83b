import { act, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it } from 'vitest'
import { App } from '@renderer/App'
import { useSettingsStore } from '@renderer/features/settings/settingsStore'
import { i18n } from '@renderer/i18n'
import type { Api } from '@shared/api'
import type { StoredBuild } from '@shared/context'
import { pageOf, type PageQuery } from '@shared/messagePages'
import { ok } from '@shared/result'
import { allAnswered, installFakeBackend, type FakeBackend } from './support/fakeApi'
import { simulateMessageListLayout } from './support/layout'

let backend: FakeBackend
let threadId: string
/** The ids the scripted model's streams were given, in order. */
let streamIds: string[]

beforeEach(async () => {
  backend = await installFakeBackend()
  simulateMessageListLayout()
  threadId = backend.addThread('Chat').id
  streamIds = []
})

/**
 * From here on a model answers (renderer tests run no provider's server): main stores the
 * message and builds the request as it does, then the send answers `streaming` with ids
 * `stream-1`, `stream-2`…, and the test emits what the stream would. A regenerate answers the
 * next id with a build of the thread as it stands (the renderer reads only the id).
 */
const modelAnswers = () => {
  // Its replies are stored straight into the file (addReply), past main's copy of the thread
  // (ThreadMessageCache), which only main's own turn keeps in step: while it answers, the
  // chat's pages are read from the file, with the function main pages its copy with.
  backend.script('messages:list', (input) => {
    const { threadId, ...query } = input as { threadId: string } & PageQuery
    return ok(pageOf(backend.messagesOf(threadId), query))
  })
  const nextStream = () => {
    streamIds.push(`stream-${streamIds.length + 1}`)
    return streamIds.at(-1)!
  }
  backend.script('messages:send', async (input) => {
    const sent = await backend.main.messages.send(input as Parameters<Api['messages']['send']>[0])
    if (!sent.ok || sent.data.status !== 'no_model_configured' || !sent.data.build) return sent
    const { message, build } = sent.data
    return ok({
      message,
      status: 'streaming',
      streamId: nextStream(),
      model,
      build,
      buildError: null
    })
  })
  backend.script('chat:regenerate', async (input) => {
    const { threadId } = input as { threadId: string }
    const built = await backend.main.context.preview({ threadId, draft: '' })
    if (!built.ok) return built
    const build: StoredBuild = {
      id: 0,
      threadId,
      messageId: null,
      createdAt: 0,
      context: built.data
    }
    return ok({ streamId: nextStream(), build })
  })
}
const model = { providerId: 'p1', modelId: 'scripted-model' }

const renderApp = async () => {
  await useSettingsStore.getState().load()
  const user = userEvent.setup()
  render(<App />)
  const titleElement = await screen.findByText('Chat', {
    selector: '[data-testid="thread-title"]'
  })
  await user.click(titleElement)
  await screen.findByTestId('composer-input')
  return user
}

const channels = () => backend.calls.map((call) => call.channel)

const sendStreaming = async (user: ReturnType<typeof userEvent.setup>, text = 'Hello') => {
  modelAnswers()
  await user.type(screen.getByTestId('composer-input'), `${text}{Enter}`)
  await screen.findByTestId('streaming-reply')
  return streamIds.at(-1)!
}

describe('streaming replies', () => {
  it('grows a bubble with deltas, offers Stop, then shows the stored reply with its usage', async () => {
    const user = await renderApp()
    const streamId = await sendStreaming(user)

    expect(screen.getByTestId('stop-button')).toBeInTheDocument()
    expect(screen.queryByTestId('send-button')).toBeNull()

    act(() => {
      backend.emit('chat:delta', { threadId, messageId: streamId, delta: 'Hi ' })
      backend.emit('chat:delta', { threadId, messageId: 'other-stream', delta: 'WRONG' })
      backend.emit('chat:delta', { threadId, messageId: streamId, delta: 'there' })
    })
    expect(screen.getByTestId('streaming-text')).toHaveTextContent('Hi there')
    expect(screen.getByTestId('streaming-text')).not.toHaveTextContent('WRONG')

    const stored = backend.addReply(threadId, 'Hi there', {
      usage: {
        promptTokens: 1234,
        completionTokens: 5,
        cacheReadTokens: 1000,
        cacheWriteTokens: 0
      },
      cost: 0.0021,
      estimatedPromptTokens: 1200
    })
    act(() => backend.emit('chat:done', { threadId, streamId, message: stored }))

    await waitFor(() => expect(screen.queryByTestId('streaming-reply')).toBeNull())
    const reply = screen
      .getAllByTestId('message')
      .find((element) => element.dataset.messageId === String(stored.id))!
    expect(within(reply).getByTestId('message-usage-tokens')).toHaveTextContent('1,234 in · 5 out')
    expect(within(reply).getByTestId('message-usage-cache')).toHaveTextContent('1,000 read')
    expect(within(reply).getByTestId('message-usage-cost')).toHaveTextContent('$0.0021')
    expect(screen.getByTestId('send-button')).toBeInTheDocument()

    // The inspector compares the estimate with what the provider counted.
    expect(await screen.findByTestId('reply-usage-estimated')).toHaveTextContent('1,200')
    expect(screen.getByTestId('reply-usage-actual')).toHaveTextContent('1,234')
    expect(screen.getByTestId('reply-usage-cache-read')).toHaveTextContent('1,000')
  })

  it('keeps deltas, and a whole reply, that arrive before send returns its stream id', async () => {
    const user = await renderApp()
    modelAnswers()
    // The events travel apart from the call's answer: here they overtake it.
    let release = backend.hold('messages:send')
    await user.type(screen.getByTestId('composer-input'), 'First{Enter}')
    act(() => backend.emit('chat:delta', { threadId, messageId: 'stream-1', delta: 'Early ' }))
    release()
    await screen.findByTestId('streaming-reply')
    act(() => backend.emit('chat:delta', { threadId, messageId: 'stream-1', delta: 'bird' }))
    expect(screen.getByTestId('streaming-text')).toHaveTextContent('Early bird')
    const first = backend.addReply(threadId, 'Early bird')
    act(() => backend.emit('chat:done', { threadId, streamId: 'stream-1', message: first }))
    await screen.findByTestId('send-button')

    release = backend.hold('messages:send')
    await user.type(screen.getByTestId('composer-input'), 'Second{Enter}')
    const second = backend.addReply(threadId, 'Fast reply')
    act(() => {
      backend.emit('chat:delta', { threadId, messageId: 'stream-2', delta: 'Fast reply' })
      backend.emit('chat:done', { threadId, streamId: 'stream-2', message: second })
    })
    release()
    await screen.findByText('Fast reply')
    // Already over: no Stop button waiting for an end that came first.
    await waitFor(() => expect(screen.getByTestId('send-button')).toBeInTheDocument())
    expect(screen.queryByTestId('streaming-reply')).toBeNull()
  })

  it('stops the reply with the Stop button and marks a stopped reply', async () => {
    const user = await renderApp()
    const streamId = await sendStreaming(user)
    await user.click(screen.getByTestId('stop-button'))
    expect(channels()).toContain('chat:stop')

    const stored = backend.addReply(threadId, 'Partial', { status: 'stopped' })
    act(() => backend.emit('chat:done', { threadId, streamId, message: stored }))
    expect(await screen.findByTestId('reply-status')).toHaveTextContent('stopped')
  })

  it('shows nothing for an abort before any text', async () => {
    const user = await renderApp()
    const streamId = await sendStreaming(user)
    act(() =>
      backend.emit('chat:error', {
        threadId,
        streamId,
        error: { kind: 'aborted', message: 'Aborted' },
        message: null
      })
    )
    await waitFor(() => expect(screen.queryByTestId('streaming-reply')).toBeNull())
    expect(screen.queryByTestId('reply-error')).toBeNull()
  })
})

describe('inline reply errors', () => {
  it('auth: explains and opens the provider settings', async () => {
    const user = await renderApp()
    const streamId = await sendStreaming(user)
    act(() =>
      backend.emit('chat:error', {
        threadId,
        streamId,
        error: { kind: 'auth', message: 'Incorrect API key', status: 401 },
        message: null
      })
    )
    const error = await screen.findByTestId('reply-error')
    expect(error).toHaveAttribute('data-kind', 'auth')
    expect(error).toHaveTextContent('Incorrect API key')
    await user.click(within(error).getByTestId('reply-error-action'))
    expect(await screen.findByTestId('provider-settings')).toBeInTheDocument()
  })

  it('network: Retry regenerates the reply', async () => {
    const user = await renderApp()
    const streamId = await sendStreaming(user)
    act(() =>
      backend.emit('chat:error', {
        threadId,
        streamId,
        error: { kind: 'network', message: 'ECONNREFUSED' },
        message: null
      })
    )
    await user.click(await screen.findByTestId('reply-error-action'))
    expect(channels()).toContain('chat:regenerate')
    expect(await screen.findByTestId('streaming-reply')).toHaveAttribute(
      'data-stream-id',
      streamIds.at(-1)
    )
    expect(screen.queryByTestId('reply-error')).toBeNull()
  })

  it('rate_limit: counts down the given delay, then retries by itself', async () => {
    const user = await renderApp()
    const streamId = await sendStreaming(user)
    act(() =>
      backend.emit('chat:error', {
        threadId,
        streamId,
        error: { kind: 'rate_limit', message: 'Slow down', status: 429, retryAfterMs: 1000 },
        message: null
      })
    )
    expect(await screen.findByTestId('reply-error-countdown')).toHaveTextContent('1 s')
    await waitFor(() => expect(channels()).toContain('chat:regenerate'), { timeout: 3000 })
  })

  it('context_length: shows the automatic retry and explains a second failure', async () => {
    const user = await renderApp()
    const streamId = await sendStreaming(user)
    const build = backend.buildsOf(threadId).at(-1)!
    act(() =>
      backend.emit('chat:retry', {
        threadId,
        streamId,
        reason: 'context_length',
        budget: 12000,
        build
      })
    )
    expect(await screen.findByTestId('retry-notice')).toHaveTextContent('12,000 tokens')
    act(() =>
      backend.emit('chat:error', {
        threadId,
        streamId,
        error: { kind: 'context_length', message: 'maximum context length' },
        message: null
      })
    )
    const error = await screen.findByTestId('reply-error')
    expect(error).toHaveTextContent('retried once already')
    expect(within(error).queryByTestId('reply-error-action')).toBeNull()
  })
})

describe('where a turn’s parts show', () => {
  const messageOrder = () =>
    screen.getAllByTestId('message').map((element) => element.textContent ?? '')
  const isBefore = (a: Element, b: Element) =>
    Boolean(a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING)

  it('shows a tool call awaiting approval below the message it answers', async () => {
    const user = await renderApp()
    modelAnswers()
    // The tool step and its approval are announced before the send answers.
    const release = backend.holdAnswer('messages:send')
    await user.type(screen.getByTestId('composer-input'), 'Please echo hi{Enter}')
    const step = backend.addReply(threadId, 'Asked to run echo')
    step.toolCalls = [{ id: 'call_1', name: 'echo', arguments: '{"message":"hi"}' }]
    act(() => {
      backend.emit('tools:step', { threadId, streamId: 'stream-1', message: step })
      backend.emit('tools:approval', {
        threadId,
        callId: 'call_1',
        toolName: 'echo',
        toolKey: 'mcp:s1:echo',
        sourceName: 'Everything',
        arguments: '{"message":"hi"}',
        requestedAt: 1
      })
    })
    release()
    await waitFor(() => expect(screen.getAllByTestId('message')).toHaveLength(2))
    const [question, call] = screen.getAllByTestId('message')
    expect(question).toHaveTextContent('Please echo hi')
    expect(call).toHaveTextContent('Asked to run echo')
    expect(isBefore(call!, await screen.findByTestId('tool-approval'))).toBe(true)
  })

  it('keeps a failed turn’s error card under that turn after the next send', async () => {
    const user = await renderApp()
    const firstStream = await sendStreaming(user, 'First question')
    act(() =>
      backend.emit('chat:error', {
        threadId,
        streamId: firstStream,
        error: { kind: 'auth', message: 'Incorrect API key', status: 401 },
        message: null
      })
    )
    const card = await screen.findByTestId('reply-error')
    expect(within(card).getByTestId('reply-error-action')).toBeInTheDocument()

    const secondStream = await sendStreaming(user, 'Second question')
    const answer = backend.addReply(threadId, 'Second answer')
    act(() => backend.emit('chat:done', { threadId, streamId: secondStream, message: answer }))
    await screen.findByText('Second answer')

    // Still there, between the turn that failed and the next one, with no action left.
    const kept = screen.getByTestId('reply-error')
    expect(kept).toHaveAttribute('data-kind', 'auth')
    expect(kept).toHaveTextContent('Incorrect API key')
    const [first, second] = screen.getAllByTestId('message')
    expect(isBefore(first!, kept)).toBe(true)
    expect(isBefore(kept, second!)).toBe(true)
    expect(within(kept).queryByTestId('reply-error-action')).toBeNull()
    expect(messageOrder()).toHaveLength(3)
  })

  it('places an error that arrives before the send answers under that send', async () => {
    const user = await renderApp()
    modelAnswers()
    const release = backend.holdAnswer('messages:send')
    await user.type(screen.getByTestId('composer-input'), 'Quick fail{Enter}')
    act(() =>
      backend.emit('chat:error', {
        threadId,
        streamId: 'stream-1',
        error: { kind: 'network', message: 'ECONNREFUSED' },
        message: null
      })
    )
    release()
    await waitFor(() =>
      expect(screen.getByTestId('reply-error')).toHaveAttribute(
        'data-after-id',
        String(backend.messagesOf(threadId).at(-1)!.id)
      )
    )
    // The last turn's error still offers Retry, which replaces it.
    await user.click(screen.getByTestId('reply-error-action'))
    await waitFor(() => expect(screen.queryByTestId('reply-error')).toBeNull())
  })
})

describe('empty replies', () => {
  it('says the model sent nothing, offers Retry, and says so in Chinese too', async () => {
    const user = await renderApp()
    const streamId = await sendStreaming(user)
    const stored = backend.addReply(threadId, '', { status: 'empty', finishReason: 'stop' })
    act(() => backend.emit('chat:done', { threadId, streamId, message: stored }))
    const bubble = (await screen.findByTestId('empty-reply')).closest('article')!
    expect(bubble).toHaveAttribute('data-reply-status', 'empty')
    expect(within(bubble).getByTestId('reply-status')).toHaveTextContent('empty reply')
    expect(bubble).toHaveTextContent('The model finished without sending any text.')
    expect(bubble).toHaveTextContent('never sent back to the model')

    await act(() => i18n.changeLanguage('zh-CN'))
    expect(bubble).toHaveTextContent('模型结束了回复，但没有发送任何文字。')
    expect(within(bubble).getByTestId('empty-reply-retry')).toHaveTextContent('重试')
    await act(() => i18n.changeLanguage('en'))

    await user.click(within(bubble).getByTestId('empty-reply-retry'))
    expect(channels()).toContain('chat:regenerate')
    expect(await screen.findByTestId('streaming-reply')).toBeInTheDocument()
  })

  it('explains an empty reply cut by the output limit', async () => {
    backend.addMessages(threadId, ['Think hard'])
    backend.addReply(threadId, '', { status: 'empty', finishReason: 'length' })
    await renderApp()
    expect(await screen.findByTestId('empty-reply')).toHaveTextContent(
      'used its whole output limit'
    )
  })
})

describe('without a provider', () => {
  it('makes the no-model notice actionable and mentions a running Ollama', async () => {
    backend.ollama = {
      found: true,
      baseUrl: 'http://127.0.0.1:11434',
      models: [
        { name: 'llama3.2', sizeBytes: null, family: null, parameterSize: null, quantization: null }
      ]
    }
    const user = await renderApp()
    await user.type(screen.getByTestId('composer-input'), 'Anyone?{Enter}')
    expect(await screen.findByTestId('notice-ollama')).toHaveTextContent('Ollama')
    await user.click(screen.getByTestId('notice-no-model-action'))
    const dialog = await screen.findByTestId('provider-settings')
    await user.click(within(dialog).getByTestId('provider-detect-ollama'))
    await user.click(await within(dialog).findByTestId('ollama-add'))
    expect(within(dialog).getByTestId('provider-kind')).toHaveValue('ollama')
    expect(within(dialog).getByTestId('provider-model-id')).toHaveValue('llama3.2')
  })
})

describe('provider settings', () => {
  it('adds a provider with a write-only key, tests it, and its first model becomes the default', async () => {
    const user = await renderApp()
    await user.click(screen.getByTestId('open-provider-settings'))
    const dialog = await screen.findByTestId('provider-settings')
    await user.selectOptions(within(dialog).getByTestId('provider-kind'), 'openai-compatible')
    await user.type(within(dialog).getByTestId('provider-name'), 'Local')
    await user.type(within(dialog).getByTestId('provider-base-url'), 'http://127.0.0.1:9/v1')
    await user.type(within(dialog).getByTestId('provider-api-key'), 'sk-secret-1234')
    await user.click(within(dialog).getByTestId('provider-model-add'))
    await user.type(within(dialog).getByTestId('provider-model-id'), 'm1')
    await user.type(within(dialog).getByTestId('provider-model-window'), '32000')
    await user.type(within(dialog).getByTestId('provider-model-max-output'), '1000')

    await user.click(within(dialog).getByTestId('provider-test'))
    expect(await within(dialog).findByTestId('provider-test-result')).toHaveAttribute(
      'data-ok',
      'true'
    )
    const tested = backend.calls.find((call) => call.channel === 'providers:test')!
    expect(tested.input).toMatchObject({
      draft: { baseUrl: 'http://127.0.0.1:9/v1' },
      modelId: 'm1'
    })

    await user.click(within(dialog).getByTestId('provider-save'))
    expect(await within(dialog).findByTestId('provider-saved')).toBeInTheDocument()
    expect(backend.providers).toHaveLength(1)
    expect(backend.providers[0]!.models[0]).toMatchObject({
      id: 'm1',
      contextWindow: 32000,
      maxOutput: 1000
    })
    // The key field stays empty; only the hint comes back.
    expect(within(dialog).getByTestId('provider-api-key')).toHaveValue('')
    expect(within(dialog).getByTestId('provider-api-key')).toHaveAttribute(
      'placeholder',
      expect.stringContaining('…1234')
    )

    // The first model added is the default without being chosen.
    const id = backend.providers[0]!.id
    expect(backend.settings.defaultModel).toEqual({ providerId: id, modelId: 'm1' })
    await waitFor(() =>
      expect(within(dialog).getByTestId('default-model-select')).toHaveValue(`${id}\u0000m1`)
    )

    // Removing it clears the form, the default model and the "Saved" note about it.
    await user.click(within(dialog).getByTestId('provider-remove'))
    await waitFor(() => expect(backend.providers).toHaveLength(0))
    expect(within(dialog).getByTestId('provider-name')).toHaveValue('')
    expect(within(dialog).queryByTestId('provider-saved')).toBeNull()
    await waitFor(() => expect(backend.settings.defaultModel).toBeNull())
  })

  it("lists a saved provider's models, or shows its typed error in its own words", async () => {
    const saved = backend.addProvider({
      kind: 'openai',
      name: 'OpenAI',
      models: [{ id: 'gpt-4o-mini', contextWindow: 128_000, maxOutput: 16_384 }],
      apiKey: 'sk-test-abcd'
    })
    const user = await renderApp()
    await user.click(screen.getByTestId('open-provider-settings'))
    const dialog = await screen.findByTestId('provider-settings')
    await user.click(await within(dialog).findByTestId('provider-item'))
    backend.failNext('providers:listRemoteModels', {
      code: 'provider_error',
      message: 'Incorrect API key provided: sk-wr***.',
      provider: { kind: 'auth', message: 'Incorrect API key provided: sk-wr***.', status: 401 }
    })
    await user.click(within(dialog).getByTestId('provider-fetch-models'))
    const status = await within(dialog).findByTestId('provider-remote-models')
    expect(status).toHaveAttribute('data-ok', 'false')
    expect(status).toHaveAttribute('data-kind', 'auth')
    expect(status).toHaveTextContent(
      'Could not list the models: the provider refused the API key (Incorrect API key provided: sk-wr***.) (HTTP 401)'
    )
    expect(backend.calls.find((c) => c.channel === 'providers:listRemoteModels')?.input).toEqual({
      id: saved.id
    })
    await user.click(within(dialog).getByTestId('provider-fetch-models'))
    await waitFor(() =>
      expect(within(dialog).getByTestId('provider-remote-models')).toHaveAttribute(
        'data-ok',
        'true'
      )
    )
  })

  it('prefills a well-known model from the catalog and explains when keys cannot be stored', async () => {
    backend.encryptionAvailable = false
    const user = await renderApp()
    await user.click(screen.getByTestId('open-provider-settings'))
    const dialog = await screen.findByTestId('provider-settings')
    expect(await within(dialog).findByTestId('encryption-unavailable')).toBeInTheDocument()
    expect(within(dialog).getByTestId('provider-api-key')).toBeDisabled()
    await user.selectOptions(within(dialog).getByTestId('provider-kind'), 'openai')
    await user.click(within(dialog).getByTestId('provider-model-add'))
    await user.type(within(dialog).getByTestId('provider-model-id'), 'gpt-4o-mini')
    expect(within(dialog).getByTestId('provider-model-window')).toHaveValue('128000')
    expect(within(dialog).getByTestId('provider-model-max-output')).toHaveValue('16384')
  })

  it('chooses the model per thread in the chat header', async () => {
    const { id } = backend.addProvider({
      kind: 'openai-compatible',
      name: 'Local',
      baseUrl: 'http://127.0.0.1:9/v1',
      models: [{ id: 'm1', contextWindow: 8000, maxOutput: 500 }]
    })
    const user = await renderApp()
    const select = screen.getByTestId('thread-model-select')
    await waitFor(() => expect(within(select).getAllByRole('option')).toHaveLength(2))
    await user.selectOptions(select, `${id}\u0000m1`)
    const call = backend.calls.find((entry) => entry.channel === 'threads:setModel')
    expect(call?.input).toEqual({ threadId, providerId: id, modelId: 'm1' })
  })

  it('keeps the newest model choice when an earlier one fails after it', async () => {
    const { id } = backend.addProvider({
      kind: 'openai-compatible',
      name: 'Local',
      baseUrl: 'http://127.0.0.1:9/v1',
      models: [
        { id: 'm1', contextWindow: 8000, maxOutput: 500 },
        { id: 'm2', contextWindow: 8000, maxOutput: 500 }
      ]
    })
    const user = await renderApp()
    const select = screen.getByTestId('thread-model-select')
    await waitFor(() => expect(within(select).getAllByRole('option')).toHaveLength(3))
    // The first choice fails, but its answer arrives only after the second choice succeeded.
    backend.failNext('threads:setModel', { code: 'storage_error', message: 'Could not save' })
    const releaseFirst = backend.holdAnswer('threads:setModel')
    await user.selectOptions(select, `${id}\u0000m1`)
    await user.selectOptions(select, `${id}\u0000m2`)
    await waitFor(() => expect(select).toHaveValue(`${id}\u0000m2`))
    releaseFirst()
    await allAnswered(backend, 'threads:setModel')
    expect(select).toHaveValue(`${id}\u0000m2`)
    // The stale failure is not reported against the choice that succeeded.
    expect(select.closest('label')?.getAttribute('title')).not.toMatch(/Could not save/)
  })
})

describe('regenerate, edit and resend, usage and summary', () => {
  it('regenerates the last reply and dims a superseded one', async () => {
    backend.addMessages(threadId, ['Question'])
    const old = backend.addReply(threadId, 'Old answer')
    backend.supersede(old.id, backend.addReply(threadId, 'New answer').id)
    modelAnswers()
    const user = await renderApp()
    // The replaced reply is the earlier version of the one that replaced it.
    await user.click(await screen.findByRole('button', { name: 'Previous version' }))
    const superseded = screen
      .getAllByTestId('message')
      .find((element) => element.textContent?.includes('Old answer'))!
    expect(superseded).toHaveAttribute('data-superseded', 'true')
    expect(within(superseded).queryByTestId('regenerate')).toBeNull()
    await user.click(screen.getByRole('button', { name: 'Next version' }))
    await user.click(screen.getByTestId('regenerate'))
    expect(channels()).toContain('chat:regenerate')
    expect(await screen.findByTestId('streaming-reply')).toBeInTheDocument()
  })

  it('shows a regenerated reply once, with ‹ n/m › to its earlier versions', async () => {
    backend.addMessages(threadId, ['Question'])
    const first = backend.addReply(threadId, 'First answer')
    const second = backend.addReply(threadId, 'Second answer')
    const third = backend.addReply(threadId, 'Third answer')
    backend.supersede(first.id, second.id)
    backend.supersede(second.id, third.id)
    const user = await renderApp()
    const replies = () =>
      screen.getAllByTestId('message').filter((m) => m.dataset.role === 'assistant')
    await waitFor(() => expect(replies()).toHaveLength(1))
    expect(replies()[0]).toHaveTextContent('Third answer')
    expect(screen.getByTestId('version-position')).toHaveTextContent('3 / 3')
    expect(screen.getByTestId('version-next')).toBeDisabled()

    await user.click(screen.getByRole('button', { name: 'Previous version' }))
    await user.click(screen.getByRole('button', { name: 'Previous version' }))
    expect(replies()[0]).toHaveTextContent('First answer')
    expect(replies()[0]).toHaveAttribute('data-superseded', 'true')
    expect(screen.getByTestId('version-position')).toHaveTextContent('1 / 3')
    // Only the current version can be regenerated.
    expect(screen.queryByTestId('regenerate')).toBeNull()
    await user.click(screen.getByRole('button', { name: 'Next version' }))
    await user.click(screen.getByRole('button', { name: 'Next version' }))
    expect(replies()[0]).toHaveTextContent('Third answer')
    expect(screen.getByTestId('regenerate')).toBeInTheDocument()
  })

  it('edits a message inline and resends it; the turn shows once, with ‹ n/m › to the one before', async () => {
    const [question] = backend.addMessages(threadId, ['Typo questoin'])
    backend.addReply(threadId, 'Answer to the typo')
    const user = await renderApp()
    await user.click(screen.getByTestId('message-edit'))
    const input = screen.getByTestId('message-edit-input')
    await user.clear(input)
    await user.type(input, 'Fixed question')
    await user.click(screen.getByTestId('message-edit-save'))
    expect(backend.calls.find((call) => call.channel === 'messages:editResend')?.input).toEqual({
      id: question!.id,
      content: 'Fixed question'
    })
    await waitFor(() => expect(screen.queryByTestId('message-edit-input')).toBeNull())

    // One turn on screen, the edit, with the earlier version behind the switcher.
    const texts = () => screen.getAllByTestId('message').map((m) => m.textContent ?? '')
    await waitFor(() => expect(screen.getByTestId('version-position')).toHaveTextContent('2 / 2'))
    expect(texts()).toHaveLength(1)
    expect(texts()[0]).toContain('Fixed question')
    expect(screen.queryByText('not sent')).toBeNull()
    expect(screen.getByRole('group', { name: 'Versions of this message' })).toBeInTheDocument()

    // The earlier version: the question as first asked and its answer, kept and labelled.
    await user.click(screen.getByRole('button', { name: 'Previous version' }))
    expect(screen.getByTestId('version-position')).toHaveTextContent('1 / 2')
    expect(texts()).toHaveLength(2)
    expect(texts()[0]).toContain('Typo questoin')
    expect(texts()[1]).toContain('Answer to the typo')
    expect(screen.getAllByTestId('earlier-version-label')).toHaveLength(2)
    expect(screen.queryByText('not sent')).toBeNull()
    expect(screen.queryByTestId('message-edit')).toBeNull()

    await user.click(screen.getByRole('button', { name: 'Next version' }))
    expect(texts()).toEqual([expect.stringContaining('Fixed question')])
    expect(screen.getByTestId('message-edit')).toBeInTheDocument()
  })

  it('shows the thread totals in the header', async () => {
    backend.addMessages(threadId, ['Question'])
    backend.addReply(threadId, 'Answer', {
      usage: { promptTokens: 1000, completionTokens: 234, cacheReadTokens: 0, cacheWriteTokens: 0 },
      cost: 0.5
    })
    await renderApp()
    expect(await screen.findByTestId('thread-usage')).toHaveTextContent('1,234 tokens · $0.50')
  })

  it('shows the thread summary in the inspector and saves an edit', async () => {
    backend.setSummary({
      threadId,
      content: 'Goal: ship the chat.',
      lastMessageSeq: 12,
      version: 3,
      source: 'fallback',
      updatedAt: 0
    })
    const user = await renderApp()
    expect(await screen.findByTestId('thread-summary-content')).toHaveTextContent(
      'Goal: ship the chat.'
    )
    expect(screen.getByTestId('thread-summary-meta')).toHaveTextContent(
      'covers up to message #12 · v3 · written without a model'
    )
    await user.click(screen.getByTestId('thread-summary-edit'))
    const input = screen.getByTestId('thread-summary-input')
    await user.clear(input)
    await user.type(input, 'Goal: ship it today.')
    await user.click(screen.getByTestId('thread-summary-save'))
    expect(await screen.findByTestId('thread-summary-meta')).toHaveTextContent('v4 · edited by you')
    expect(backend.summaryOf(threadId)?.content).toBe('Goal: ship it today.')

    act(() =>
      backend.emit('summary:changed', {
        threadId,
        content: 'Updated by the model',
        lastMessageSeq: 20,
        version: 5,
        source: 'model',
        updatedAt: 1
      })
    )
    expect(await screen.findByTestId('thread-summary-content')).toHaveTextContent(
      'Updated by the model'
    )
  })

  it('keeps a summary stored while the first read of it was on its way', async () => {
    backend.setSummary({
      threadId,
      content: 'Goal: the old summary.',
      lastMessageSeq: 4,
      version: 1,
      source: 'model',
      updatedAt: 0
    })
    const releaseRead = backend.holdAnswer('summary:get')
    await renderApp()
    await waitFor(() => expect(channels()).toContain('summary:get'))
    act(() =>
      backend.emit('summary:changed', {
        threadId,
        content: 'Goal: the new summary.',
        lastMessageSeq: 9,
        version: 2,
        source: 'model',
        updatedAt: 1
      })
    )
    expect(await screen.findByTestId('thread-summary-content')).toHaveTextContent(
      'Goal: the new summary.'
    )

    await act(async () => {
      releaseRead()
      await allAnswered(backend, 'summary:get')
    })
    expect(screen.getByTestId('thread-summary-content')).toHaveTextContent('Goal: the new summary.')
  })
})
