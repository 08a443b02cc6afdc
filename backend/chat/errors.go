package chat

import (
	"errors"
	"fmt"
	"strings"
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

// Error is an error with a code and a message fit for a person. Its
// Cause, when there is one, is what went wrong underneath: kept for
// errors.Is and errors.As and for the log (see Details), never shown as
// the message.
type Error struct {
	Code    string
	Message string
	Cause   error
}

func (e *Error) Error() string { return e.Message }

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Cause }

// Errorf returns an *Error with the given code.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Wrap returns an *Error with the given code and a message for a person,
// keeping cause in its chain.
func Wrap(code string, cause error, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...), Cause: cause}
}

// Details is err's text followed by what its chain says beyond it — the
// cause a *Error keeps out of its message, and any other error's words
// that the text above it left out — for a log or a "copy details":
// "message: caused by: cause". Text already said is not repeated.
func Details(err error) string {
	if err == nil {
		return ""
	}
	text := err.Error()
	var walk func(error, int)
	walk = func(e error, depth int) {
		if e == nil || depth > 32 {
			return
		}
		if t := e.Error(); !strings.Contains(text, t) {
			text += ": caused by: " + t
		}
		switch u := e.(type) {
		case interface{ Unwrap() error }:
			walk(u.Unwrap(), depth+1)
		case interface{ Unwrap() []error }:
			for _, inner := range u.Unwrap() {
				walk(inner, depth+1)
			}
		}
	}
	walk(err, 0)
	return text
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
