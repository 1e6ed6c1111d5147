package cmdbase

import (
	"strings"
	"sync"
)

// DotNetCall is a .NET method PowerShell can call as [Type]::Method(…):
// outside the plain subset, but what it does is known.
type DotNetCall struct {
	// Type is the type's name without "System." (IO.File), Method the
	// method's.
	Type, Method string
	Does         Effect
	// Recursive says a second argument $true makes it act on a whole tree
	// ([IO.Directory]::Delete(path, $true)).
	Recursive bool
	// DangerArg, when an argument holds it (any case), makes the call
	// dangerous for DangerWhy (a 'Machine' target: the whole machine's
	// environment).
	DangerArg, DangerWhy string
	Why                  string
}

// dotnet is built on first use (DotNet).
var dotnet = sync.OnceValue(func() map[string]DotNetCall {
	m := map[string]DotNetCall{}
	add := func(typ string, does Effect, why string, methods ...string) {
		for _, meth := range methods {
			c := DotNetCall{Type: typ, Method: meth, Does: does, Why: why}
			if strings.EqualFold(typ, "IO.Directory") && meth == "Delete" {
				c.Recursive = true
			}
			m[strings.ToLower(typ+"::"+meth)] = c
		}
	}
	add("IO.File", Writes, "writes, moves or deletes files", "Delete", "WriteAllText", "WriteAllLines", "WriteAllBytes",
		"AppendAllText", "AppendAllLines", "AppendText", "Create", "CreateText", "Move", "Copy", "Replace", "Encrypt",
		"Decrypt", "SetAttributes", "OpenWrite")
	add("IO.Directory", Writes, "creates, moves or deletes directories", "Delete", "Move", "CreateDirectory")
	add("IO.Compression.ZipFile", Writes, "writes files", "ExtractToDirectory", "CreateFromDirectory")
	add("Microsoft.VisualBasic.FileIO.FileSystem", Writes, "deletes or moves files", "DeleteFile", "DeleteDirectory",
		"MoveFile", "MoveDirectory", "CopyFile", "CopyDirectory")
	add("Diagnostics.Process", Runs, "starts a program", "Start")
	add("Reflection.Assembly", Runs, "loads code", "Load", "LoadFile", "LoadFrom", "UnsafeLoadFrom")
	add("Environment", Changes, "sets an environment variable", "SetEnvironmentVariable")
	c := m["environment::setenvironmentvariable"]
	c.DangerArg, c.DangerWhy = "machine", "sets a machine-wide environment variable"
	m["environment::setenvironmentvariable"] = c
	return m
})

// DotNet finds a .NET method by its type (with or without "System.", any
// case) and name.
func DotNet(typ, method string) (DotNetCall, bool) {
	t := strings.ToLower(strings.TrimSpace(typ))
	t = strings.TrimPrefix(t, "system.")
	c, ok := dotnet()[t+"::"+strings.ToLower(method)]
	return c, ok
}

// dotNetFetchers are the .NET names whose use in a PowerShell word
// fetches data from the network (lower case).
var dotNetFetchers = []string{"downloadstring", "downloadfile", "downloaddata", "net.webclient", "net.http.httpclient", "openread"}

// DotNetFetches reports a word of a PowerShell script that fetches data
// from the network through .NET ((New-Object Net.WebClient).DownloadString(…)).
func DotNetFetches(raw string) bool {
	l := strings.ToLower(raw)
	for _, f := range dotNetFetchers {
		if strings.Contains(l, f) {
			return true
		}
	}
	return false
}
