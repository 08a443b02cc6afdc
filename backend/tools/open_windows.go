//go:build windows

package tools

// openNoBlock is nothing on Windows, whose files in a folder do not block
// on opening.
const openNoBlock = 0
