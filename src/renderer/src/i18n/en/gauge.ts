export const gauge = {
  recalled:
    'Recalled: {{memories}} from memories, {{thisThread}} from earlier in this thread, {{otherThreads}} from other threads',
  free: '{{tokens}} tokens of the budget left free',
  label: 'Context',
  /** The button: what the gauge shows, for screen readers. */
  buttonLabel: 'Context of the {{source}}: {{used}} of {{budget}} tokens. Open the details.',
  usage: '{{used}} / {{budget}}',
  window: '{{window}} window',
  source: {
    draft: 'draft preview',
    sent: 'last sent request',
    next: 'next request'
  },
  heading: {
    draft: 'Your draft, if sent now',
    sent: 'Last sent request · {{time}}',
    next: 'Next request (empty draft)'
  },
  totals: '{{used}} of {{budget}} tokens · window {{window}} · safety net at {{limit}} (85 %)',
  sectionRow: '{{used}} / {{budget}}',
  sectionItems_one: '{{n}} item',
  sectionItems_other: '{{n}} items',
  openSection: 'Open {{section}} in the inspector',
  openHint: 'Click a section to open it in the inspector.',
  notesLabel: 'About this request',
  summaryInUse_one: 'Summary in use: it stands for {{n}} older message.',
  summaryInUse_other: 'Summary in use: it stands for {{n}} older messages.',
  memoriesDropped_one: '{{n}} memory left out for lack of room.',
  memoriesDropped_other: '{{n}} memories left out for lack of room.',
  safetyNet: 'Safety net active: {{what}}',
  safetyNetShrunk: 'the request is rebuilt within 85 % of the window.',
  safetyNetTrimmed: 'only the beginning and end of the message are sent.',
  percent: '{{percent}} %',
  attachDraft: 'Attach as a file',
  attachDraftHint:
    'Your draft is larger than the input’s share. As a file attached to your message, only its most relevant parts are sent, and the inspector shows which.',
  pastedFileName: 'pasted-text.txt',
  nearBudget:
    '{{percent}} % of the budget used. Past the budget, older messages and memories give way first; at {{limit}} tokens (85 % of the window) the safety net rebuilds the request.',
  overBudget:
    'Over the budget ({{percent}} %): older messages and memories give way so your message is sent whole. {{left}} tokens are left before the safety net (85 % of the window) acts.',
  wouldShrink:
    'If sent now, this request is over 85 % of the window and is rebuilt within {{limit}} tokens: older messages and memories give way ({{dropped}} messages left out).',
  wouldTrim:
    'If sent now, your message does not fit the window: only its beginning and end ({{sent}} tokens) are sent; the full text is stored.'
}
