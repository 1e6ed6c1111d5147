package cmdbase

// PowerShell cmdlets that write, move or delete files (warned, seed 000).
var _ = register(func() []Spec {
	return []Spec{
		{Name: "Set-Content", ChangesPiped: true, Aliases: []string{"sc"}, In: PowerShell, Does: Writes, Cat: CatWrite, Values: []string{"-Path", "-LiteralPath", "-Value", "-Encoding", "-Stream"}},
		{Name: "Add-Content", ChangesPiped: true, Aliases: []string{"ac"}, In: PowerShell, Does: Writes, Cat: CatAppend, Values: []string{"-Path", "-LiteralPath", "-Value", "-Encoding", "-Stream"}},
		{Name: "Clear-Content", ChangesPiped: true, Aliases: []string{"clc"}, In: PowerShell, Does: Writes, Values: []string{"-Path", "-LiteralPath"}},
		{Name: "Out-File", In: PowerShell, Does: Writes, Cat: CatWrite, Values: []string{"-FilePath", "-LiteralPath", "-Encoding", "-Width"},
			Opts: []Opt{{Name: "-Append", Does: Writes}}},
		{Name: "New-Item", Aliases: []string{"ni"}, In: PowerShell, Does: Writes, Values: []string{"-Path", "-Name", "-ItemType", "-Value", "-Type", "-Target"}},
		{Name: "mkdir", Aliases: []string{"md"}, In: PowerShell, Does: Writes, Cat: CatMkdir, Values: []string{"-Path", "-Name"}},
		{Name: "Copy-Item", Aliases: []string{"cp", "copy", "cpi"}, In: PowerShell, Does: Writes, Cat: CatCopy,
			Values: []string{"-Path", "-LiteralPath", "-Destination", "-Filter", "-Include", "-Exclude"}},
		{Name: "Move-Item", ChangesPiped: true, Aliases: []string{"mv", "move", "mi"}, In: PowerShell, Does: Writes, Cat: CatMove,
			Values: []string{"-Path", "-LiteralPath", "-Destination", "-Filter", "-Include", "-Exclude"}},
		{Name: "Rename-Item", ChangesPiped: true, Aliases: []string{"ren", "rni"}, In: PowerShell, Does: Writes, Cat: CatMove, Values: []string{"-Path", "-LiteralPath", "-NewName"}},
		{Name: "Remove-Item", ChangesPiped: true, Aliases: []string{"rm", "del", "erase", "rd", "rmdir", "ri"}, In: PowerShell, Does: Writes, Cat: CatDelete,
			Values: []string{"-Path", "-LiteralPath", "-Filter", "-Include", "-Exclude", "-Stream"},
			Opts:   []Opt{{Name: "-Recurse", Does: Dangerous, Why: "deletes a whole tree (Remove-Item -Recurse)"}},
			Examples: Examples{
				Warn: []string{"Remove-Item a.txt", "Remove-Item -Recurse -Force C:\\build", "rm -r -fo out", "ri x",
					"& (Get-Command Remove-Item) x", "iex ('Remove-' + 'Item C:\\x -Recurse')"},
			}},
		{Name: "Clear-Item", ChangesPiped: true, Aliases: []string{"cli"}, In: PowerShell, Does: Writes},
		{Name: "Clear-RecycleBin", In: PowerShell, Does: Dangerous, Why: "empties the recycle bin"},
		{Name: "Export-Csv", Aliases: []string{"epcsv"}, In: PowerShell, Does: Writes, Values: []string{"-Path", "-LiteralPath", "-Delimiter", "-Encoding"}},
		{Name: "Export-Clixml", In: PowerShell, Does: Writes, Values: []string{"-Path", "-LiteralPath", "-Depth", "-Encoding"}},
		{Name: "Compress-Archive", In: PowerShell, Does: Writes, Values: []string{"-Path", "-LiteralPath", "-DestinationPath", "-CompressionLevel"}},
		{Name: "Expand-Archive", In: PowerShell, Does: Writes, Values: []string{"-Path", "-LiteralPath", "-DestinationPath"}},
		{Name: "Start-Transcript", In: PowerShell, Does: Writes},
		{Name: "Set-Acl", ChangesPiped: true, In: PowerShell, Does: Dangerous, Why: "changes permissions (Set-Acl)"},
		{Name: "Unblock-File", In: PowerShell, Does: Changes, Why: "removes the downloaded-file mark"},
	}
})
