package secrets

import "syscall"

// Identity returns the identity and hard-link count of the file at p,
// links followed.
func Identity(p string) (FileID, uint64, error) {
	name, err := syscall.UTF16PtrFromString(p)
	if err != nil {
		return FileID{}, 0, err
	}
	h, err := syscall.CreateFile(name, 0, syscall.FILE_SHARE_READ|syscall.FILE_SHARE_WRITE|syscall.FILE_SHARE_DELETE,
		nil, syscall.OPEN_EXISTING, syscall.FILE_FLAG_BACKUP_SEMANTICS, 0)
	if err != nil {
		return FileID{}, 0, err
	}
	defer syscall.CloseHandle(h)
	var info syscall.ByHandleFileInformation
	if err := syscall.GetFileInformationByHandle(h, &info); err != nil {
		return FileID{}, 0, err
	}
	return FileID{Dev: uint64(info.VolumeSerialNumber), Ino: uint64(info.FileIndexHigh)<<32 | uint64(info.FileIndexLow)}, uint64(info.NumberOfLinks), nil
}
