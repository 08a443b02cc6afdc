package main

// The -stops case's last figures: the CPU the app's processes (Go, the
// web process, the network process) use while its window waits — with
// nothing running, and while a task waits for the model (its reply held
// open, the window's spinners on). A person leaves Errand like that for
// minutes; what it costs them is these.

import (
	"fmt"
	"time"

	"github.com/errand-app/errand/e2e/bench/longreply"
)

// cpuSpan is how long each CPU figure is read over, after cpuSettle.
const (
	cpuSpan   = 5 * time.Second
	cpuSettle = 2 * time.Second
)

// cpuOver is the share of one CPU, in percent, the app's tree used over d
// (read in clock ticks of 10 ms: one is 0.2% over 5 s).
func (l *live) cpuOver(d time.Duration) float64 {
	before := treeCPU(l.pid)
	time.Sleep(d)
	return float64(treeCPU(l.pid)-before) / d.Seconds() // 100 ticks a second: ticks/s is %
}

// waitQuiet waits until the app's tree has been idle (cpuMeter: at most
// 2 clock ticks in each half second) for d, or for limit at most.
func (l *live) waitQuiet(d, limit time.Duration) {
	m := newCPUMeter(l.pid)
	quietSince := time.Now()
	for start := time.Now(); time.Since(quietSince) < d && time.Since(start) < limit; {
		time.Sleep(500 * time.Millisecond)
		if !m.idle() {
			quietSince = time.Now()
		}
	}
}

// waitingCPU reads the CPU with the window idle — once the work the last
// Stop left (a 5 MB reply read again and laid out) is done: the tree
// quiet for cpuSettle, within a minute — then with a task waiting for the
// model in a new conversation (a short reply, held open).
func (l *live) waitingCPU() (idle, waiting float64, err error) {
	l.waitQuiet(cpuSettle, time.Minute)
	idle = l.cpuOver(cpuSpan)
	if err := xdotool("key", "ctrl+n"); err != nil {
		return 0, 0, err
	}
	const n = 3000
	sent := time.Now().UnixMilli()
	if err := l.send(fmt.Sprintf("/task [long %d] stop me to read the CPU", n)); err != nil {
		return 0, 0, err
	}
	// The whole reply stored: the window is done with its text.
	if _, err := l.waitStored(sent, len(longreply.Markdown(n))); err != nil {
		return 0, 0, err
	}
	time.Sleep(cpuSettle)
	return idle, l.cpuOver(cpuSpan), nil
}
