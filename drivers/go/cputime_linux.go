//go:build linux

package main

import (
	"syscall"
	"unsafe"
)

// CLOCK_PROCESS_CPUTIME_ID and CLOCK_THREAD_CPUTIME_ID (<linux/time.h>).
const (
	clockProcessCPUTimeID = 2
	clockThreadCPUTimeID  = 3
)

// threadCPUNanos is the CPU time of the calling OS thread (main locks its
// goroutine to one thread), or -1 when the clock cannot be read.
func threadCPUNanos() int64 { return cpuClock(clockThreadCPUTimeID) }

// processCPUNanos is the CPU time of the whole process, every thread (the
// garbage collector's included), or -1 when the clock cannot be read.
func processCPUNanos() int64 { return cpuClock(clockProcessCPUTimeID) }

func cpuClock(id uintptr) int64 {
	var ts syscall.Timespec
	_, _, errno := syscall.RawSyscall(syscall.SYS_CLOCK_GETTIME, id, uintptr(unsafe.Pointer(&ts)), 0)
	if errno != 0 {
		return -1
	}
	return ts.Nano()
}
