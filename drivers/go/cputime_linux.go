//go:build linux

package main

import (
	"syscall"
	"unsafe"
)

// clockThreadCPUTimeID is CLOCK_THREAD_CPUTIME_ID (<linux/time.h>).
const clockThreadCPUTimeID = 3

// threadCPUNanos is the CPU time of the calling OS thread (main locks its
// goroutine to one thread), or -1 when the clock cannot be read.
func threadCPUNanos() int64 {
	var ts syscall.Timespec
	_, _, errno := syscall.RawSyscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0)
	if errno != 0 {
		return -1
	}
	return ts.Nano()
}
