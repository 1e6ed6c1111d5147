package hosttest

import (
	"testing"

	"github.com/nb-cli/nb/internal/host"
)

func TestLocal(t *testing.T) {
	Run(t, func(t *testing.T, dir string) host.Host { return &host.Local{} })
}

func TestLocalSh(t *testing.T) {
	Run(t, func(t *testing.T, dir string) host.Host { return &host.Local{Shell: "/bin/sh"} })
}
