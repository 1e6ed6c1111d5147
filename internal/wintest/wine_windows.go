package wintest

import "golang.org/x/sys/windows"

// Wine reports whether this Windows is Wine (ntdll exports
// wine_get_version).
func Wine() bool {
	return windows.NewLazySystemDLL("ntdll.dll").NewProc("wine_get_version").Find() == nil
}
