//go:build windows

package checkpoint

const openNoBlock = 0
