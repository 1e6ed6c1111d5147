package providers

// Windows users set variables with set (cmd.exe) or $env: (PowerShell),
// and nb reads its configuration from %APPDATA%.
const noProviderText = noProviderBase + `
for example: set OPENAI_API_KEY=sk-...  or  $env:OPENAI_API_KEY="sk-..."`

// usualConfigFile is how the message names the configuration file when it
// is not told which one nb reads.
const usualConfigFile = `%APPDATA%\nb\config.json`
