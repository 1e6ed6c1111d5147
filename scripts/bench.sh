#!/usr/bin/env bash
# Runs nb's benchmarks and prints them as a table with their targets.
# Usage: scripts/bench.sh [COUNT]   (COUNT runs of each; the best is shown)
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-3}
out=$(mktemp)
trap 'rm -f "$out"' EXIT

go test -run '^$' -count "$count" -timeout 30m -bench 'RunCmdOverhead' -benchtime 300x ./internal/tool/runcmd >>"$out"
go test -run '^$' -count "$count" -timeout 30m -bench '1GiB' -benchtime 1x ./internal/tool/runcmd >>"$out"
go test -run '^$' -count "$count" -timeout 30m -bench 'RedactREADME|RedactSandwich|Load|StartKnown' -benchtime 20x ./internal/redact >>"$out"
go test -run '^$' -count 1 -timeout 30m -bench 'Redact1GiB' -benchtime 1x ./internal/redact >>"$out"
go test -run '^$' -count "$count" -timeout 30m -bench 'Detect' -benchtime 2000x ./internal/sysinfo >>"$out"
go test -run '^$' -count "$count" -timeout 30m -bench 'Capture' ./internal/sandwich >>"$out"
go test -run '^$' -count "$count" -timeout 30m -bench 'Version|HelperStart|StartToPrompt|BaseLoad' -benchtime 20x ./internal/e2e >>"$out"
go test -run '^$' -count "$count" -timeout 30m -bench 'ToolRunTrue' -benchtime 40x ./internal/e2e >>"$out" || true
go test -run '^$' -count "$count" -timeout 30m -bench 'LargeHistoryTurn' -benchtime 5x ./internal/e2e >>"$out"
go test -run '^$' -count "$count" -timeout 30m -bench 'SaveToolHistory' -benchtime 10x ./internal/store >>"$out"
go test -run '^$' -count 1 -timeout 30m -bench 'HugeAnswer' -benchtime 1x ./internal/e2e >>"$out"
go test -run '^$' -count 1 -timeout 30m -bench 'LongConversation' -benchtime 1x ./internal/agent >>"$out"
go test -run '^$' -count "$count" -timeout 30m -bench 'Decide' ./internal/policy >>"$out"
go test -run '^$' -count "$count" -timeout 30m -bench 'SecretFiles' -benchtime 20x ./internal/fsfacts >>"$out"
go test -run '^$' -count "$count" -timeout 30m -bench 'PolicyCheck10k' -benchtime 5x ./internal/redteam >>"$out"
go test -run '^$' -count "$count" -timeout 30m -bench 'ContinueEchoHi' -benchtime 20x ./internal/ptysession >>"$out"
go test -run '^$' -count 1 -timeout 30m -bench 'IdleCPU' -benchtime 2x ./internal/ptysession >>"$out"
go test -run '^$' -count "$count" -timeout 30m -bench 'SessionThroughput' -benchtime 2x ./internal/ptysession >>"$out"
go test -run '^$' -count 1 -timeout 30m -bench 'HostileEscapes' -benchtime 1x ./internal/ptysession >>"$out"
go test -run '^$' -count "$count" -timeout 30m -bench 'MarkdownLongLine' -benchtime 1x ./internal/render >>"$out"
go test -run '^$' -count "$count" -timeout 30m -bench 'StdioToolCall|StartToInitialize' -benchtime 200x ./internal/mcpserver >>"$out"
go test -run '^$' -count "$count" -timeout 30m -bench 'Run|ReadOnlyLayout' -benchtime 40x ./internal/host/sandbox >>"$out" || true
go test -run '^$' -count "$count" -timeout 30m -bench 'Run' -benchtime 40x ./internal/host/ssh >>"$out" || true
go test -run '^$' -count "$count" -timeout 30m -bench 'Uptime50' -benchtime 5x ./internal/fleet >>"$out" || true
go test -run '^$' -count "$count" -timeout 30m -bench 'Preview' -benchtime 5x ./internal/host/sandbox >>"$out" || true
go test -run '^$' -count "$count" -timeout 30m -bench 'Snapshot' -benchtime 5x ./internal/changes/gitsnap >>"$out" || true
go test -run '^$' -count "$count" -timeout 30m -bench 'Compare10MB' -benchtime 5x ./internal/textdiff >>"$out"

