//go:build bindings

package main

// The Wails CLI builds the app with the "bindings" tag and runs it to
// generate frontend/wailsjs. That run must not touch the person's data.
const generatingBindings = true
