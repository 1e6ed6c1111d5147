package cmdbase_test

import (
	"testing"
)

// packagesExamples are the examples of safe_packages.go's table: each of its
// commands in a command that must be allowed and, where it has a form that
// is not read-only, in one that must ask.
var packagesExamples = []safeGroup{
	{"pacman's queries",
		[]string{"pacman -Q", "pacman -Qi bash", "pacman -Ql bash", "pacman -Qs ssl", "pacman -Qdtq", "pacman -Qo /usr/bin/ls",
			"pacman --query --info bash", "pacman -Qu"},
		[]string{"pacman -S x", "pacman -Syu", "pacman -R x", "pacman -Qy", "pacman -U x.pkg", "pacman -Q --dbpath /tmp x",
			"pacman -Fy", "pacman", "pacman -Q $X"}},

	{"linters that only report",
		[]string{"yamllint a.yaml", "yamllint -f parsable .", "yamllint --strict -c .yamllint ci/", "hadolint Dockerfile",
			"hadolint --ignore DL3008 -f json Dockerfile"},
		[]string{"yamllint ~/.kube/config", "yamllint --frob x", "yamllint $F", "hadolint ~/.docker/config.json",
			"hadolint --frob Dockerfile"}},

	{"npm's listings and dotnet's host",
		[]string{"npm ls", "npm ls --depth 0", "npm list --all --json", "npm root -g", "npm prefix", "npm run", "npm -v", "dotnet --list-sdks", "dotnet --list-runtimes"},
		[]string{"npm install", "npm ls --frob", "npm view x", "npm config list", "npm run build", "npm run-script test", "npm ls $X", "dotnet --info", "dotnet build",
			"dotnet --list-sdks x"}},

	{"go and dpkg",
		[]string{
			"go version", "go env GOPATH", "go env -json GOOS GOARCH", "go help", "go help modules", "go mod edit -json",
			"go mod edit -print", "dpkg -l"},
		[]string{
			"go build ./...", "go env GOPROXY", "go run .", "go env", "go env -json", "go env -w GOPROXY=x",
			"go version -m ./bin/app", "go help -x", "go mod edit -go=1.22", "go mod edit -json -fmt", "go mod tidy",
			"go list ./...", "go doc fmt", "dpkg -i x.deb", "dpkg"}},
	{"binaries and metadata",
		[]string{
			"readelf -h /bin/ls", "readelf -Ws --dyn-syms /bin/ls", "readelf -x .text /bin/ls", "readelf -wi a.o",
			"objdump -d /bin/ls", "objdump -d -M intel --start-address=0x10 a.o", "objdump -h *.o", "nm -C a.o",
			"nm -D --defined-only /bin/ls", "size a.o", "size -A /bin/ls"},
		[]string{
			"nm --plugin ./evil.so a.o", "nm $X", "readelf -h ~/.ssh/id_rsa", "objdump -s .env", "nm ~/.gnupg/secring.gpg",
			"size --frob a", "nm @args.rsp", "objdump -d @list", "readelf -a -- @list", "size @x"}},
	{"status tools",
		[]string{
			"apt-mark showmanual", "apt-mark showhold"},
		[]string{
			"apt-mark hold bash", "apt-mark auto x", "apt-mark -f x showauto"}},
	{"packages",
		[]string{
			"dpkg -l", "dpkg -L bash", "dpkg -S /bin/ls", "dpkg -s bash", "dpkg-query -W", "dpkg-query -W -f '${Package}\\n'",
			"dpkg-query -l 'lib*'", "dpkg-query -S /usr/bin/ls", "apt-cache policy bash", "apt-cache show bash",
			"apt-cache search --names-only jq", "apt-cache depends --recurse bash", "apt list --installed",
			"apt list --upgradable", "apt show bash", "apt search jq", "rpm -qa", "rpm -qi bash", "rpm -ql bash",
			"rpm -qf /usr/bin/ls", "rpm -q --changelog bash", "rpm -qa --qf '%{NAME}\\n'", "pip show requests",
			"pip show -f requests", "pip freeze", "pip3 freeze --all", "pip check", "pip --version",
			"pip list --disable-pip-version-check", "pip3 list --no-index --format=json", "gem list", "gem list -l rails",
			"snap list", "flatpak list", "flatpak info org.x.Y"},
		[]string{
			"dpkg -i x.deb", "dpkg --purge bash", "dpkg-query --admindir=/tmp -l", "apt-cache gencaches",
			"apt-cache -o Dir::Cache=/tmp policy", "apt-cache -c x.conf policy", "apt install jq", "apt update",
			"apt list -o x=y", "rpm -i x.rpm", "rpm -e bash", "rpm -V bash", "rpm -qa --eval '%(id)'", "rpm -E '%(id)'",
			"rpm -qa --pipe sh", "rpm -D 'x y' -qa", "rpm -U x.rpm", "pip list", "pip3 list",
			// a package named by a URL is downloaded
			"rpm -qp https://example.com/x.rpm", "rpm -qpl ftp://example.com/x.rpm", "rpm -q --package http://x/y.rpm --scripts",
			"pip list --outdated --disable-pip-version-check", "pip install x", "pip download x", "pip freeze -r req.txt",
			"pip freeze -f https://x.example", "pip list -f x --disable-pip-version-check", "gem list --remote",
			"gem install x", "snap install x", "snap refresh", "flatpak install x", "flatpak update",
			"go list -m all"}},
	{"version and help",
		[]string{
			"go version"},
		[]string{
			"npm --version x"}},
}

func TestSafePackages(t *testing.T) { checkSafeExamples(t, packagesExamples) }
