/*
 * bcryptprimitives.dll for Wine prefixes that lack ProcessPrng.
 *
 * Go 1.24 and later fill their random state from ProcessPrng, which
 * Windows 10+ exports from bcryptprimitives.dll and Wine 8 does not.
 * This DLL exports it, filling the buffer with RtlGenRandom
 * (advapi32!SystemFunction036). scripts/wine-setup.sh builds it with
 * x86_64-w64-mingw32-gcc and copies it into the prefix's system32.
 */
#include <windows.h>

typedef BOOLEAN(WINAPI *rtlgenrandom_fn)(PVOID, ULONG);

static rtlgenrandom_fn rtlgenrandom;

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len)
{
	if (!rtlgenrandom) {
		HMODULE advapi = LoadLibraryA("advapi32.dll");
		if (!advapi)
			return FALSE;
		rtlgenrandom = (rtlgenrandom_fn)GetProcAddress(advapi, "SystemFunction036");
		if (!rtlgenrandom)
			return FALSE;
	}
	while (len > 0) {
		ULONG chunk = len > 0x40000000 ? 0x40000000 : (ULONG)len;
		if (!rtlgenrandom(data, chunk))
			return FALSE;
		data += chunk;
		len -= chunk;
	}
	return TRUE;
}

BOOL WINAPI DllMain(HINSTANCE inst, DWORD reason, LPVOID reserved)
{
	(void)inst;
	(void)reason;
	(void)reserved;
	return TRUE;
}
