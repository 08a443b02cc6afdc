package chat

import (
	"errors"
	"fmt"
)

// Error codes, mapped to the frontend once, at the app boundary.
const (
	CodeInvalid  = "invalid"   // the caller sent something unusable
	CodeNotFound = "not_found" // the id names nothing
	CodeConflict = "conflict"  // the request clashes with current state
	CodeInternal = "internal"  // our fault: storage, bugs
	CodeModel    = "model"     // the model server failed
	CodeStorage  = "storage"   // the database cannot be written or read
)

// Error is an error with a code and a message fit for a person.
type Error struct {
	Code    string
	Message string
}

func (e *Error) Error() string { return e.Message }

// Errorf returns an *Error with the given code.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrorCode returns the code of the first *Error in err's chain, CodeInternal
// for any other error, and "" for nil.
func ErrorCode(err error) string {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return CodeInternal
}

// ErrorMessage returns the person-readable message of err.
func ErrorMessage(err error) string {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Message
	}
	return err.Error()
}
