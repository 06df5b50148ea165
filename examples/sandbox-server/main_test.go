package main

import (
	"bytes"
	"context"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// syncBuffer is a bytes.Buffer safe for one writer and one reader.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// envValue returns the value of a NAME=value line of out.
func envValue(out, name string) string {
	for _, line := range strings.Split(out, "\n") {
		if v, ok := strings.CutPrefix(line, name+"="); ok {
			return v
		}
	}
	return ""
}

func TestRunServesUntilCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out syncBuffer
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-addr", "127.0.0.1:0", "-key", "K", "-secret", "S", "-cadence", "1s", "-pharmacies", "40"}, &out)
	}()

	require.Eventually(t, func() bool { return strings.Contains(out.String(), "RXDELIVERY_SANDBOX=1") }, 5*time.Second, 10*time.Millisecond)
	printed := out.String()
	omni := envValue(printed, "RXDELIVERY_OMNI_URL")
	require.True(t, strings.HasPrefix(omni, "http://127.0.0.1:"), printed)
	assert.True(t, strings.HasSuffix(omni, "/omni"))
	for _, name := range []string{"RXDELIVERY_DELIVERY_URL", "RXDELIVERY_TRACKING_URL", "RXDELIVERY_PRICING_URL"} {
		assert.NotEmpty(t, envValue(printed, name), name)
	}
	assert.NotContains(t, printed, "=S\n", "the secret is not printed")

	req, err := http.NewRequest("GET", omni+"/api/v1/pharmacies/?place_id=abc", nil)
	require.NoError(t, err)
	req.SetBasicAuth("K", "S")
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	res.Body.Close()
	assert.Equal(t, http.StatusOK, res.StatusCode)

	req.SetBasicAuth("K", "wrong")
	res, err = http.DefaultClient.Do(req)
	require.NoError(t, err)
	res.Body.Close()
	assert.Equal(t, http.StatusUnauthorized, res.StatusCode)

	cancel()
	select {
	case err := <-done:
		assert.NoError(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("run did not return after cancel")
	}
}

func TestRunArguments(t *testing.T) {
	var out syncBuffer
	assert.NoError(t, run(context.Background(), []string{"-h"}, &out))
	assert.Contains(t, out.String(), "-insecure-listeners")
	assert.Error(t, run(context.Background(), []string{"-nope"}, &out))
	assert.Error(t, run(context.Background(), []string{"extra"}, &out))
	assert.Error(t, run(context.Background(), []string{"-addr", "256.0.0.1:bad"}, &out))
}

func TestNotifyClient(t *testing.T) {
	l := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	l.Config.ErrorLog = log.New(io.Discard, "", 0) // quiet the refused handshake
	l.StartTLS()
	defer l.Close()

	res, err := notifyClient(true).Post(l.URL, "application/json", strings.NewReader("{}"))
	require.NoError(t, err, "self-signed loopback listener accepted")
	res.Body.Close()

	_, err = notifyClient(false).Post(l.URL, "application/json", strings.NewReader("{}"))
	assert.Error(t, err, "verified by default")

	assert.True(t, isLoopback("localhost"))
	assert.True(t, isLoopback("::1"))
	assert.True(t, isLoopback("127.0.0.2"))
	assert.False(t, isLoopback("example.com"))
	assert.False(t, isLoopback("10.0.0.1"))
}
