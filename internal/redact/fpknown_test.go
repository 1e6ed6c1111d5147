package redact

import (
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// aHome is what a developer's machine holds in the places nb reads for
// fingerprints: credential files of the usual tools, a shell history, a
// key, a project's .env. Every value is made up.
func aHome(t testing.TB) []File {
	files := map[string]string{
		".aws/credentials": "[default]\naws_access_key_id = AKIA" + canary("", upper2, 16, 201) +
			"\naws_secret_access_key = " + canary("", b64, 40, 202) + "\n\n[work]\naws_access_key_id = AKIA" + canary("", upper2, 16, 203) +
			"\naws_secret_access_key = " + canary("", b64, 40, 204) + "\nregion = eu-central-1\n",
		".aws/config": "[default]\nregion = us-east-1\noutput = json\n\n[profile work]\nregion = eu-central-1\nsso_start_url = https://example.awsapps.com/start\n",
		".netrc": "machine github.com login octocat password " + canary("ghp_", alnum, 36, 205) +
			"\nmachine ftp.example.org\n  login anonymous\n  password guest42\n",
		".pgpass": "localhost:5432:app:app:" + canary("", alnum, 14, 206) + "\n*:*:*:postgres:devpass\n",
		".docker/config.json": `{"auths": {"https://index.docker.io/v1/": {"auth": "` + base64.StdEncoding.EncodeToString([]byte("octocat:"+canary("", alnum, 16, 207))) +
			`"}}, "credsStore": "desktop", "currentContext": "default"}` + "\n",
		".npmrc":               "//registry.npmjs.org/:_authToken=npm_" + canary("", alnum, 36, 208) + "\nalways-auth=true\nsave-exact=true\n",
		".config/gh/hosts.yml": "github.com:\n    user: octocat\n    oauth_token: " + canary("gho_", alnum, 36, 209) + "\n    git_protocol: https\n",
		".git-credentials":     "https://octocat:" + canary("ghp_", alnum, 36, 210) + "@github.com\n",
		".bash_history": strings.Join([]string{"ls -la", "cd ~/src/project", "git status", "git log --oneline -5", "go test ./...",
			"export GITHUB_TOKEN=" + canary("ghp_", alnum, 36, 211), "docker compose up -d", "psql -h localhost -U app app",
			"echo token expired", "grep -rn password config/", "export PGPASSWORD=s3cret!", "make build", "kubectl get pods -A",
			"ssh-keygen -t ed25519 -C me@example.com", "curl -s https://api.example.com/v1/health", "vim ~/.ssh/config",
			"mysql -u root -p", "history | grep ssh", "export API_KEY=" + canary("", alnum, 32, 212), "npm install", "python3 -m venv .venv",
		}, "\n") + "\n",
		".ssh/id_ed25519": "-----BEGIN OPENSSH PRIVATE KEY-----\n" + canary("b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ", b64, 28, 213) + "\n" +
			canary("", b64, 70, 214) + "\n" + canary("", b64, 70, 215) + "\n" + canary("", b64, 70, 216) + "\n" + canary("", b64, 24, 217) + "\n-----END OPENSSH PRIVATE KEY-----\n",
		".ssh/config":      "Host github.com\n  User git\n  IdentityFile ~/.ssh/id_ed25519\n\nHost build\n  HostName 10.0.0.12\n  User deploy\n",
		".ssh/known_hosts": "github.com ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl\n",
		"project/.env": "DATABASE_URL=postgres://app:" + canary("", alnum, 16, 218) + "@localhost:5432/app\nSECRET_KEY=" + canary("", alnum+"-_", 50, 219) +
			"\nDEBUG=true\nPORT=8080\nREDIS_URL=redis://localhost:6379/0\nSTRIPE_KEY=sk_test_" + canary("", alnum, 24, 220) + "\nADMIN_PASSWORD=changeme123\n",
	}
	return writeFiles(t, t.TempDir(), files)
}

// writeFiles writes files (by their paths below dir) and returns them
// as secret files labelled ~/path.
func writeFiles(t testing.TB, dir string, files map[string]string) []File {
	var out []File
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		out = append(out, File{Path: p, Label: "~/" + name})
	}
	return out
}

// anEnvironment is the secret variables of such a machine.
func anEnvironment() []Value {
	return []Value{
		{Kind: "$GITHUB_TOKEN", Value: canary("ghp_", alnum, 36, 211)},
		{Kind: "$OPENAI_API_KEY", Value: canary("sk-proj-", alnum+"-_", 48, 230)},
		{Kind: "$AWS_SECRET_ACCESS_KEY", Value: canary("", b64, 40, 202)},
		{Kind: "$ANTHROPIC_API_KEY", Value: canary("sk-ant-api03-", alnum+"-_", 40, 231)},
		{Kind: "$SLACK_WEBHOOK", Value: "https://hooks.slack.com/services/T0" + canary("", upper2, 8, 232) + "/B0" + canary("", upper2, 8, 233) + "/" + canary("", alnum, 24, 234)},
	}
}

// TestFalsePositivesKnownSecrets: the same real outputs as
// TestFalsePositives, with a machine's known secrets loaded (every
// spelling of them searched for), touch no more than the same share; and
// the secrets themselves, spelled in a few of those ways, are found.
func TestFalsePositivesKnownSecrets(t *testing.T) {
	outs := recordedOutputs(t)
	files := aHome(t)
	d := New(Options{Values: anEnvironment, Files: func() []File { return files }})
	gh := canary("ghp_", alnum, 36, 211)
	for _, spelled := range []string{gh, base64.StdEncoding.EncodeToString([]byte("x" + gh)), strings.ToUpper(hex.EncodeToString([]byte(gh))), "devpass", "guest42", "s3cret!"} {
		if res := d.Redact("output: "+spelled+"\n", nil); len(res.Found) == 0 {
			t.Errorf("%s: not found", spelled)
		}
	}
	d.Warm()
	checkTouched(t, d, outs, fmt.Sprintf(", %d values in %d spellings", len(d.known.kinds), len(d.known.forms)))
}
