//go:build !linux

package main

// threadCPUNanos: no per-thread CPU clock is read outside Linux.
func threadCPUNanos() int64 { return -1 }

// processCPUNanos: nor the process's.
func processCPUNanos() int64 { return -1 }
