package chat

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWrapKeepsTheCauseOutOfTheMessage(t *testing.T) {
	_, cause := os.Open(filepath.Join(t.TempDir(), "missing"))
	require.Error(t, cause)
	err := Wrap(CodeStorage, cause, "the %s cannot be read", "file")

	assert.Equal(t, "the file cannot be read", err.Error())
	assert.True(t, errors.Is(err, fs.ErrNotExist))
	var pe *os.PathError
	require.True(t, errors.As(err, &pe))
	assert.Equal(t, "open", pe.Op)

	// Wrapped again, the code and the message are still the first *Error's.
	outer := fmt.Errorf("load: %w", err)
	assert.Equal(t, CodeStorage, ErrorCode(outer))
	assert.Equal(t, "the file cannot be read", ErrorMessage(outer))
	assert.True(t, errors.Is(outer, fs.ErrNotExist))
}

func TestErrorfHasNoCause(t *testing.T) {
	err := Errorf(CodeInvalid, "no %s", "id")
	assert.Nil(t, errors.Unwrap(err))
	assert.Equal(t, CodeInvalid, ErrorCode(err))
	assert.Equal(t, "no id", ErrorMessage(err))
	assert.Equal(t, "no id", Details(err))
}

func TestDetailsFollowsTheCauses(t *testing.T) {
	assert.Equal(t, "", Details(nil))
	assert.Equal(t, "plain", Details(errors.New("plain")))

	inner := Wrap(CodeInternal, errors.New("disk I/O error (10)"), "the database failed")
	outer := Wrap(CodeStorage, fmt.Errorf("save: %w", inner), "Errand could not save")
	assert.Equal(t, "Errand could not save: caused by: save: the database failed: caused by: disk I/O error (10)", Details(outer))

	// Another error that keeps its cause's words out of its text.
	hidden := &quiet{msg: "request failed", err: errors.New("connection reset")}
	assert.Equal(t, "load: request failed: caused by: connection reset", Details(fmt.Errorf("load: %w", hidden)))
	assert.Equal(t, "a\nb: caused by: c", Details(errors.Join(errors.New("a"), &quiet{msg: "b", err: errors.New("c")})))

	// A cause already in the message is not repeated.
	cause := errors.New("keyring locked")
	assert.Equal(t, "read the key: keyring locked",
		Details(Wrap(CodeInternal, cause, "read the key: %v", cause)))
}

type quiet struct {
	msg string
	err error
}

func (q *quiet) Error() string { return q.msg }
func (q *quiet) Unwrap() error { return q.err }
