package tools

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// counted is a test server that counts the requests it gets.
func counted(t *testing.T, body string) (*atomic.Int32, string) {
	t.Helper()
	var n atomic.Int32
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		fixed(200, "text/plain", body)(w, r)
	})
	return &n, srv.URL
}

// hostOf is the host:port of a URL.
func hostOf(t *testing.T, raw string) string {
	t.Helper()
	u, err := url.Parse(raw)
	require.NoError(t, err)
	return u.Host
}

// localAccessErr runs fetch_url and returns the LocalAccessError it must
// fail with, checking that no result goes to the model with it.
func localAccessErr(t *testing.T, env Env, target string) *LocalAccessError {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := callCtx(t, ctx, FetchURL{}, env, map[string]any{"url": target})
	require.Error(t, err, "a local address must not be reached silently; got %+v", res)
	require.NoError(t, ctx.Err(), "the refusal must come at once")
	var lae *LocalAccessError
	require.True(t, errors.As(err, &lae), "want a *LocalAccessError, got %T: %v", err, err)
	assert.Equal(t, Result{}, res)
	return lae
}

func TestFetchLoopbackNeedsApproval(t *testing.T) {
	hits, srvURL := counted(t, "local page")
	addr := hostOf(t, srvURL)

	lae := localAccessErr(t, Env{}, srvURL+"/x")
	assert.Equal(t, addr, lae.Address, "the address is shown")
	assert.Equal(t, srvURL+"/x", lae.URL)
	assert.Equal(t, "fetch_url wants to reach a local network address "+addr+" ("+srvURL+"/x)", lae.Error())
	assert.Zero(t, hits.Load(), "nothing reached the server")

	// Another address on the same machine is not covered by an approval.
	lae = localAccessErr(t, Env{AllowLocal: []string{"127.0.0.1:1"}}, srvURL+"/x")
	assert.Equal(t, addr, lae.Address)
	assert.Zero(t, hits.Load())

	// Approved, the same call works.
	res, err := call(t, FetchURL{}, Env{AllowLocal: []string{addr}}, map[string]any{"url": srvURL + "/x"})
	require.NoError(t, err)
	assert.False(t, res.IsError, res.Content)
	assert.True(t, strings.HasSuffix(res.Content, "\n\nlocal page"), res.Content)
	assert.Equal(t, int32(1), hits.Load())

	// The approval was for that one call: the next one asks again.
	localAccessErr(t, Env{}, srvURL+"/x")
	assert.Equal(t, int32(1), hits.Load())
}

func TestFetchLocalhostByNameNeedsApproval(t *testing.T) {
	hits, srvURL := counted(t, "by name")
	port := hostOf(t, srvURL)[strings.LastIndex(hostOf(t, srvURL), ":")+1:]
	byName := "http://localhost:" + port + "/page"

	lae := localAccessErr(t, Env{}, byName)
	assert.Contains(t, []string{"127.0.0.1:" + port, "[::1]:" + port}, lae.Address, "the address localhost resolved to")
	assert.Equal(t, byName, lae.URL)
	assert.Zero(t, hits.Load())

	// Both of localhost's addresses approved: the page comes.
	env := Env{AllowLocal: []string{"127.0.0.1:" + port, "[::1]:" + port}}
	res, err := call(t, FetchURL{}, env, map[string]any{"url": byName})
	require.NoError(t, err)
	assert.False(t, res.IsError, res.Content)
	assert.True(t, strings.HasSuffix(res.Content, "\n\nby name"), res.Content)
}

func TestFetchPrivateAndLinkLocalAddressesNeedApproval(t *testing.T) {
	// Refused before connecting, so none of these needs a network: an
	// address that were dialled would hang or fail with another error.
	for _, c := range []struct{ url, addr string }{
		{"http://10.0.0.1:9/", "10.0.0.1:9"},
		{"http://172.16.5.4/", "172.16.5.4:80"},
		{"https://192.168.1.1/admin", "192.168.1.1:443"},
		{"http://100.64.0.1:8080/", "100.64.0.1:8080"},
		{"http://169.254.169.254/latest/meta-data/", "169.254.169.254:80"},
		{"http://[fd00::1]:8080/", "[fd00::1]:8080"},
		{"http://[fe80::1]:8080/", "[fe80::1]:8080"},
		{"http://0.0.0.0:9/", "0.0.0.0:9"},
		{"http://[::1]:9/", "[::1]:9"},
		{"http://[::]:9/", "[::]:9"},
		{"http://127.1.2.3:9/", "127.1.2.3:9"},
		{"http://[::ffff:127.0.0.1]:9/", "127.0.0.1:9"},
		{"http://[::ffff:10.1.2.3]:9/", "10.1.2.3:9"},
		{"http://[::ffff:169.254.169.254]/", "169.254.169.254:80"},
	} {
		t.Run(c.url, func(t *testing.T) {
			lae := localAccessErr(t, Env{}, c.url)
			assert.Equal(t, c.addr, lae.Address)
			assert.Equal(t, c.url, lae.URL)
		})
	}
}