# metric NAME UNIT from benchmark lines: the value preceding UNIT
awk -v OFS='\t' '
function metric(unit,   i) { for (i = 3; i <= NF; i++) if ($i == unit) return $(i-1); return "" }
function best(key, v, lower) {
	if (v == "") return
	if (!(key in B) || (lower && v+0 < B[key]+0) || (!lower && v+0 > B[key]+0)) B[key] = v
}
/^BenchmarkRunCmdOverhead/ {
	best("ovmin", metric("overhead-min-ms"), 1); best("ovmed", metric("overhead-median-ms"), 1)
	best("bare", metric("bare-median-ms"), 1); best("nb", metric("runcmd-median-ms"), 1)
}
/^Benchmark1GiBBaseline/ { best("base", metric("MB/s"), 0) }
/^Benchmark1GiBWithheld/ { best("gibw", metric("MB/s"), 0); best("gibwd", metric("detector-ms/op"), 1) }
/^BenchmarkRedactSandwich-/ { best("redsw", metric("ns/op") / 1e3, 1) }
/^BenchmarkRedactSandwichKnown-/ { best("redswk", metric("ns/op") / 1e3, 1) }
/^BenchmarkRedactREADME-/ { best("redme", metric("ns/op") / 1e6, 1) }
/^BenchmarkRedactREADMEKnown-/ { best("redmek", metric("ns/op") / 1e6, 1) }
/^BenchmarkLoad/ { best("redload", metric("ns/op") / 1e6, 1) }
/^BenchmarkStartKnown/ { best("redstart", metric("ns/op") / 1e6, 1) }
/^BenchmarkRedact1GiB-/ { best("redgib", metric("ns/op") / 1e9, 1) }
/^BenchmarkRedact1GiBKnown-/ { best("redgibk", metric("ns/op") / 1e9, 1) }
/^Benchmark1GiB-/ { best("gib", metric("MB/s"), 0); best("rss", metric("peak-rss-growth-MiB"), 1) }
/^BenchmarkDetect/ { best("detect", metric("ns/op") / 1e6, 1) }
/^BenchmarkCapture\/one-line/ { best("cap1", metric("MB/s"), 0) }
/^BenchmarkCapture\/short-lines/ { best("cap2", metric("MB/s"), 0) }
/^BenchmarkVersion/ { best("version", metric("ns/op") / 1e6, 1) }
/^BenchmarkHelperStart/ { best("helper", metric("ns/op") / 1e6, 1) }
/^BenchmarkStartToPrompt/ { best("prompt", metric("ns/op") / 1e6, 1) }
/^BenchmarkLargeHistoryTurn\/chat/ { best("histms", metric("ms-to-request"), 1); best("histrss", metric("peak-rss-MiB"), 1) }
/^BenchmarkLargeHistoryTurn\/tools/ { best("toolms", metric("ms-to-request"), 1); best("toolrss", metric("peak-rss-MiB"), 1); best("toolcpu", metric("cpu-ms-to-request"), 1) }
/^BenchmarkSaveToolHistory/ { best("toolsave", metric("ns/op") / 1e6, 1) }
/^BenchmarkHugeAnswer/ { best("answerrss", metric("peak-rss-MiB"), 1) }
/^BenchmarkLongConversation/ { best("maxwin", metric("max-%-of-window"), 1); best("cached", metric("%-cached-20-turns"), 0) }
/^BenchmarkDecideOneLine/ { best("dec1", metric("ns/op") / 1e3, 1) }
/^BenchmarkDecide1000Lines/ { best("dec1000", metric("ns/op") / 1e6, 1) }
/^BenchmarkDecideLongPipeline/ { best("decpipe", metric("ns/op") / 1e6, 1) }
/^BenchmarkWinDecidePipeline/ { best("winpipe", metric("ns/op") / 1e3, 1) }
/^BenchmarkWinDecide1000Lines\/cmd/ { best("win1000cmd", metric("ns/op") / 1e6, 1) }
/^BenchmarkWinDecide1000Lines\/powershell/ { best("win1000ps", metric("ns/op") / 1e6, 1) }
/^BenchmarkPolicyCheck10k/ { best("check10k", metric("ns/op") / 1e6, 1) }
/^BenchmarkBaseLoad/ { best("baseload", metric("base-load-ms"), 1) }
/^BenchmarkSecretFiles5000/ { best("secrets", metric("ns/op") / 1e6, 1) }
/^BenchmarkContinueEchoHi/ { best("echohi", metric("ns/op") / 1e6, 1) }
/^BenchmarkIdleCPU/ { best("idle", metric("cpu-ms/idle-s"), 1) }
/^BenchmarkSessionThroughput-/ { best("sess", metric("MB/s"), 0) }
/^BenchmarkSessionThroughputCeiling/ { best("sessbase", metric("MB/s"), 0) }
/^BenchmarkMarkdownLongLine/ { best("mdline", metric("ns/op") / 1e6, 1) }
/^BenchmarkHostileEscapes\// { v = metric("ns/op") / 1e6; if (v > hostile) { hostile = v; hname = $1 } }
/^BenchmarkStdioToolCall/ { best("mcpcall", metric("p50-ms"), 1); best("mcpcallsb", metric("sandboxed-p50-ms"), 1) }
/^BenchmarkStartToInitialize/ { best("mcpinit", metric("p50-ms") != "" ? metric("p50-ms") : metric("ns/op") / 1e6, 1) }
/^BenchmarkToolRunTrue/ { best("toolplain", metric("unsandboxed-median-ms"), 1); best("toolsb", metric("sandboxed-median-ms"), 1); best("tooladded", metric("added-median-ms"), 1) }
/^BenchmarkRun\/local/ { best("local", metric("ns/op") / 1e6, 1) }
/^BenchmarkRun\/readonly-bwrap/ { best("robwrap", metric("ns/op") / 1e6, 1) }
/^BenchmarkRun\/readonly-landlock/ { best("rolandlock", metric("ns/op") / 1e6, 1) }
/^BenchmarkReadOnlyLayout/ { best("rolayout", metric("ns/op") / 1e6, 1) }
/^BenchmarkRun\/bwrap/ { best("bwrap", metric("ns/op") / 1e6, 1) }
/^BenchmarkRun\/namespaces/ { best("nsrun", metric("ns/op") / 1e6, 1) }
/^BenchmarkRun\/readonly-namespaces/ { best("ronsrun", metric("ns/op") / 1e6, 1) }
/^BenchmarkRun\/landlock/ { best("landlock", metric("ns/op") / 1e6, 1) }
/^BenchmarkRun\/ssh-bare/ { best("sshbare", metric("ns/op") / 1e6, 1) }
/^BenchmarkRun\/ssh-[0-9]/ { best("ssh", metric("ns/op") / 1e6, 1) }
/^BenchmarkPreview\/(disk|tmpfs)\/(sed-10MB|1000-files)/ {
	split($1, pv, "/"); k = pv[2] (pv[3] ~ /^sed/ ? "sed" : "1000")
	best("pv" k, metric("x-direct"), 1); best("pv" k "ms", metric("preview-ms"), 1); best("pv" k "dir", metric("direct-ms"), 1)
	best("pv" k "run", metric("run-ms"), 1); best("pv" k "read", metric("read-ms"), 1); best("pv" k "apply", metric("apply-ms"), 1)
}
/^BenchmarkSnapshot\/first/ { best("snapfirst", metric("ns/op") / 1e6, 1) }
/^BenchmarkSnapshot\/cached/ { best("snapnext", metric("ns/op") / 1e6, 1) }
/^BenchmarkCompare10MB/ { best("diff10", metric("ns/op") / 1e6, 1) }
/^BenchmarkUptime50\/first/ { best("fleet1", metric("ns/op") / 1e6, 1); best("fleetrss", metric("peak-RSS-MiB"), 1) }
/^BenchmarkUptime50\/reused/ { best("fleet2", metric("ns/op") / 1e6, 1); best("fleetrss", metric("peak-RSS-MiB"), 1) }
END {
	printf "%-44s %14s %14s\n", "benchmark", "result", "target"
	printf "%-44s %14s %14s\n", "--------------------------------------------", "--------------", "--------------"
	printf "%-44s %11.2f ms %14s\n", "run_cmd overhead over bash -c true (median)", B["ovmed"], "< 3 ms"
	printf "%-44s %11.2f ms %14s\n", "run_cmd overhead over bash -c true (min)", B["ovmin"], "< 3 ms"
	printf "%-44s %11.2f ms %14s\n", "  bare bash -c true (median)", B["bare"], ""
	printf "%-44s %11.2f ms %14s\n", "  run_cmd true (median)", B["nb"], ""
	printf "%-44s %9.0f MB/s %14s\n", "1 GiB through run_cmd: throughput", B["gib"], ">= 500 MB/s"
	printf "%-44s %9.0f MB/s %14s\n", "  same command into io.Discard (ceiling)", B["base"], ""
	printf "%-44s %10.2f MiB %14s\n", "1 GiB through run_cmd: peak RSS growth", B["rss"], "< 32 MiB"
	printf "%-44s %9.0f MB/s %14s\n", "1 GiB through run_cmd and the secret detector", B["gibw"], ""
	printf "%-44s %13.2fx %14s\n", "  its time over the raw pipeline", B["base"] / B["gibw"], "<= 1.5x"
	printf "%-44s %11.2f ms %14s\n", "  of it, the detector scanning the result", B["gibwd"], ""
	printf "%-44s %11.0f us %14s\n", "secret detector: a 10 KB result", B["redsw"], "< 1000 us"
	printf "%-44s %11.0f us %14s\n", "  the same, knowing the secrets of a home", B["redswk"], "< 1000 us"
	printf "%-44s %11.2f ms %14s\n", "secret detector: 52 KB of prose (README)", B["redme"], ""
	printf "%-44s %11.2f ms %14s\n", "  the same, knowing the secrets of a home", B["redmek"], ""
	printf "%-44s %12.1f s %14s\n", "secret detector: 1 GiB of output", B["redgib"], ""
	printf "%-44s %12.1f s %14s\n", "  the same, knowing the secrets of a home", B["redgibk"], ""
	printf "%-44s %11.2f ms %14s\n", "secret detector: rule set read (first scan)", B["redload"], ""
	printf "%-44s %11.2f ms %14s\n", "  start with a home's secrets known", B["redstart"], ""
	printf "%-44s %11.3f ms %14s\n", "capability detection, default tool list", B["detect"], "< 2 ms"
	printf "%-44s %9.0f MB/s %14s\n", "sandwich capture alone, one long line", B["cap1"], ""
	printf "%-44s %9.0f MB/s %14s\n", "sandwich capture alone, short lines", B["cap2"], ""
	printf "%-44s %11.2f ms %14s\n", "nb --version (whole process)", B["version"], "< 10 ms"
	printf "%-44s %11.2f ms %14s\n", "re-executed helper start (preview overlay)", B["helper"], ""
	printf "%-44s %11.2f ms %14s\n", "start-up to the first prompt", B["prompt"], "< 10 ms"
	printf "%-44s %11.2f ms %14s\n", "10,000-message history: start to request", B["histms"], "< 50 ms"
	printf "%-44s %10.2f MiB %14s\n", "10,000-message history: peak RSS", B["histrss"], "< 64 MiB"
	printf "%-44s %11.2f ms %14s\n", "tool-heavy 10,000 messages: start to request", B["toolms"], "<= 50 ms"
	printf "%-44s %11.2f ms %14s\n", "  CPU time to the request (all threads)", B["toolcpu"], ""
	printf "%-44s %10.2f MiB %14s\n", "tool-heavy 10,000 messages: peak RSS", B["toolrss"], "<= 64 MiB"
	printf "%-44s %11.2f ms %14s\n", "tool-heavy 10,000 messages: save of a turn", B["toolsave"], ""
	printf "%-44s %10.2f MiB %14s\n", "100 MB answer streamed: peak RSS", B["answerrss"], "<= 64 MiB"
	printf "%-44s %12.1f %% %14s\n", "30-day history: largest request / window", B["maxwin"], "< 100 %"
	printf "%-44s %12.1f %% %14s\n", "20-turn session: input tokens from cache", B["cached"], ">= 80 %"
	printf "%-44s %11.1f us %14s\n", "policy decision, one-line command", B["dec1"], "< 1000 us"
	printf "%-44s %11.2f ms %14s\n", "policy decision, 1,000-line script", B["dec1000"], "< 20 ms"
	printf "%-44s %11.2f ms %14s\n", "policy decision, 10,000-stage pipeline", B["decpipe"], "< 200 ms"
	printf "%-44s %11.1f us %14s\n", "policy decision, PowerShell pipeline", B["winpipe"], "< 1000 us"
	printf "%-44s %11.2f ms %14s\n", "policy decision, 1,000 lines of cmd.exe", B["win1000cmd"], "< 20 ms"
	printf "%-44s %11.2f ms %14s\n", "policy decision, 1,000 lines of PowerShell", B["win1000ps"], "< 20 ms"
	printf "%-44s %11.0f ms %14s\n", "policy check of 10,000 mixed commands", B["check10k"], "<= 377 ms"
	printf "%-44s %11.2f ms %14s\n", "command base load at start-up", B["baseload"], "< 2 ms"
	printf "%-44s %11.2f ms %14s\n", "secret files below a 5,000-file tree", B["secrets"], "< 20 ms"
	printf "%-44s %11.2f ms %14s\n", "terminal_continue echo hi (bash session)", B["echohi"], "< 100 ms"
	printf "%-44s %8.2f ms/s %14s\n", "CPU of 8 idle sessions", B["idle"], "near 0"
	printf "%-44s %9.0f MB/s %14s\n", "terminal session output throughput", B["sess"], ">= 50 MB/s"
	printf "%-44s %9.0f MB/s %14s\n", "  same output read from a bare PTY (ceiling)", B["sessbase"], ""
	printf "%-44s %11.0f ms %14s\n", "screen emulator, worst 1 MB hostile stream", hostile, "< 2000 ms"
	printf "%-44s %11.0f ms %14s\n", "markdown: 1 MB line streamed in 16 B chunks", B["mdline"], "< 2000 ms"
	printf "%-44s %11.2f ms %14s\n", "MCP stdio tools/call run_cmd true (p50)", B["mcpcall"], "< 5 ms"
	printf "%-44s %11.2f ms %14s\n", "  the same, in the read-only sandbox (p50)", B["mcpcallsb"], ""
	printf "%-44s %11.2f ms %14s\n", "MCP server start to initialize", B["mcpinit"], "< 20 ms"
	printf "%-44s %11.2f ms %14s\n", "run true: local host", B["local"], ""
	printf "%-44s %11.2f ms %14s\n", "run true: sandbox (nb namespaces)", B["nsrun"], "local + 15 ms"
	printf "%-44s %11.2f ms %14s\n", "run true: sandbox (bubblewrap)", B["bwrap"], "local + 15 ms"
	printf "%-44s %11.2f ms %14s\n", "run true: sandbox (Landlock)", B["landlock"], "local + 15 ms"
	printf "%-44s %11.2f ms %14s\n", "run true: read-only sandbox (nb namespaces)", B["ronsrun"], "local + 10 ms"
	printf "%-44s %11.2f ms %14s\n", "run true: read-only sandbox (bubblewrap)", B["robwrap"], "local + 10 ms"
	printf "%-44s %11.2f ms %14s\n", "run true: read-only sandbox (Landlock)", B["rolandlock"], "local + 10 ms"
	printf "%-44s %11.2f ms %14s\n", "read-only layout, 5,000-file workspace", B["rolayout"], ""
	printf "%-44s %11.2f ms %14s\n", "nb tool run_cmd true, unsandboxed (process)", B["toolplain"], ""
	printf "%-44s %11.2f ms %14s\n", "nb tool run_cmd true, read-only sandbox", B["toolsb"], ""
	printf "%-44s %11.2f ms %14s\n", "  added by the sandbox (median)", B["tooladded"], "< 10 ms"
	printf "%-44s %11.2f ms %14s\n", "run true: ssh over loopback, open connection", B["ssh"], "local + 10 ms"
	printf "%-44s %11.2f ms %14s\n", "  bare ssh session running true", B["sshbare"], ""
	printf "%-44s %11.0f ms %14s\n", "fleet: uptime on 50 loopback hosts", B["fleet1"], "< 2000 ms"
	printf "%-44s %11.0f ms %14s\n", "fleet: the same, connections reused", B["fleet2"], "first / 3"
	printf "%-44s %10.2f MiB %14s\n", "fleet: peak RSS", B["fleetrss"], "< 64 MiB"
	for (fi = 1; fi <= 2; fi++) {
		fs = fi == 1 ? "disk" : "tmpfs"
		for (ci = 1; ci <= 2; ci++) {
			c = ci == 1 ? "sed" : "1000"
			k = fs c
			if (!(("pv" k) in B)) continue
			what = c == "sed" ? "sed -i on 10 MB" : "a command on 1,000 files"
			printf "%-44s %12.2f x %14s\n", "preview, " fs ": " what " / direct", B["pv" k], "< 2 x"
			printf "%-44s %11.0f ms %14s\n", "  previewed and applied", B["pv" k "ms"], ""
			printf "%-44s %11.0f ms %14s\n", "  run directly", B["pv" k "dir"], ""
			printf "%-44s %11.0f ms %14s\n", "  preview: the run in the view", B["pv" k "run"], ""
			printf "%-44s %11.0f ms %14s\n", "  preview: reading the changes", B["pv" k "read"], ""
			printf "%-44s %11.0f ms %14s\n", "  preview: applying them", B["pv" k "apply"], ""
		}
	}
	printf "%-44s %11.0f ms %14s\n", "undo snapshot, 10,000-file repository, first", B["snapfirst"], ""
	printf "%-44s %11.0f ms %14s\n", "undo snapshot, 10,000 files, stat cache warm", B["snapnext"], ""
	printf "%-44s %11.0f ms %14s\n", "diff of two 10 MB texts (50 lines changed)", B["diff10"], ""
}' "$out"
