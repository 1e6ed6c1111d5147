package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/nb-cli/nb/internal/iostreams"
	"github.com/nb-cli/nb/internal/mcpserver"
)

const mcpUsage = `usage: nb mcp serve [--http ADDR [--token-file FILE]] [--root DIR]...
                    [--config FILE] [--approve PATTERN]... [--verbose]

Serves nb's tools (run_cmd, set_cwd, terminal sessions, read_file, write_file,
list_dir, path_info, get_context) over the Model Context Protocol, on stdio by
default or as streamable HTTP on a loopback address with --http.

  --http ADDR        listen on ADDR (127.0.0.1:PORT, [::1]:PORT,
                     localhost:PORT); clients must send "Authorization: Bearer
                     TOKEN" with the token printed on stderr
  --token-file FILE  take the bearer token from FILE (or $NB_MCP_TOKEN)
                     instead of a new one
  --root DIR         confine the file tools to DIR (repeatable; default: the
                     current directory)
  --config FILE      configuration file
                     (default: $XDG_CONFIG_HOME/nb/config.json)
  --approve PATTERN  pre-approve commands matching PATTERN (repeatable)
  --verbose          log every request to stderr

--config, --approve and --verbose may also come before "mcp"
(nb --verbose mcp serve).
`

// runMCP implements `nb mcp serve`.
func runMCP(args []string, io *iostreams.IO, global *Options) error {
	if err := global.only("mcp", "config", "approve", "verbose"); err != nil {
		return err
	}
	if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "help") {
		printHelp(io, mcpUsage)
		return nil
	}
	if len(args) == 0 {
		return usagef("mcp needs a subcommand: serve (see nb mcp --help)")
	}
	if strings.HasPrefix(args[0], "-") {
		return (&cmdLine{cmd: "nb mcp"}).unknown(args[0])
	}
	if args[0] != "serve" {
		return unknownSubcommand("mcp", args[0], "serve")
	}
	var roots []string
	approve := append([]string(nil), global.Approve...)
	httpAddr, tokenFile, configPath, verbose := "", "", global.Config, global.Verbose
	line := cmdLine{cmd: "nb mcp serve", flags: []flagDef{
		{name: "http", value: true, set: func(v string) error { httpAddr = v; return nil }},
		{name: "token-file", value: true, set: func(v string) error { tokenFile = v; return nil }},
		{name: "root", value: true, set: func(v string) error { roots = append(roots, v); return nil }},
		{name: "config", value: true, set: func(v string) error { configPath = v; return nil }},
		{name: "approve", value: true, set: func(v string) error { approve = append(approve, v); return nil }},
		{name: "verbose", set: func(string) error { verbose = true; return nil }},
	}}
	p, err := line.parse(args[1:])
	if err != nil {
		return err
	}
	if p.help {
		printHelp(io, mcpUsage)
		return nil
	}
	if rest := append(p.words, p.afterDashes...); len(rest) > 0 {
		return usagef("mcp serve: unexpected argument %q (see nb mcp serve --help)", rest[0])
	}
	var token string
	printToken := false
	if httpAddr != "" {
		if err := mcpserver.CheckLoopback(httpAddr); err != nil {
			return usagef("mcp serve: %v", err)
		}
		if token, printToken, err = mcpToken(tokenFile, io.Getenv); err != nil {
			return fmt.Errorf("mcp serve: %w", err)
		}
	} else if tokenFile != "" {
		return usagef("mcp serve: --token-file needs --http")
	}
	launch, err := workingDir()
	if err != nil {
		return fmt.Errorf("mcp serve: %w", err)
	}
	// The user's config, tightened by the launch directory's .nb/config.json.
	cfg, err := loadConfig(io, configPath, launch)
	if err != nil {
		return err
	}
	for i, r := range roots {
		if !filepath.IsAbs(r) {
			roots[i] = filepath.Join(launch, r)
		}
		switch fi, err := os.Stat(roots[i]); {
		case errors.Is(err, fs.ErrNotExist):
			return usagef("mcp serve: --root %s: no such directory", r)
		case err == nil && !fi.IsDir():
			return usagef("mcp serve: --root %s: not a directory", r)
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	srv, err := mcpserver.Build(ctx, mcpserver.BuildOptions{
		Config:    cfg,
		LaunchDir: launch,
		Roots:     roots,
		Approve:   approve,
		Getenv:    io.Getenv,
		Environ:   os.Environ(),
		Version:   Version,
		Logger:    slog.New(quietCancel{slog.NewTextHandler(io.Err, &slog.HandlerOptions{Level: logLevel(verbose)})}),
		Now:       io.Now,
	})
	if err != nil {
		return fmt.Errorf("mcp serve: %w", err)
	}
	if httpAddr != "" {
		err = srv.ServeHTTP(ctx, httpAddr, token, func(addr string) {
			if printToken {
				fmt.Fprintf(io.Err, "nb mcp serve: bearer token %s (clients send \"Authorization: Bearer %s\")\n", token, token)
			}
			fmt.Fprintf(io.Err, "nb mcp serve: listening on http://%s/mcp\n", addr)
		})
	} else {
		if io.InTTY {
			// Typed at a terminal: nothing else would say what waits.
			fmt.Fprintln(io.Err, "nb mcp serve: serving MCP on stdin and stdout, one JSON-RPC message a line; an MCP client starts nb this way (README: MCP server). Ctrl+D or Ctrl+C ends it.")
		}
		err = srv.ServeStdio(ctx, io.In, io.Out)
	}
	if err != nil {
		return fmt.Errorf("mcp serve: %w", err)
	}
	if ctx.Err() != nil {
		return shown(errInterrupted)
	}
	return nil
}

// quietCancel drops log records whose error is a cancellation: the end
// Ctrl+C or SIGTERM asked for ("server run cancelled") is not an error.
type quietCancel struct{ slog.Handler }

func (h quietCancel) Handle(ctx context.Context, r slog.Record) error {
	cancelled := false
	r.Attrs(func(a slog.Attr) bool {
		if err, ok := a.Value.Any().(error); ok && errors.Is(err, context.Canceled) {
			cancelled = true
			return false
		}
		return true
	})
	if cancelled {
		return nil
	}
	return h.Handler.Handle(ctx, r)
}

func (h quietCancel) WithAttrs(as []slog.Attr) slog.Handler {
	return quietCancel{h.Handler.WithAttrs(as)}
}

func (h quietCancel) WithGroup(name string) slog.Handler {
	return quietCancel{h.Handler.WithGroup(name)}
}

// logLevel is the server log's level: warnings, or everything with --verbose.
func logLevel(verbose bool) slog.Level {
	if verbose {
		return slog.LevelDebug
	}
	return slog.LevelWarn
}

// mcpToken is the HTTP transport's bearer token: read from file, else
// $NB_MCP_TOKEN, else a new random one, which is to be printed.
func mcpToken(file string, getenv func(string) string) (token string, fresh bool, err error) {
	switch {
	case file != "":
		b, err := os.ReadFile(file)
		if err != nil {
			return "", false, fmt.Errorf("token file: %w", err)
		}
		token = strings.TrimSpace(string(b))
	case getenv("NB_MCP_TOKEN") != "":
		token = strings.TrimSpace(getenv("NB_MCP_TOKEN"))
	default:
		t, err := mcpserver.NewToken()
		return t, true, err
	}
	if len(token) < mcpserver.MinTokenLen || strings.ContainsAny(token, " \t\r\n") {
		return "", false, fmt.Errorf("the bearer token must be at least %d characters, without spaces", mcpserver.MinTokenLen)
	}
	return token, false, nil
}
