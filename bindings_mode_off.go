//go:build !bindings

package main

const generatingBindings = false
