package app

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The window's GTK and JavaScriptCore switches are set unless the person
// chose otherwise: scrollbars that stay in place (no overlay that fades in
// and out, painting the window at every frame), GDK without OpenGL (its
// start would ask the GL driver for visuals the window never draws with),
// and JavaScript without FTL (its compiles took CPU from the page's frames).
func TestTheWindowsSwitchesAreSetUnlessThePersonChose(t *testing.T) {
	for _, c := range []struct {
		set                 func()
		name, ours, persons string
	}{
		{keepScrollbars, overlayScrolling, "0", "1"},
		{skipGDKGL, gdkGL, "disable", "always"},
		{skipFTL, jscFTL, "false", "true"},
	} {
		t.Setenv(c.name, "") // restored after the test
		require.NoError(t, os.Unsetenv(c.name))
		c.set()
		assert.Equal(t, c.ours, os.Getenv(c.name), "%s: nothing chosen", c.name)

		t.Setenv(c.name, c.persons)
		c.set()
		assert.Equal(t, c.persons, os.Getenv(c.name), "%s: the person's choice", c.name)
	}
}
