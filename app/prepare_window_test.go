package app

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The window's scrollbars stay in place (no overlay that fades in and out,
// painting the window at every frame), unless the person chose otherwise.
func TestTheWindowKeepsItsScrollbarsUnlessThePersonChose(t *testing.T) {
	t.Setenv(overlayScrolling, "") // restored after the test
	require.NoError(t, os.Unsetenv(overlayScrolling))
	keepScrollbars()
	assert.Equal(t, "0", os.Getenv(overlayScrolling), "nothing chosen: scrollbars that stay")

	t.Setenv(overlayScrolling, "1")
	keepScrollbars()
	assert.Equal(t, "1", os.Getenv(overlayScrolling), "the person's choice")
}

// GDK starts without OpenGL (its start would ask the GL driver for visuals
// the window never draws with), unless the person set GDK_GL.
func TestGDKStartsWithoutOpenGLUnlessThePersonChose(t *testing.T) {
	t.Setenv(gdkGL, "") // restored after the test
	require.NoError(t, os.Unsetenv(gdkGL))
	skipGDKGL()
	assert.Equal(t, "disable", os.Getenv(gdkGL), "nothing chosen: no OpenGL")

	t.Setenv(gdkGL, "always")
	skipGDKGL()
	assert.Equal(t, "always", os.Getenv(gdkGL), "the person's choice")
}
