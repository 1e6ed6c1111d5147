package cli

// configDir is where the help says the configuration lives: Windows reads
// %APPDATA%\nb (see config.DefaultPath).
const configDir = `%APPDATA%\nb\`
