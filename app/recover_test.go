package app

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/errand-app/errand/backend/chat"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A panic inside a bound method is an error the window sees (Wails
// itself would recover it and answer nothing: the promise would never
// settle).
func TestAPanicInABoundMethodIsAnError(t *testing.T) {
	err := func() (err error) {
		defer recovered(&err)
		var m map[string]int
		m["boom"] = 1
		return nil
	}()
	require.Error(t, err)
	assert.Equal(t, chat.CodeInternal, code(err))
	assert.Contains(t, frontendError(err).Message, "internal error")
}

// Every bound method that can answer with an error defers recovered
// first, so that no panic leaves the window waiting.
func TestEveryBoundMethodRecoversAPanic(t *testing.T) {
	bound := map[string]bool{}
	for _, svc := range newApp(t).Bound() {
		bound[reflect.TypeOf(svc).Elem().Name()] = true
	}
	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	fset := token.NewFileSet()
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		require.NoError(t, err)
		f, err := parser.ParseFile(fset, name, src, 0)
		require.NoError(t, err)
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv == nil || !fn.Name.IsExported() || !returnsError(fn) {
				continue
			}
			star, ok := fn.Recv.List[0].Type.(*ast.StarExpr)
			if !ok || !bound[star.X.(*ast.Ident).Name] {
				continue
			}
			checked++
			assert.True(t, defersRecovered(fn), "%s.%s does not defer recovered(&err) first", star.X, fn.Name)
		}
	}
	assert.Greater(t, checked, 50)
}

func returnsError(fn *ast.FuncDecl) bool {
	res := fn.Type.Results
	if res == nil || len(res.List) == 0 {
		return false
	}
	id, ok := res.List[len(res.List)-1].Type.(*ast.Ident)
	return ok && id.Name == "error"
}

func defersRecovered(fn *ast.FuncDecl) bool {
	if fn.Body == nil || len(fn.Body.List) == 0 {
		return false
	}
	d, ok := fn.Body.List[0].(*ast.DeferStmt)
	if !ok {
		return false
	}
	id, ok := d.Call.Fun.(*ast.Ident)
	return ok && id.Name == "recovered"
}

// A damaged version-1 file (a conversation that is null) is refused with
// the reason through the window's Import, and nothing is imported.
func TestADamagedVersion1FileIsRefusedNotAPanic(t *testing.T) {
	a := newApp(t)
	path := filepath.Join(t.TempDir(), "old.json")
	require.NoError(t, os.WriteFile(path, []byte(`{"format":"errand.conversation","version":1,"conversations":[null]}`), 0o600))
	a.Archive.dialogs = &answered{answers: []string{path}}
	_, err := a.Archive.ImportConversations()
	assert.Equal(t, chat.CodeInvalid, code(err))
	assert.Contains(t, chat.ErrorMessage(err), "damaged")
	list, err := a.Conversations.ListConversations()
	require.NoError(t, err)
	assert.Empty(t, list)
}
