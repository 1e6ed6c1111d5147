package e2e

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/rogpeppe/go-internal/testscript"
)

// schemaPath is the JSON Schema of --output-format json and stream-json,
// kept with the documentation.
const schemaPath = "../../docs/output-format.schema.json"

var loadSchema = sync.OnceValues(func() (*jsonschema.Resolved, error) {
	data, err := os.ReadFile(schemaPath)
	if err != nil {
		return nil, err
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("%s: %w", schemaPath, err)
	}
	return s.Resolve(nil)
})

// cmdOutputSchema: outputschema json|stream-json FILE validates FILE (a
// copy of nb's stdout) against the output schema: json is exactly one
// result object; stream-json is one object per line, a start event first
// (unless the run failed before it started) and exactly one result, last;
// start and result carry one session id, and timestamps never go back.
func cmdOutputSchema(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 || (args[0] != "json" && args[0] != "stream-json") {
		ts.Fatalf("usage: outputschema json|stream-json FILE")
	}
	err := checkOutput(args[0], ts.ReadFile(args[1]))
	if neg {
		if err == nil {
			ts.Fatalf("%s matches the schema", args[1])
		}
		ts.Logf("not valid, as expected: %v", err)
		return
	}
	if err != nil {
		ts.Fatalf("%s: %v", args[1], err)
	}
}

func checkOutput(format, out string) error {
	schema, err := loadSchema()
	if err != nil {
		return fmt.Errorf("schema: %w", err)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if out == "" || (format == "json" && len(lines) != 1) {
		return fmt.Errorf("--output-format json prints exactly one line, got %d:\n%s", len(lines), out)
	}
	var types, sessions, stamps []string
	for i, line := range lines {
		var v any
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			return fmt.Errorf("line %d is not JSON: %v: %q", i+1, err, line)
		}
		if err := schema.Validate(v); err != nil {
			return fmt.Errorf("line %d does not match the schema: %v\n%s", i+1, err, line)
		}
		obj, _ := v.(map[string]any)
		typ, _ := obj["type"].(string)
		types = append(types, typ)
		stamp, _ := obj["timestamp"].(string)
		if n := len(stamps); n > 0 && stamp < stamps[n-1] {
			return fmt.Errorf("line %d: timestamp %s before the previous event's %s", i+1, stamp, stamps[n-1])
		}
		stamps = append(stamps, stamp)
		if id, ok := obj["sessionId"].(string); ok {
			sessions = append(sessions, id)
		}
	}
	for _, id := range sessions {
		if id != sessions[0] {
			return fmt.Errorf("session ids differ between start and result: %q", sessions)
		}
	}
	last := types[len(types)-1]
	if last != "result" {
		return fmt.Errorf("the last object is %q, want result", last)
	}
	n := 0
	for _, t := range types {
		if t == "result" {
			n++
		}
	}
	if n != 1 {
		return fmt.Errorf("%d result objects, want 1", n)
	}
	if format == "stream-json" && len(types) > 1 && types[0] != "start" {
		return fmt.Errorf("the first event is %q, want start", types[0])
	}
	return nil
}

// cmdNBExit: nbexit N ARGS... runs nb with ARGS and fails unless it exits
// with code N; its stdout and stderr become the script's. (exec only tells
// success from failure.)
func cmdNBExit(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 1 {
		ts.Fatalf("usage: nbexit N ARGS...")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	exe, err := exec.LookPath("nb")
	ts.Check(err)
	cmd := exec.Command(exe, args[1:]...)
	cmd.Dir = ts.MkAbs(".")
	cmd.Env = scriptEnv(ts)
	for _, k := range []string{"FAKELLM_URL", "AZURE_OPENAI_ENDPOINT", "AZURE_OPENAI_API_KEY", "AZURE_OPENAI_DEPLOYMENT", "CI"} {
		if v := ts.Getenv(k); v != "" {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
	}
	if f := ts.Getenv("NBEXIT_STDIN"); f != "" {
		in, err := os.Open(filepath.Join(cmd.Dir, f))
		ts.Check(err)
		defer in.Close()
		cmd.Stdin = in
	}
	cmd.Stdout, cmd.Stderr = ts.Stdout(), ts.Stderr()
	err = cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		ts.Fatalf("nbexit: %v", err)
	}
	if code != want {
		ts.Fatalf("nb exited %d, want %d", code, want)
	}
}
