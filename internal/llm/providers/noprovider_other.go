//go:build !windows

package providers

const noProviderText = `no model provider configured. Set one of:
  OPENAI_API_KEY=sk-...            (OpenAI; add OPENAI_BASE_URL=http://localhost:11434/v1 for a local server)
  ANTHROPIC_API_KEY=...
  GEMINI_API_KEY=...
  AZURE_OPENAI_API_KEY=... and AZURE_OPENAI_ENDPOINT=https://NAME.openai.azure.com
or add "providers" to ~/.config/nb/config.json (see README)`
