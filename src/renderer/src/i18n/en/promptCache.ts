export const promptCache = {
  label: 'Prompt cache (Anthropic)',
  option5m: '5 minutes (default)',
  option1h: '1 hour',
  explain:
    'Applies to Anthropic models only: the start of each request is cached so the next one within this time reads it at a tenth of the input price. Writing a 1-hour cache costs 2× the input price instead of 1.25×, so choose it for long pauses between messages. Costs shown in the app assume 5-minute writes.'
}
