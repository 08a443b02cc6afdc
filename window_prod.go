//go:build !dev

package main

import "github.com/wailsapp/wails/v2/pkg/options/assetserver"

// devWindow changes nothing outside the development build (window_dev.go).
func devWindow(*assetserver.Options) {}
