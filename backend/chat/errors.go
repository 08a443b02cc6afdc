package chat

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
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
// the message. Field, on an invalid input, names the field it is about as
// the input's JSON names it ("maxSteps", "baseUrl"), so that the window
// can mark that field.
type Error struct {
	Code    string
	Message string
	Cause   error
	Field   string
}

func (e *Error) Error() string { return e.Message }

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Cause }

// Errorf returns an *Error with the given code.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Invalidf returns a CodeInvalid *Error about the input's field (its JSON
// name); the message is a sentence a person reads as it is.
func Invalidf(field, format string, args ...any) *Error {
	return &Error{Code: CodeInvalid, Message: fmt.Sprintf(format, args...), Field: field}
}

// OnField returns err about the input's field: a *Error gets the field
// (when it names none yet), any other error is returned as it is.
func OnField(field string, err error) error {
	var e *Error
	if !errors.As(err, &e) || e.Field != "" {
		return err
	}
	about := *e
	about.Field = field
	return &about
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

// ErrorField returns the field of the first *Error in err's chain that
// names one, and "" when none does.
func ErrorField(err error) string {
	for err != nil {
		var e *Error
		if !errors.As(err, &e) {
			return ""
		}
		if e.Field != "" {
			return e.Field
		}
		err = e.Cause
	}
	return ""
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

// Sentence returns s as a sentence a person reads as it is: its first
// letter upper-case (unless s starts with an address, "http://…"), and a
// full stop at its end unless it ends in one already. It is for text made
// of other programs' words, such as a server's answer or a network
// error; Errand's own messages are written as sentences.
func Sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return s
	}
	if !startsWithAddress(s) {
		r, size := utf8.DecodeRuneInString(s)
		s = string(unicode.ToUpper(r)) + s[size:]
	}
	if strings.ContainsAny(s[len(s)-1:], ".!?") {
		return s
	}
	return s + "."
}

// startsWithAddress reports whether s starts with a URL scheme and "://".
func startsWithAddress(s string) bool {
	scheme, _, found := strings.Cut(s, "://")
	return found && scheme != "" && strings.Trim(scheme, "abcdefghijklmnopqrstuvwxyz0123456789+.-") == ""
}
