package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// root is the repository, from this package's folder.
const root = "../../.."

// TestContractIsCurrent fails when contract.gen.ts is not what Go makes of
// its event names, error codes and string constants: a name added, renamed
// or removed on one side only.
func TestContractIsCurrent(t *testing.T) {
	want, err := generate(root)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(root, outFile))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s differs from what Go generates: run `make bindings` and commit it.\n%s", outFile, firstDifference(string(got), string(want)))
	}
}

// TestModelsAreTyped fails when Wails typed a field of the bindings as
// any: a time.Time field needs the tag ts_type:"string".
func TestModelsAreTyped(t *testing.T) {
	models, err := os.ReadFile(filepath.Join(root, "frontend/wailsjs/go/models.ts"))
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(string(models), "\n") {
		if strings.Contains(line, ": any") {
			t.Errorf("models.ts:%d: %s (give the Go field a ts_type tag)", i+1, strings.TrimSpace(line))
		}
	}
}

// TestEventsLiveInOneFile: an event name declared anywhere but
// app/events.go is refused.
func TestEventsLiveInOneFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Join(dir, "app"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "app", name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("events.go", "package app\n\nconst (\n\tEventTaskUpdate = \"agent:taskUpdate\"\n\tEventMCPServer = \"mcp:server\"\n)\n")
	var b bytes.Buffer
	if err := writeEvents(&b, dir); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"taskUpdate: 'agent:taskUpdate',", "mcpServer: 'mcp:server',"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("EVENTS lacks %q:\n%s", want, b.String())
		}
	}
	write("other.go", "package app\n\nconst EventElsewhere = \"app:elsewhere\"\n")
	err := writeEvents(&bytes.Buffer{}, dir)
	if err == nil || !strings.Contains(err.Error(), "EventElsewhere belongs in app/events.go") {
		t.Fatalf("an event outside events.go: err = %v", err)
	}
}

// TestUnionsNeedConstants: a union whose Go constants are gone is an
// error, never an empty type.
func TestUnionsNeedConstants(t *testing.T) {
	err := writeUnion(&bytes.Buffer{}, root, union{name: "Gone", list: "GONE", dir: "backend/chat", goType: "NoSuchType"})
	if err == nil {
		t.Fatal("a union without constants was written")
	}
}

func firstDifference(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return fmt.Sprintf("line %d:\n  committed: %s\n  from Go:   %s", i+1, gl, wl)
		}
	}
	return ""
}
