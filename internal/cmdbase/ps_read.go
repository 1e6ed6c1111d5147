package cmdbase

import (
	"slices"
	"strings"
)

// PowerShell cmdlets that only read and print, with their aliases. By
// PowerShell's verb naming, Get, Select, Sort, Measure, Compare, Test,
// Resolve, Format, ConvertTo, ConvertFrom, Group, Join, Split and Out
// (to the host) change nothing; each cmdlet is still listed by name, since
// a module may define any Get-Thing.
// win32Product: asking for Win32_Product makes Windows Installer check
// every installed product and repair the ones it finds changed; asking
// for Win32_Environment shows every account's lasting environment
// variables, tokens among them.
var win32Product = []Opt{{Name: "win32_product", Does: Changes, Why: "Win32_Product makes Windows Installer check and repair every product"},
	{Name: "win32_environment", Does: Unknown, Why: "Win32_Environment shows the lasting environment variables, which may hold secrets"}}

var _ = register(func() []Spec {
	return []Spec{
		{Name: "Get-ChildItem", Aliases: []string{"ls", "dir", "gci"}, In: PowerShell, Does: Reads, Lists: true,
			Values: []string{"-Path", "-LiteralPath", "-Filter", "-Include", "-Exclude", "-Depth", "-Attributes"},
			Examples: Examples{
				Allow: []string{"Get-ChildItem", "Get-ChildItem -Recurse -Filter *.cs src", "gci -Force | Select-Object Name, Length",
					"ls src | Sort-Object LastWriteTime"},
				Ask:  []string{"Get-ChildItem Env:", "Get-ChildItem Env:*KEY*", "Get-ChildItem $env:USERPROFILE\\.ssh"},
				Warn: []string{"Get-ChildItem C:\\Windows\\Temp | Remove-Item -Recurse -Force", "gci *.log | Remove-Item"},
			}},
		{Name: "Get-Content", TextOut: true, Aliases: []string{"gc", "cat", "type"}, In: PowerShell, Does: Reads, Cat: CatRead, PipedPaths: true,
			Values: []string{"-Path", "-LiteralPath", "-TotalCount", "-Head", "-First", "-Tail", "-Last", "-ReadCount", "-Delimiter", "-Encoding", "-Filter", "-Include", "-Exclude", "-Stream"},
			Examples: Examples{
				Allow: []string{"Get-Content README.md", "Get-Content app.log -Tail 20", "gc package.json | ConvertFrom-Json",
					"(Get-Content a.txt | Measure-Object -Line).Lines"},
				Ask:  []string{"Get-Content .env", "Get-Content $env:USERPROFILE\\.aws\\credentials", "Get-Content $f"},
				Warn: []string{"Get-Content urls.txt | Remove-Item"},
			}},
		{Name: "Get-Item", Aliases: []string{"gi"}, In: PowerShell, Does: Reads, Lists: true, Values: []string{"-Path", "-LiteralPath", "-Filter", "-Include", "-Exclude", "-Stream"}},
		{Name: "Get-ItemProperty", Aliases: []string{"gp"}, In: PowerShell, Does: Reads, Values: []string{"-Path", "-LiteralPath", "-Name"}},
		{Name: "Get-ItemPropertyValue", Aliases: []string{"gpv"}, In: PowerShell, Does: Reads, Values: []string{"-Path", "-LiteralPath", "-Name"}},
		{Name: "Get-Location", Aliases: []string{"gl", "pwd"}, In: PowerShell, Does: Reads},
		{Name: "Get-Process", Remote: true, Args: TextArgs, Aliases: []string{"gps", "ps"}, In: PowerShell, Does: Reads, Values: []string{"-Name", "-Id", "-ComputerName"}},
		{Name: "Get-Service", Remote: true, Args: TextArgs, Aliases: []string{"gsv"}, In: PowerShell, Does: Reads, Values: []string{"-Name", "-DisplayName", "-Include", "-Exclude"}},
		{Name: "Get-Date", TextOut: true, Args: TextArgs, In: PowerShell, Does: Reads, Values: []string{"-Format", "-UFormat", "-Date"}},
		{Name: "Get-Host", Args: TextArgs, In: PowerShell, Does: Reads},
		{Name: "Get-Command", Args: TextArgs, Aliases: []string{"gcm"}, In: PowerShell, Does: Reads, Values: []string{"-Name", "-Module", "-CommandType", "-Verb", "-Noun"}},
		{Name: "Get-Help", Args: TextArgs, Aliases: []string{"help", "man"}, In: PowerShell, Does: Reads, Values: []string{"-Name", "-Parameter", "-Category"},
			Opts: []Opt{{Name: "-Online", Does: Runs, Why: "opens a web browser"}}},
		{Name: "Get-Member", Args: TextArgs, Aliases: []string{"gm"}, In: PowerShell, Does: Reads, Values: []string{"-Name", "-MemberType"}},
		{Name: "Get-Module", Remote: true, Args: TextArgs, Aliases: []string{"gmo"}, In: PowerShell, Does: Reads, Values: []string{"-Name"}},
		{Name: "Get-Alias", Args: TextArgs, Aliases: []string{"gal"}, In: PowerShell, Does: Reads, Values: []string{"-Name", "-Definition"}},
		{Name: "Get-PSDrive", Args: TextArgs, Aliases: []string{"gdr"}, In: PowerShell, Does: Reads},
		{Name: "Get-PSProvider", Args: TextArgs, In: PowerShell, Does: Reads},
		{Name: "Get-Culture", Args: TextArgs, In: PowerShell, Does: Reads},
		{Name: "Get-UICulture", Args: TextArgs, In: PowerShell, Does: Reads},
		{Name: "Get-Uptime", Args: TextArgs, In: PowerShell, Does: Reads},
		{Name: "Get-ComputerInfo", Args: TextArgs, In: PowerShell, Does: Reads},
		{Name: "Get-TimeZone", Args: TextArgs, In: PowerShell, Does: Reads},
		{Name: "Get-Random", Args: TextArgs, In: PowerShell, Does: Reads},
		{Name: "Get-Acl", In: PowerShell, Does: Reads, Values: []string{"-Path", "-LiteralPath"}},
		{Name: "Get-FileHash", In: PowerShell, Does: Reads, PipedPaths: true, Values: []string{"-Path", "-LiteralPath", "-Algorithm"}},
		{Name: "Get-Job", Args: TextArgs, Aliases: []string{"gjb"}, In: PowerShell, Does: Reads},
		{Name: "Get-EventLog", Remote: true, Args: TextArgs, In: PowerShell, Does: Reads, Values: []string{"-LogName", "-Newest", "-EntryType", "-Source"}},
		{Name: "Get-WinEvent", Remote: true, Args: TextArgs, In: PowerShell, Does: Reads, Values: []string{"-LogName", "-MaxEvents", "-ProviderName", "-FilterHashtable"}},
		{Name: "Get-CimInstance", Remote: true, Mentions: win32Product, Args: TextArgs, Aliases: []string{"gcim"}, In: PowerShell, Does: Reads, Values: []string{"-ClassName", "-Filter", "-Query", "-Namespace", "-Property"}},
		{Name: "Get-CimClass", Remote: true, Args: TextArgs, In: PowerShell, Does: Reads},
		{Name: "Get-WmiObject", Remote: true, Mentions: win32Product, Args: TextArgs, Aliases: []string{"gwmi"}, In: PowerShell, Does: Reads, Values: []string{"-Class", "-Filter", "-Query", "-Namespace", "-Property"}},
		{Name: "Get-NetIPAddress", Remote: true, Args: TextArgs, In: PowerShell, Does: Reads},
		{Name: "Get-NetIPConfiguration", Remote: true, Args: TextArgs, Aliases: []string{"gip"}, In: PowerShell, Does: Reads},
		{Name: "Get-NetAdapter", Remote: true, Args: TextArgs, In: PowerShell, Does: Reads},
		{Name: "Get-NetTCPConnection", Remote: true, Args: TextArgs, In: PowerShell, Does: Reads},
		{Name: "Get-NetUDPEndpoint", Remote: true, Args: TextArgs, In: PowerShell, Does: Reads},
		{Name: "Get-NetRoute", Remote: true, Args: TextArgs, In: PowerShell, Does: Reads},
		{Name: "Get-NetFirewallRule", Remote: true, Args: TextArgs, In: PowerShell, Does: Reads},
		{Name: "Get-NetFirewallProfile", Remote: true, Args: TextArgs, In: PowerShell, Does: Reads},
		{Name: "Get-DnsClientServerAddress", Remote: true, Args: TextArgs, In: PowerShell, Does: Reads},
		{Name: "Get-DnsClientCache", Remote: true, Args: TextArgs, In: PowerShell, Does: Reads},
		{Name: "Get-Disk", Remote: true, Args: TextArgs, In: PowerShell, Does: Reads},
		{Name: "Get-Volume", Remote: true, Args: TextArgs, In: PowerShell, Does: Reads},
		{Name: "Get-Partition", Remote: true, Args: TextArgs, In: PowerShell, Does: Reads},
		{Name: "Get-PhysicalDisk", Remote: true, Args: TextArgs, In: PowerShell, Does: Reads},
		{Name: "Get-PSReadLineOption", Args: TextArgs, In: PowerShell, Does: Reads},
		{Name: "Get-ExecutionPolicy", Args: TextArgs, In: PowerShell, Does: Reads},
		{Name: "Get-Package", Args: TextArgs, In: PowerShell, Does: Reads},
		{Name: "Get-InstalledModule", Args: TextArgs, In: PowerShell, Does: Reads},
		{Name: "Get-HotFix", Remote: true, Args: TextArgs, In: PowerShell, Does: Reads},
		{Name: "Get-WindowsFeature", Remote: true, Args: TextArgs, In: PowerShell, Does: Reads},
		{Name: "Get-PSSessionConfiguration", Args: TextArgs, In: PowerShell, Does: Reads},
		{Name: "Get-LocalUser", Args: TextArgs, In: PowerShell, Does: Reads},
		{Name: "Get-LocalGroup", Args: TextArgs, In: PowerShell, Does: Reads},
		{Name: "Get-LocalGroupMember", Args: TextArgs, In: PowerShell, Does: Reads},
		{Name: "Get-ScheduledTask", Remote: true, Args: TextArgs, In: PowerShell, Does: Reads},
		{Name: "Get-Printer", Remote: true, Args: TextArgs, In: PowerShell, Does: Reads},
		{Name: "Get-Counter", Remote: true, Args: TextArgs, In: PowerShell, Does: Reads},
		{Name: "Get-Verb", Args: TextArgs, In: PowerShell, Does: Reads},
		{Name: "Get-AppxPackage", Args: TextArgs, In: PowerShell, Does: Reads},
		{Name: "Get-SmbShare", Remote: true, Args: TextArgs, In: PowerShell, Does: Reads},
		{Name: "Get-Unique", PassThrough: true, Args: TextArgs, Aliases: []string{"gu"}, In: PowerShell, Does: Reads},
		{Name: "Get-TypeData", Args: TextArgs, In: PowerShell, Does: Reads},
		{Name: "Get-PackageProvider", Args: TextArgs, In: PowerShell, Does: Reads},
		{Name: "Get-PSRepository", Args: TextArgs, In: PowerShell, Does: Reads},
		{Name: "Get-WindowsOptionalFeature", Args: TextArgs, In: PowerShell, Does: Reads},
		{Name: "Get-StartApps", Args: TextArgs, In: PowerShell, Does: Reads},
		{Name: "Get-MpComputerStatus", Args: TextArgs, Remote: true, In: PowerShell, Does: Reads},
		{Name: "Get-MpPreference", Args: TextArgs, Remote: true, In: PowerShell, Does: Reads},
		{Name: "Get-Tpm", Args: TextArgs, In: PowerShell, Does: Reads},
		{Name: "Get-NetConnectionProfile", Args: TextArgs, Remote: true, In: PowerShell, Does: Reads},
		{Name: "Get-NetNeighbor", Args: TextArgs, Remote: true, In: PowerShell, Does: Reads},
		{Name: "Get-NetIPInterface", Args: TextArgs, Remote: true, In: PowerShell, Does: Reads},
		{Name: "Get-SmbConnection", Args: TextArgs, Remote: true, In: PowerShell, Does: Reads},
		{Name: "Get-WinSystemLocale", Args: TextArgs, In: PowerShell, Does: Reads},
		{Name: "Get-FormatData", Args: TextArgs, In: PowerShell, Does: Reads},
		// automatic variables alone on a line: they print the version, the
		// installation directory, the host, the process (winshell reads no
		// other variable as a command)
		{Name: "$PSVersionTable", Aliases: []string{"$PSHOME", "$Host", "$PID", "$PSCulture", "$PSUICulture", "$IsWindows",
			"$IsLinux", "$IsMacOS", "$IsCoreCLR", "$PWD"}, Args: TextArgs, In: PowerShell, Does: Reads},
		// session variables and history may hold secrets; the clipboard too
		{Name: "Get-Variable", Args: TextArgs, Aliases: []string{"gv"}, In: PowerShell, Does: Reads, ShowsEnv: true},
		{Name: "Get-History", Args: TextArgs, Aliases: []string{"h", "history", "ghy"}, In: PowerShell, Does: Reads, ShowsEnv: true},
		{Name: "Get-Clipboard", Args: TextArgs, Aliases: []string{"gcb"}, In: PowerShell, Does: Reads, ShowsEnv: true},
		{Name: "Get-Credential", In: PowerShell, Does: Changes, Why: "asks for a password"},

		{Name: "Select-Object", PassThrough: true, Reshapes: []string{"-ExpandProperty"}, Args: TextArgs, Aliases: []string{"select"}, In: PowerShell, Does: Reads,
			Values: []string{"-Property", "-First", "-Last", "-Skip", "-SkipLast", "-Index", "-ExpandProperty", "-ExcludeProperty"}},
		{Name: "Select-String", Args: PatternArgs, Aliases: []string{"sls"}, In: PowerShell, Does: Reads, PipedPaths: true,
			Values: []string{"-Pattern", "-Path", "-LiteralPath", "-Context", "-Include", "-Exclude", "-Encoding", "-Culture"}},
		{Name: "Select-Xml", In: PowerShell, Does: Reads, PipedPaths: true, Values: []string{"-XPath", "-Path", "-LiteralPath", "-Namespace"}},
		{Name: "Sort-Object", PassThrough: true, Args: TextArgs, Aliases: []string{"sort"}, In: PowerShell, Does: Reads, Values: []string{"-Property", "-Top", "-Bottom", "-Culture"}},
		{Name: "Measure-Object", TextOut: true, Args: TextArgs, Aliases: []string{"measure"}, In: PowerShell, Does: Reads, Values: []string{"-Property"}},
		{Name: "Compare-Object", Args: TextArgs, Aliases: []string{"compare", "diff"}, In: PowerShell, Does: Reads, Values: []string{"-ReferenceObject", "-DifferenceObject", "-Property", "-SyncWindow", "-Culture"}},
		{Name: "Group-Object", Args: TextArgs, Aliases: []string{"group"}, In: PowerShell, Does: Reads, Values: []string{"-Property", "-Culture"}},
		{Name: "Where-Object", PassThrough: true, Args: TextArgs, Aliases: []string{"where", "?"}, In: PowerShell, Does: Reads, Why: "a filter (its script block is not analysed)"},
		// ForEach-Object Delete calls each object's Delete method
		{Name: "ForEach-Object", Args: TextArgs, Aliases: []string{"foreach", "%"}, In: PowerShell, Does: Runs, Why: "calls a method or script block on each object",
			Values: []string{"-MemberName", "-Process", "-Begin", "-End"}},
		{Name: "Tee-Object", PassThrough: true, Aliases: []string{"tee"}, In: PowerShell, Does: Writes, Values: []string{"-FilePath", "-LiteralPath", "-Variable", "-Encoding"},
			Opts: []Opt{{Name: "-Variable", Does: Reads}}},
		{Name: "Test-Path", In: PowerShell, Does: Reads, Values: []string{"-Path", "-LiteralPath", "-PathType", "-Filter", "-Include", "-Exclude"}},
		{Name: "Test-Json", Args: TextArgs, In: PowerShell, Does: Reads},
		{Name: "Resolve-Path", Aliases: []string{"rvpa"}, In: PowerShell, Does: Reads, Lists: true, Values: []string{"-Path", "-LiteralPath", "-RelativeBasePath"}},
		{Name: "Join-Path", Args: TextArgs, In: PowerShell, Does: Reads},
		{Name: "Split-Path", Args: TextArgs, In: PowerShell, Does: Reads},
		{Name: "Convert-Path", Aliases: []string{"cvpa"}, In: PowerShell, Does: Reads},
		{Name: "Format-Table", TextOut: true, Args: TextArgs, Aliases: []string{"ft"}, In: PowerShell, Does: Reads, Values: []string{"-Property", "-GroupBy", "-View"}},
		{Name: "Format-List", TextOut: true, Args: TextArgs, Aliases: []string{"fl"}, In: PowerShell, Does: Reads, Values: []string{"-Property", "-GroupBy", "-View"}},
		{Name: "Format-Wide", TextOut: true, Args: TextArgs, Aliases: []string{"fw"}, In: PowerShell, Does: Reads, Values: []string{"-Property", "-Column"}},
		{Name: "Format-Custom", TextOut: true, Args: TextArgs, Aliases: []string{"fc"}, In: PowerShell, Does: Reads, Values: []string{"-Property", "-Depth"}},
		{Name: "Format-Hex", Aliases: []string{"fhx"}, In: PowerShell, Does: Reads, PipedPaths: true, Values: []string{"-Path", "-LiteralPath", "-Encoding", "-Count", "-Offset"}},
		{Name: "ConvertTo-Json", TextOut: true, Args: TextArgs, In: PowerShell, Does: Reads, Values: []string{"-Depth"}},
		{Name: "ConvertTo-Csv", TextOut: true, Args: TextArgs, In: PowerShell, Does: Reads, Values: []string{"-Delimiter"}},
		{Name: "ConvertTo-Html", TextOut: true, Args: TextArgs, In: PowerShell, Does: Reads},
		{Name: "ConvertTo-Xml", TextOut: true, Args: TextArgs, In: PowerShell, Does: Reads},
		{Name: "ConvertFrom-Json", Args: TextArgs, In: PowerShell, Does: Reads},
		{Name: "ConvertFrom-Csv", Args: TextArgs, In: PowerShell, Does: Reads},
		{Name: "ConvertFrom-StringData", Args: TextArgs, In: PowerShell, Does: Reads},
		{Name: "ConvertFrom-Markdown", In: PowerShell, Does: Reads, PipedPaths: true},
		{Name: "ConvertTo-SecureString", In: PowerShell, Does: Changes, Why: "handles a secret"},
		{Name: "ConvertFrom-SecureString", In: PowerShell, Does: Changes, Why: "handles a secret"},
		{Name: "Join-String", TextOut: true, Args: TextArgs, In: PowerShell, Does: Reads},
		{Name: "Import-Csv", Aliases: []string{"ipcsv"}, In: PowerShell, Does: Reads, Values: []string{"-Path", "-LiteralPath", "-Delimiter", "-Header", "-Encoding"}},
		{Name: "Out-String", TextOut: true, Args: TextArgs, In: PowerShell, Does: Reads, Values: []string{"-Width"}},
		{Name: "Out-Host", Args: TextArgs, Aliases: []string{"oh"}, In: PowerShell, Does: Reads},
		{Name: "Out-Default", Args: TextArgs, In: PowerShell, Does: Reads},
		{Name: "Out-Null", Args: TextArgs, In: PowerShell, Does: Reads},
		{Name: "Write-Output", TextOut: true, Echoes: true, Args: TextArgs, Aliases: []string{"echo", "write"}, In: PowerShell, Does: Reads},
		{Name: "Write-Host", TextOut: true, Args: TextArgs, In: PowerShell, Does: Reads},
		{Name: "Write-Verbose", Args: TextArgs, In: PowerShell, Does: Reads},
		{Name: "Write-Warning", Args: TextArgs, In: PowerShell, Does: Reads},
		{Name: "Write-Information", Args: TextArgs, In: PowerShell, Does: Reads},
		{Name: "Write-Debug", Args: TextArgs, In: PowerShell, Does: Reads},
		{Name: "Write-Error", Args: TextArgs, In: PowerShell, Does: Reads},
		{Name: "Start-Sleep", Args: TextArgs, Aliases: []string{"sleep"}, In: PowerShell, Does: Reads},
		{Name: "Clear-Host", Args: TextArgs, Aliases: []string{"cls", "clear"}, In: PowerShell, Does: Reads},
		{Name: "Set-Location", Aliases: []string{"cd", "sl", "chdir"}, In: PowerShell, Does: Reads},
		{Name: "Push-Location", Aliases: []string{"pushd"}, In: PowerShell, Does: Reads},
		{Name: "Pop-Location", Aliases: []string{"popd"}, In: PowerShell, Does: Reads},
		{Name: "New-TimeSpan", Args: TextArgs, In: PowerShell, Does: Reads},
		{Name: "New-Guid", Args: TextArgs, In: PowerShell, Does: Reads},
		{Name: "Test-Connection", Args: TextArgs, In: PowerShell, Does: Sends},
		{Name: "Test-NetConnection", Args: TextArgs, Aliases: []string{"tnc"}, In: PowerShell, Does: Sends},
		{Name: "Resolve-DnsName", Args: TextArgs, In: PowerShell, Does: Sends},
	}
})

// psDrives are PowerShell drives whose items are not files: reading
// them shows variables, functions, certificates or settings; psProviders
// are the same named by their provider (Environment::).
var (
	psDrives    = []string{"env:", "variable:", "function:", "cert:", "wsman:", "alias:"}
	psProviders = []string{"environment", "variable", "function", "certificate", "wsman", "alias"}
)

// PSDrive is the PowerShell drive a word names whose items are not files
// (env:, Variable:, Microsoft.PowerShell.Core\Environment::), or "".
func PSDrive(w string) string {
	lw := strings.ToLower(w)
	for _, d := range psDrives {
		if strings.HasPrefix(lw, d) {
			return d
		}
	}
	if i := strings.Index(lw, "::"); i > 0 {
		p := lw[:i]
		if k := strings.LastIndexByte(p, '\\'); k >= 0 {
			p = p[k+1:]
		}
		if slices.Contains(psProviders, p) {
			return p + "::"
		}
	}
	return ""
}
