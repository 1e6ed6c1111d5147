package providers

// Windows users set variables with set (cmd.exe) or $env: (PowerShell),
// and nb reads its configuration from %APPDATA%.
const noProviderText = `no model provider configured. Set one of:
  OPENAI_BASE_URL=http://localhost:11434/v1  a local server (Ollama, llama.cpp,
                                             vLLM, LM Studio): no key needed
  OPENAI_API_KEY=sk-...                      OpenAI
  ANTHROPIC_API_KEY=...                      Anthropic
  GEMINI_API_KEY=...                         Gemini (GOOGLE_API_KEY works too)
  AZURE_OPENAI_API_KEY=...                   Azure OpenAI, with
  AZURE_OPENAI_ENDPOINT=https://NAME.openai.azure.com
for example: set OPENAI_API_KEY=sk-...  or  $env:OPENAI_API_KEY="sk-..."`

// usualConfigFile is how the message names the configuration file when it
// is not told which one nb reads.
const usualConfigFile = `%APPDATA%\nb\config.json`
