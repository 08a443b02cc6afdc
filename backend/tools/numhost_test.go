package tools

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNumericHostsAreReadAsBrowsersDo(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"0x7f000001": "127.0.0.1", "2130706433": "127.0.0.1", "0177.0.0.1": "127.0.0.1", "127.1": "127.0.0.1",
		"0x7f.1": "127.0.0.1", "10.0x10.1": "10.16.0.1", "192.168.257": "192.168.1.1", "127.0.0.1.": "127.0.0.1",
	} {
		ip, ok, err := numericIPv4(in)
		require.NoError(t, err, in)
		assert.True(t, ok, in)
		assert.Equal(t, want, ip.String(), in)
	}
	for _, name := range []string{"example.com", "localhost", "1.2.3.com", "0x7f.example"} {
		_, ok, err := numericIPv4(name)
		assert.NoError(t, err, name)
		assert.False(t, ok, "%s is a name", name)
	}
	for _, bad := range []string{"256.0.0.1", "08", "1.2.3.4.5", "4294967296", "1.2.65536"} {
		_, ok, err := numericIPv4(bad)
		assert.True(t, ok, bad)
		assert.Error(t, err, "%s is numeric but no address", bad)
	}
}

func TestFetchingAHexLoopbackAddressAsksForTheAddress(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte("local page"))
	}))
	defer srv.Close()
	port := srv.URL[strings.LastIndexByte(srv.URL, ':')+1:]
	_, env := newWorkspace(t)
	_, err := FetchURL{}.Run(context.Background(), env, mustJSON(t, map[string]any{"url": fmt.Sprintf("http://0x7f000001:%s/", port)}))
	var local *LocalAccessError
	require.True(t, errors.As(err, &local), "a numeric loopback host is a local address, not a name for DNS: %v", err)
	assert.Equal(t, "127.0.0.1:"+port, local.Address)
}
