package app

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// The page's steps of its start reach the log in the order they happened,
// so a slow start says where its time went; a window that sends none
// (an older page) logs nothing.
func TestTheFirstScreensStepsAreLoggedInTheOrderTheyHappened(t *testing.T) {
	logs := captureLog(t)
	w := &Window{}
	w.Ready(map[string]float64{"painted": 297.4, "module": 103, "html": 4.2, "first-paint": 170, "health": 194})
	assert.Contains(t, logs.String(), `msg="first screen" ms="html=4 module=103 first-paint=170 health=194 painted=297"`)

	logs.Reset()
	w.Ready(nil)
	assert.NotContains(t, logs.String(), "first screen")
}
