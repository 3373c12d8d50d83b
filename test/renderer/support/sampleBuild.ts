/**
 * A hand-written build with one of everything the inspector shows: every section, every
 * decision, memories, a note, collapsed ranges and warnings. Numbers are large enough to need
 * thousands separators.
 */
import type { BuiltContext } from '@shared/context'

export function sampleBuild(): BuiltContext {
  return {
    messages: [
      { role: 'system', content: 'You are Context Lens.' },
      {
        role: 'system',
        content: '[Summary of the conversation up to message #9,800]\nCSV import.'
      },
      { role: 'user', content: 'Please read  src/a.ts\n\n  twice' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'call_1', name: 'read_file', arguments: '{"path":"src/a.ts"}' }]
      },
      { role: 'tool', content: 'export const a = 1\n', toolCallId: 'call_1' },
      { role: 'user', content: 'Write a test for 1.234,56' }
    ],
    tools: [],
    tokenStats: {
      sections: {
        system: { share: 22_323, budget: 22_323, used: 12, items: 1 },
        summary: { share: 11_161, budget: 11_161, used: 1_200, items: 1 },
        retrieved: { share: 11_161, budget: 11_500, used: 24, items: 1 },
        recent: { share: 61_388, budget: 70_000, used: 61_000, items: 3 },
        input: { share: 5_580, budget: 5_580, used: 14, items: 1 },
        pinning: { share: 0, budget: 48, used: 48, items: 1 },
        attachments: { share: 0, budget: 0, used: 0, items: 0 },
        tools: { share: 0, budget: 0, used: 0, items: 0 }
      },
      total: 62_298,
      budget: 111_616,
      contextWindow: 128_000,
      outputReserve: 16_384
    },
    metadata: {
      engine: 'builder',
      model: 'gpt-4o',
      encoding: 'o200k_base',
      includedMessageCount: 3,
      droppedMessageCount: 9_801,
      summarizedMessageCount: 9_800,
      usedSummary: true,
      retrievedMemoryCount: 1,
      warnings: [
        {
          code: 'summary_truncated',
          message: 'The summary needs 1,300 tokens; it was cut to 1,200.'
        },
        // A code a newer main might send: the English message is shown as it is.
        { code: 'brand_new_code' as 'upstream', message: 'Something new happened.' }
      ]
    },
    trace: [
      { id: 'system', kind: 'system', section: 'system', tokens: 12, decision: 'included' },
      {
        id: 'summary',
        kind: 'summary',
        section: 'summary',
        tokens: 1_200,
        decision: 'included',
        note: 'truncated from 1300 tokens'
      },
      {
        id: 'm1',
        kind: 'memory',
        section: 'retrieved',
        tokens: 24,
        decision: 'included',
        score: 0.8123,
        source: 'memory',
        preview: 'The user prefers pnpm over npm.'
      },
      {
        id: 'm2',
        kind: 'memory',
        section: 'retrieved',
        tokens: 19,
        decision: 'duplicate',
        score: 0.5,
        source: 'message',
        preview: 'Please read src/a.ts'
      },
      {
        id: '9801',
        kind: 'message',
        section: 'recent',
        tokens: 30,
        decision: 'dropped_budget',
        seq: 9_801,
        role: 'user'
      },
      {
        id: '9802',
        kind: 'message',
        section: 'recent',
        tokens: 20,
        decision: 'excluded_by_user',
        seq: 9_802,
        role: 'user'
      },
      {
        id: '9803',
        kind: 'message',
        section: 'recent',
        tokens: 18,
        decision: 'pinned',
        seq: 9_803,
        role: 'user'
      },
      {
        id: '9804',
        kind: 'message',
        section: 'recent',
        tokens: 25,
        decision: 'included',
        seq: 9_804,
        role: 'assistant',
        note: 'tool-call group of 2'
      },
      {
        id: '9805',
        kind: 'message',
        section: 'recent',
        tokens: 60_927,
        decision: 'included',
        seq: 9_805,
        role: 'tool'
      },
      { id: 'input', kind: 'input', section: 'input', tokens: 14, decision: 'included' },
      { id: 'pinning', kind: 'pinning', section: 'pinning', tokens: 48, decision: 'included' }
    ],
    collapsed: [{ decision: 'covered_by_summary', fromSeq: 1, toSeq: 9_800, count: 9_800 }],
    window: { policy: 'chunked', firstKeptSeq: 9_801, stablePrefixMessages: 2 }
  }
}
