package cmdbase

// portable are programs that behave on Windows as on Unix; the bash
// analysis knows their subcommands and options. (Names whose Windows
// program differs — find, sort, more, where, tree, hostname, timeout,
// date — are not here.)
var portable = map[string]bool{
	"git": true, "gh": true, "go": true, "gofmt": true, "cargo": true, "rustc": true, "rustup": true,
	"node": true, "npm": true, "npx": true, "pnpm": true, "yarn": true, "deno": true, "bun": true,
	"python": true, "python3": true, "py": true, "pip": true, "pip3": true, "uv": true, "poetry": true,
	"docker": true, "kubectl": true, "helm": true, "terraform": true, "az": true, "aws": true, "gcloud": true,
	"rg": true, "jq": true, "yq": true, "fd": true, "bat": true, "curl": true, "ssh": true, "scp": true,
	"tar": true, "make": true, "cmake": true, "gcc": true, "g++": true, "clang": true, "java": true,
	"javac": true, "mvn": true, "gradle": true, "dotnet": true, "code": true, "cat": true, "ls": true,
	"grep": true, "head": true, "tail": true, "wc": true, "diff": true, "sed": true, "awk": true,
	// Git Bash and MSYS2: bash -c is analysed as bash
	"bash": true, "sh": true,
}
