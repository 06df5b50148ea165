package reliability_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rxdelivery/rxdelivery-go/internal/core"
	"github.com/rxdelivery/rxdelivery-go/internal/fullsuite"
)

// httptest: nginx runs as a process of its own on a loopback port (probed free with a net listener), terminating TLS and HTTP/2 and proxying to an upstream server on loopback.

// A real HTTP/2 load balancer for the tests: nginx, started by the test
// with a configuration of its own in t.TempDir(), terminating TLS with
// HTTP/2 on a loopback port and proxying over plain http to an upstream
// on loopback. It runs as one foreground process (master_process off), so
// the test that started it can stop it, or kill it as a crash would, by
// its process id alone.

// nginxProxy is a running nginx.
type nginxProxy struct {
	// URL is the proxy's root URL, https://127.0.0.1:port.
	URL string
	// Certs holds the proxy's self-signed certificate, for a client to
	// trust.
	Certs *x509.CertPool

	cmd      *exec.Cmd
	exited   chan struct{}
	errorLog string
}

// nginxBinary returns nginx's path: from PATH, or /usr/sbin/nginx. When
// there is none the test is skipped with what to install, except in CI
// (CI=true), where a missing nginx fails the test.
func nginxBinary(t *testing.T) string {
	t.Helper()
	fullsuite.Require(t, "the nginx tests")
	if p, err := exec.LookPath("nginx"); err == nil {
		return p
	}
	if _, err := os.Stat("/usr/sbin/nginx"); err == nil {
		return "/usr/sbin/nginx"
	}
	const msg = "nginx is not installed (Debian: apt-get install nginx-light)"
	if os.Getenv("CI") == "true" {
		t.Fatal(msg + "; CI must run this test")
	}
	t.Skip(msg)
	return ""
}

// startNginx starts nginx in front of upstream (http://host:port) with
// keepaliveRequests requests per client connection, and stops it when the
// test ends.
func startNginx(t *testing.T, upstream string, keepaliveRequests int) *nginxProxy {
	t.Helper()
	bin := nginxBinary(t)
	dir := t.TempDir()
	certs := writeSelfSignedCert(t, dir)
	up := strings.TrimPrefix(upstream, "http://")
	var lastErr error
	// A free port is found by listening and closing; another process may
	// take it before nginx does, so a failed start tries another.
	for try := 0; try < 3; try++ {
		port := freeLoopbackPort(t)
		p, err := runNginx(bin, dir, port, up, keepaliveRequests)
		if err == nil {
			p.Certs = certs
			t.Cleanup(p.stop)
			return p
		}
		lastErr = err
	}
	t.Fatalf("nginx did not start: %v", lastErr)
	return nil
}

func runNginx(bin, dir string, port int, upstream string, keepaliveRequests int) (*nginxProxy, error) {
	conf := filepath.Join(dir, "nginx.conf")
	errorLog := filepath.Join(dir, "error.log")
	_ = os.Remove(errorLog)
	text := fmt.Sprintf(`daemon off;
master_process off;
pid %[1]s/nginx.pid;
lock_file %[1]s/nginx.lock;
error_log %[2]s warn;
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path %[1]s/body;
    proxy_temp_path %[1]s/proxy;
    fastcgi_temp_path %[1]s/fastcgi;
    uwsgi_temp_path %[1]s/uwsgi;
    scgi_temp_path %[1]s/scgi;
    upstream platform {
        server %[3]s;
        keepalive 32;
    }
    server {
        listen 127.0.0.1:%[4]d ssl http2;
        ssl_certificate %[1]s/cert.pem;
        ssl_certificate_key %[1]s/key.pem;
        keepalive_requests %[5]d;
        location / {
            proxy_pass http://platform;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
        }
    }
}
`, dir, errorLog, upstream, port, keepaliveRequests)
	if err := os.WriteFile(conf, []byte(text), 0o600); err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, "-p", dir, "-c", conf, "-e", errorLog)
	cmd.Stdout, cmd.Stderr = nil, nil
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	p := &nginxProxy{URL: "https://127.0.0.1:" + strconv.Itoa(port), cmd: cmd, exited: make(chan struct{}), errorLog: errorLog}
	go func() {
		_ = cmd.Wait()
		close(p.exited)
	}()
	addr := "127.0.0.1:" + strconv.Itoa(port)
	deadline := time.Now().Add(10 * time.Second)
	for {
		select {
		case <-p.exited:
			return nil, fmt.Errorf("nginx exited: %s", p.log())
		default:
		}
		if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			c.Close()
			return p, nil
		}
		if time.Now().After(deadline) {
			p.stop()
			return nil, errors.New("nginx did not listen within 10s: " + p.log())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// log returns nginx's error log.
func (p *nginxProxy) log() string {
	b, _ := os.ReadFile(p.errorLog)
	return strings.TrimSpace(string(b))
}

// kill ends nginx at once, as a crash would: every client connection is
// cut without a GOAWAY.
func (p *nginxProxy) kill() {
	_ = p.cmd.Process.Kill()
	<-p.exited
}

// stop asks nginx to shut down (SIGTERM) and waits for it; it kills it
// when it has not exited after 5 seconds.
func (p *nginxProxy) stop() {
	select {
	case <-p.exited:
		return
	default:
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.exited:
	case <-time.After(5 * time.Second):
		p.kill()
	}
}

// client returns an http.Client on the SDK's own pool that trusts the
// proxy's certificate; its idle connections are closed when the test
// ends.
func (p *nginxProxy) client(t *testing.T) *http.Client {
	tr := core.NewPooledTransport()
	tr.TLSClientConfig = &tls.Config{RootCAs: p.Certs, MinVersion: tls.VersionTLS12}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr}
}

// freeLoopbackPort returns a loopback port nothing listens on right now.
func freeLoopbackPort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// writeSelfSignedCert writes cert.pem and key.pem for 127.0.0.1 into dir
// and returns a pool that trusts the certificate.
func writeSelfSignedCert(t *testing.T, dir string) *x509.CertPool {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "127.0.0.1"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(time.Hour),
		IsCA:                  true,
		BasicConstraintsValid: true,
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IPAddresses:           []net.IP{net.IPv4(127, 0, 0, 1)},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	certPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	if err := os.WriteFile(filepath.Join(dir, "cert.pem"), certPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "key.pem"), pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}), 0o600); err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(certPEM)
	return pool
}
