package cmdbase

// Files and processes: coreutils, findutils, util-linux and their
// cousins.

// gnuInfo are the options every GNU tool answers, alone, by printing and
// exiting before it touches a file.
var gnuInfo = []string{"--help", "--version"}

var _ = registerUnix(Coreutils, []Prog{
	{Name: "rm", Is: FileOperands | Checked | Removes | Alarm, Forms: []Form{
		{Short: "rR", Long: []string{"recursive"}, Why: "-r: recursive delete"},
		{Long: []string{"no-preserve-root"}, Why: "--no-preserve-root"}}},
	{Name: "rmdir", Is: FileOperands | Removes | Alarm, Danger: "removes directories"},
	{Name: "unlink", Is: FileOperands | Removes | Alarm},
	{Name: "shred", Is: FileOperands | Removes | Alarm, Danger: "destroys file contents"},
	{Name: "srm", Is: FileOperands | Removes},
	{Name: "trash", Aliases: []string{"trash-put"}, Is: FileOperands | Removes},
	{Name: "mv", Is: FileOperands | Checked | Removes | Alarm, Values: "tS"},
	{Name: "cp", Version: gnuInfo, Is: FileOperands | Checked, Values: "tS"},
	{Name: "ln", Version: gnuInfo, Is: FileOperands | Checked | Alarm, Values: "tS"},
	{Name: "install", Version: gnuInfo, Is: FileOperands | Checked | Alarm, Values: "tSmogCZ"},
	{Name: "touch", Version: gnuInfo, Is: FileOperands},
	{Name: "mkdir", Version: gnuInfo, Is: FileOperands},
	{Name: "chmod", Version: gnuInfo, Is: FileOperands | Checked | Alarm, Forms: []Form{{Short: "R", Long: []string{"recursive"}, Why: "-R: recursive permission change"}}},
	{Name: "chown", Version: gnuInfo, Is: FileOperands | Checked | Alarm, Forms: []Form{{Short: "R", Long: []string{"recursive"}, Why: "-R: recursive ownership change"}}},
	{Name: "chgrp", Version: gnuInfo, Is: FileOperands | Checked | Alarm, Forms: []Form{{Short: "R", Long: []string{"recursive"}, Why: "-R: recursive ownership change"}}},
	{Name: "truncate", Version: gnuInfo, Is: FileOperands | Checked | Alarm},
	{Name: "tee", Version: gnuInfo, Is: FileOperands | Checked | Alarm},
	{Name: "cat", Is: FileOperands}, {Name: "tac", Is: FileOperands}, {Name: "nl", Is: FileOperands},
	{Name: "head", Is: FileOperands}, {Name: "tail", Is: FileOperands},
	{Name: "less", Is: FileOperands}, {Name: "more", Is: FileOperands},
	// names, sizes and counts only, never content
	{Name: "ls", Is: Metadata}, {Name: "dir", Is: Metadata}, {Name: "vdir", Is: Metadata},
	{Name: "du", Is: Metadata}, {Name: "stat", Is: Metadata}, {Name: "wc", Is: Metadata},
	{Name: "file", Is: Metadata},
	{Name: "tree", Values: "oLPIH", Outputs: []Output{{Short: 'o', Long: "output"}}},
	{Name: "dd", Is: Alarm, Danger: "writes raw disk data"},
	{Name: "del", Danger: "deletes files"},
	{Name: "chattr", Danger: "changes file attributes"},
	// -exec and -execdir run a command of their own, judged as a leaf
	{Name: "find", Is: NoRule | Checked, Dangers: findDanger},
	{Name: "xargs", Is: Wrapper | Harmless | Alarm},
	{Name: "env", Is: Wrapper | Harmless},
	{Name: "timeout", Is: Wrapper | Harmless},
	{Name: "nice", Is: Wrapper | Harmless},
	{Name: "nohup", Is: Wrapper | Harmless},
	{Name: "stdbuf", Is: Wrapper | Harmless},
	{Name: "ionice", Is: Wrapper | Harmless},
	{Name: "setsid", Is: Wrapper | Harmless},
	{Name: "watch", Is: Wrapper | Harmless},
	{Name: "flock", Is: Wrapper | RunsArgs},
	{Name: "chroot", Is: Wrapper | RunsArgs | Relay},
	{Name: "nsenter", Is: Wrapper | RunsArgs | Relay},
	{Name: "unshare", Is: Wrapper | RunsArgs},
	{Name: "script", Is: Wrapper | RunsArgs | Relay},
	{Name: "kill", Is: Checked | Alarm},
	{Name: "killall5", Danger: "kills every process"},
	{Name: "pkill", Is: Alarm}, {Name: "killall", Is: Alarm},
	{Name: "busybox", Is: NoRule | Relay},
	{Name: "parallel", Is: Wrapper | RunsArgs},
	{Name: "sg", Is: RunsArgs},
})
