export const threadStats = {
  /** The row's visible figure: tokens of the newest build. */
  total: '{{tokens}} tokens',
  barLabel: 'Last request {{used}} of {{budget}} tokens ({{percent}} %)',
  noBuild: 'Nothing sent yet',
  details: 'Context of “{{title}}”',
  lastBuild: 'Last request, {{time}}: {{used}} of {{budget}} tokens ({{percent}} %)',
  section: '{{section}}: {{used}}',
  cost: 'Cost so far: ${{cost}}',
  costPartial: 'Cost so far: ${{cost}} (+{{count}} replies without a price)',
  costNone: 'Cost so far: none recorded',
  summaryAt: 'Summary last updated {{time}}',
  summaryNever: 'No summary yet',
  sortLabel: 'Order threads',
  sort: {
    recent: 'Recent activity',
    fullest: 'Fullest context',
    cost: 'Most expensive'
  },
  filtered_one: 'Showing {{shown}} of {{total}} thread (those with data).',
  filtered_other: 'Showing {{shown}} of {{total}} threads (those with data).'
}
