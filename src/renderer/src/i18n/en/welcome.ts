export const welcome = {
  title: 'Welcome to Context Lens',
  body: 'A chat assistant that shows you exactly what the model sees: every message, memory and file it is sent, what each costs, and why anything was left out.',
  needsProvider:
    'To get replies, add a model provider: an API key for OpenAI or Anthropic, or a server on your computer (Ollama, LM Studio, vLLM).',
  addProvider: 'Add a model provider',
  ollamaFound_one:
    'Ollama is running on this computer with {{count}} model: it will be set up for you.',
  ollamaFound_other:
    'Ollama is running on this computer with {{count}} models: they will be set up for you.',
  kindsLabel: 'Or start with:',
  localFirst: 'Your conversations stay on this computer; only what you send goes to the provider.'
}