func TestFetchRedirectToALocalAddressNeedsItsOwnApproval(t *testing.T) {
	// The second server stands for a local one the person has not
	// approved; the first, approved, sends the fetch there.
	hits, target := counted(t, "the target")
	first := serve(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target+"/secret", http.StatusFound)
	})
	env := allowServers(t, first.URL)

	lae := localAccessErr(t, env, first.URL+"/start")
	assert.Equal(t, hostOf(t, target), lae.Address, "the redirect's address, not the approved one")
	assert.Equal(t, target+"/secret", lae.URL, "the URL that needs it is the redirect's")
	assert.Zero(t, hits.Load(), "the redirect was not followed")

	// With the second address approved as well, the redirect is followed.
	env.AllowLocal = append(env.AllowLocal, lae.Address)
	res, err := call(t, FetchURL{}, env, map[string]any{"url": first.URL + "/start"})
	require.NoError(t, err)
	assert.False(t, res.IsError, res.Content)
	assert.True(t, strings.HasSuffix(res.Content, "\n\nthe target"), res.Content)
	assert.Equal(t, int32(1), hits.Load())
}

func TestFetchAllowedButUnreachableRedirectIsAnOrdinaryFailure(t *testing.T) {
	closed := serve(t, fixed(200, "text/plain", "x"))
	gone := closed.URL
	closed.Close()
	first := serve(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, gone+"/", http.StatusFound)
	})
	res, err := call(t, FetchURL{}, allowServers(t, first.URL, gone), map[string]any{"url": first.URL})
	require.NoError(t, err)
	assert.True(t, res.IsError)
	assert.Contains(t, res.Content, "could not fetch")
}

func TestFetchAllowLocalIsCompared(t *testing.T) {
	// The approval is written as LocalAccessError.Address writes it; an
	// IPv4-mapped form of the same address is the same address.
	g := newLocalGuard([]string{"[::ffff:127.0.0.1]:80", "[FD00::1]:80"})
	assert.NoError(t, g.control(context.Background(), "tcp4", "127.0.0.1:80", nil))
	assert.NoError(t, g.control(context.Background(), "tcp6", "[fd00::1]:80", nil))
	assert.Error(t, g.control(context.Background(), "tcp4", "127.0.0.1:81", nil))
	assert.NoError(t, g.control(context.Background(), "tcp4", "93.184.215.14:443", nil), "a public address needs nothing")
	assert.Error(t, g.control(context.Background(), "tcp4", "not an address", nil), "what cannot be checked is not dialled")
}

func TestIsLocal(t *testing.T) {
	for _, a := range []string{
		"127.0.0.1", "127.255.255.254", "0.0.0.0", "0.1.2.3", "10.0.0.1", "10.255.255.255",
		"172.16.0.1", "172.31.255.255", "192.168.0.1", "100.64.0.1", "100.127.255.255",
		"169.254.0.1", "169.254.169.254", "::1", "::", "fc00::1", "fd12:3456::1", "fe80::1",
		"fec0::1", "::ffff:127.0.0.1", "::ffff:192.168.1.1", "64:ff9b::7f00:1", "64:ff9b::a00:1",
		"ff02::1", "224.0.0.251",
	} {
		assert.True(t, isLocal(netip.MustParseAddr(a)), a)
	}
	for _, a := range []string{
		"8.8.8.8", "1.1.1.1", "93.184.215.14", "172.32.0.1", "172.15.255.255", "100.63.255.255",
		"100.128.0.1", "192.169.0.1", "11.0.0.1", "2606:4700::1111", "2001:4860:4860::8888",
		"::ffff:8.8.8.8", "64:ff9b::808:808",
	} {
		assert.False(t, isLocal(netip.MustParseAddr(a)), a)
	}
}

func TestFetchDialsOnlyWhatTheGuardAllows(t *testing.T) {
	// The guard sits on the dialer, below name resolution: a listener on
	// this machine is never connected to without approval, whatever the
	// URL looks like.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { _ = ln.Close() })
	var accepted atomic.Int32
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted.Add(1)
			_ = c.Close()
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	for _, u := range []string{
		"http://127.0.0.1:%d/",
		"http://localhost:%d/",
		"http://[::ffff:127.0.0.1]:%d/",
		"http://0.0.0.0:%d/",
		"https://127.0.0.1:%d/",
	} {
		localAccessErr(t, Env{}, fmt.Sprintf(u, port))
	}
	assert.Zero(t, accepted.Load(), "no connection was made")
}
