export const fork = {
  action: 'Branch from here',
  hint: 'A new thread with the conversation up to and including this message; what came after stays in this thread only.',
  failed: 'Could not branch: {{reason}}',
  from: 'Branched from “{{title}}”',
  openOrigin: 'Open “{{title}}” at message #{{seq}}'
}
