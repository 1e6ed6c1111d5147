// Package uitest holds nb's end-to-end terminal tests: the real nb binary
// runs in a PTY against a scripted model server (llmtest), its output is
// fed to a virtual terminal (render/screentest), and the tests assert on
// the rendered screen as a user would see it, while typing keys like one.
package uitest
