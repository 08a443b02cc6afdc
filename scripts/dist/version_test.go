package main

import "testing"

// Debian and Windows get a version that begins with the tag's numbers; a
// build before the first tag is 0.0.0 plus its commit, and a later commit
// sorts after its tag for dpkg ("+", not "-").
func TestVersionsForDebianAndWindows(t *testing.T) {
	cases := []struct{ git, deb, win string }{
		{"v1.2.3", "1.2.3", "1.2.3"},
		{"v1.2.3-4-gabc1234-dirty", "1.2.3+4+gabc1234+dirty", "1.2.3-4-gabc1234-dirty"},
		{"29adf05-dirty", "0.0.0+29adf05+dirty", "0.0.0-29adf05-dirty"},
		{"bf8be0f", "0.0.0+bf8be0f", "0.0.0-bf8be0f"},
	}
	for _, c := range cases {
		if got := debVersion(c.git); got != c.deb {
			t.Errorf("debVersion(%q) = %q, want %q", c.git, got, c.deb)
		}
		if got := windowsVersion(c.git); got != c.win {
			t.Errorf("windowsVersion(%q) = %q, want %q", c.git, got, c.win)
		}
	}
}
