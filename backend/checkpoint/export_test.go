package checkpoint

// SetBeforeWrite lets a test change a file between an undo's plan and its
// write.
func SetBeforeWrite(fn func(rel string)) func() {
	beforeWrite = fn
	return func() { beforeWrite = nil }
}
