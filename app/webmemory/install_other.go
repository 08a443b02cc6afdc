//go:build !linux

package webmemory

// supported: only WebKitGTK (Linux) loads extensions; WebView2 gives back
// its memory itself.
const supported = false

func useExtensions(string) error { return nil }
