package container

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/nb-cli/nb/internal/host"
	"github.com/nb-cli/nb/internal/host/hosttest"
	"github.com/nb-cli/nb/internal/host/shwrap"
	"github.com/nb-cli/nb/internal/testenv"
)

// engine skips the test when no Docker engine answers.
func engine(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("docker"); err != nil {
		testenv.Unavailable(t, "container tests skipped: the docker CLI is not installed")
	}
	h, _ := New(Options{Image: "x", LaunchDir: "/"})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := h.Check(ctx); err != nil {
		testenv.Unavailable(t, fmt.Sprintf("container tests skipped: %v", err))
	}
}

func TestArgv(t *testing.T) {
	h, err := New(Options{Image: "alpine:3", LaunchDir: "/work/p"})
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(h.argv("nbX", "/work/p/sub", []string{"A=1"}, false, []string{"-c", "s"}), " ")
	want := "docker run --rm -i --name nbX --init -v /work/p:/work/p -w /work/p/sub -e A=1 alpine:3 sh -c s"
	if got != want {
		t.Errorf("run argv:\n%s\nwant\n%s", got, want)
	}
	h, _ = New(Options{Container: "dev", Docker: "podman", Shell: "bash"})
	got = strings.Join(h.argv("nbX", "/src", nil, true, []string{"-c", "s"}), " ")
	want = "podman exec -i -t -w /src dev bash -c s"
	if got != want {
		t.Errorf("exec argv:\n%s\nwant\n%s", got, want)
	}
	if h.Isolation() != host.IsolationContainer {
		t.Error(h.Isolation())
	}
	if _, err := New(Options{}); err == nil {
		t.Error("no container or image accepted")
	}
}

func TestNoEngine(t *testing.T) {
	// A CLI that cannot reach an engine (the real docker CLI pointed at a
	// socket nobody listens on).
	if _, err := exec.LookPath("docker"); err != nil {
		testenv.Unavailable(t, "the docker CLI is not installed")
	}
	env := append(os.Environ(), "DOCKER_HOST=unix://"+t.TempDir()+"/none.sock")
	h, _ := New(Options{Image: "alpine:3", LaunchDir: t.TempDir(), Env: env})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err := h.Run(ctx, &host.Command{Script: "true"})
	if err == nil || !strings.Contains(err.Error(), "container provider: no Docker engine answers") {
		t.Fatalf("want a clear no-engine error, got %v", err)
	}
	if _, err := h.StartPTY(ctx, &host.PTYCommand{Script: "true"}); err == nil {
		t.Fatal("pty started without an engine")
	}
	t.Log(err)
}

func TestConformanceRun(t *testing.T) {
	engine(t)
	image := os.Getenv("NB_TEST_IMAGE")
	if image == "" {
		image = "alpine:3"
	}
	hosttest.Run(t, func(t *testing.T, dir string) host.Host {
		h, err := New(Options{Image: image, LaunchDir: dir})
		if err != nil {
			t.Fatal(err)
		}
		return h
	})
}

func TestConformanceExec(t *testing.T) {
	engine(t)
	name := os.Getenv("NB_TEST_CONTAINER")
	if name == "" {
		t.Skip("set NB_TEST_CONTAINER to a running container sharing /tmp to test docker exec")
	}
	hosttest.Run(t, func(t *testing.T, dir string) host.Host {
		h, err := New(Options{Container: name})
		if err != nil {
			t.Fatal(err)
		}
		return h
	})
}

func TestEnvScrubbed(t *testing.T) {
	engine(t)
	image := os.Getenv("NB_TEST_IMAGE")
	if image == "" {
		image = "alpine:3"
	}
	h, err := New(Options{Image: image, LaunchDir: t.TempDir(), EnvPolicy: hosttest.CanaryPolicy})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	// The canaries reach the container's environment (docker -e); the
	// wrapper removes them inside it before the script runs.
	r := hosttest.Exec(t, context.Background(), h, host.Command{Script: "env", Env: hosttest.Canaries, Timeout: 20 * time.Second})
	hosttest.CheckScrubbed(t, "container", r.Stdout)
}

func TestArgvScrubsEnv(t *testing.T) {
	p := host.EnvPolicy{Pass: []string{"NBT_X"}}
	args := shwrap.Args("m", "/d", "env", true, p.RemoteScrub())
	if !strings.Contains(args[1], p.RemoteScrub()+`eval "$1"`) {
		t.Fatalf("wrapper does not scrub before the script: %q", args[1])
	}
}
