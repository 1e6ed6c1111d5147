//go:build !windows

package providers

const noProviderText = noProviderBase

// usualConfigFile is how the message names the configuration file when it
// is not told which one nb reads.
const usualConfigFile = "~/.config/nb/config.json"
