package tracking_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rxdelivery/rxdelivery-go/internal/fullsuite"
	"github.com/rxdelivery/rxdelivery-go/tracking"
)

// httptest: nginx, a separate process, proxies to the handler over a real socket.

// readmeNginx returns the README's nginx block: the lines that keep a
// listener URL's token out of nginx's access log.
func readmeNginx(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../docs/notifications.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)```nginx\n(.*?)```").FindAllStringSubmatch(string(b), -1)
	if len(m) != 1 {
		t.Fatalf("docs/notifications.md has %d nginx blocks; want 1", len(m))
	}
	return m[0][1]
}

// TestListenerTokenStaysOutOfNginxAccessLog runs nginx in front of a
// handler with the README's configuration lines: a delivery through the
// listener's location is logged (method, status) without its path, while
// nginx's default format, in another location, logs the path and its
// token (the exposure the README warns of).
func TestListenerTokenStaysOutOfNginxAccessLog(t *testing.T) {
	t.Parallel()
	fullsuite.Require(t, "the nginx tests")
	bin, err := exec.LookPath("nginx")
	if err != nil {
		if _, serr := os.Stat("/usr/sbin/nginx"); serr != nil {
			const msg = "nginx is not installed (Debian: apt-get install nginx-light)"
			if os.Getenv("CI") == "true" {
				t.Fatal(msg + "; CI must run this test")
			}
			t.Skip(msg)
		}
		bin = "/usr/sbin/nginx"
	}
	listenerURL, token, err := tracking.NewListenerURL("https://pharmacy.example/hooks/tracking")
	if err != nil {
		t.Fatal(err)
	}
	app := httptest.NewServer(tracking.NewHandler(func(ctx context.Context, n *tracking.Notification) error { return nil }, tracking.WithPathToken(token)))
	t.Cleanup(app.Close)

	dir := t.TempDir()
	block := readmeNginx(t)
	// The README's block with this test's log file and upstream.
	block = strings.ReplaceAll(block, "/var/log/nginx/access.log", filepath.Join(dir, "listener.log"))
	block = strings.ReplaceAll(block, "http://127.0.0.1:8080", app.URL)
	var httpLines, location []string
	inLocation := false
	for _, line := range strings.Split(block, "\n") {
		switch trimmed := strings.TrimSpace(line); {
		case strings.HasPrefix(trimmed, "location "):
			inLocation = true
			location = append(location, line)
		case inLocation:
			location = append(location, line)
			inLocation = trimmed != "}"
		case strings.HasPrefix(trimmed, "log_format"):
			httpLines = append(httpLines, line)
		}
	}
	if len(httpLines) != 1 || len(location) < 3 {
		t.Fatalf("the README's nginx block has no log_format line or no location:\n%s", block)
	}
	port := func() int {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		return l.Addr().(*net.TCPAddr).Port
	}()
	conf := fmt.Sprintf(`daemon off;
master_process off;
pid %[1]s/nginx.pid;
lock_file %[1]s/nginx.lock;
error_log %[1]s/error.log warn;
events { worker_connections 64; }
http {
    client_body_temp_path %[1]s/body;
    proxy_temp_path %[1]s/proxy;
    fastcgi_temp_path %[1]s/fastcgi;
    uwsgi_temp_path %[1]s/uwsgi;
    scgi_temp_path %[1]s/scgi;
    access_log %[1]s/default.log combined;
%[2]s
    server {
        listen 127.0.0.1:%[3]d;
%[4]s
        location /unlisted/ {
            proxy_pass %[5]s/hooks/tracking/;
        }
    }
}
`, dir, strings.Join(httpLines, "\n"), port, strings.Join(location, "\n"), app.URL)
	if err := os.WriteFile(filepath.Join(dir, "nginx.conf"), []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-p", dir, "-c", filepath.Join(dir, "nginx.conf"), "-e", filepath.Join(dir, "error.log"))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-exited
	})
	base := "http://127.0.0.1:" + strconv.Itoa(port)
	for deadline := time.Now().Add(10 * time.Second); ; {
		if c, err := net.DialTimeout("tcp", strings.TrimPrefix(base, "http://"), time.Second); err == nil {
			c.Close()
			break
		}
		select {
		case <-exited:
			b, _ := os.ReadFile(filepath.Join(dir, "error.log"))
			t.Fatalf("nginx exited: %s", b)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatal("nginx did not start listening")
		}
		time.Sleep(20 * time.Millisecond)
	}

	path := strings.TrimPrefix(listenerURL, "https://pharmacy.example")
	for _, p := range []string{path, "/unlisted/" + token} {
		resp, err := http.Post(base+p, "application/json", strings.NewReader(string(notificationBody("9400", 1))))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNoContent {
			t.Fatalf("POST %s answered %d; want 204", strings.ReplaceAll(p, token, "TOKEN"), resp.StatusCode)
		}
	}
	// nginx writes a request's log lines as it frees the request, which
	// may be after the client has its response: wait for them.
	read := func(name, want string) string {
		for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
			b, _ := os.ReadFile(filepath.Join(dir, name))
			if strings.Contains(string(b), want) || time.Now().After(deadline) {
				return string(b)
			}
		}
	}
	if got := read("listener.log", "POST 204"); strings.Contains(got, token) || !strings.Contains(got, "POST 204") {
		t.Errorf("the listener's access log, with the README's lines: %q; want the delivery (POST 204) without the token", strings.ReplaceAll(got, token, "TOKEN"))
	}
	if got := read("default.log", token); !strings.Contains(got, token) {
		t.Errorf("nginx's default format did not log the token (%q): the README's warning would be moot", got)
	}
	// The README says the error log holds the request line of a request
	// that failed: the upstream gone, a delivery gets 502.
	app.Close()
	resp, err := http.Post(base+path, "application/json", strings.NewReader(string(notificationBody("9400", 2))))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadGateway {
		t.Fatalf("with the upstream gone: %d; want 502", resp.StatusCode)
	}
	if got := read("error.log", token); !strings.Contains(got, token) {
		t.Errorf("nginx's error log did not hold the token of a failed request; the README says it does:\n%s", got)
	}
}
