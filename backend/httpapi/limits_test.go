package httpapi_test

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/hermesdesk/hermesdesk/backend/httpapi"
)

// rawRequest sends head (and the start of a body) on a fresh connection
// and reads the response; the connection stays open for the caller.
func rawRequest(t *testing.T, addr, head string) (net.Conn, *bufio.Reader, *http.Response) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if _, err := io.WriteString(c, head); err != nil {
		t.Fatal(err)
	}
	// A bound so a server that never answers fails the test instead of
	// hanging it.
	c.SetReadDeadline(time.Now().Add(15 * time.Second))
	br := bufio.NewReader(c)
	res, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatalf("no response: %v", err)
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return c, br, res
}

// expectClosed: the server closed the connection (EOF), rather than
// keeping it open to read the rest of the body.
func expectClosed(t *testing.T, br *bufio.Reader) {
	t.Helper()
	_, err := br.ReadByte()
	if !errors.Is(err, io.EOF) {
		t.Fatalf("connection still open after the answer (read: %v)", err)
	}
}

// A request without the token is answered 401 and its connection closed
// at once, its announced body never waited for.
func TestRefusedRequestIsClosedUnread(t *testing.T) {
	e := newEnv(t, httpapi.Config{})
	addr := strings.TrimPrefix(e.srv.URL, "http://")
	for _, tc := range []struct{ name, extra string }{
		{"no token", ""},
		{"wrong token", "Authorization: Bearer nope-nope-nope\r\n"},
		{"cross origin", "Authorization: Bearer " + testToken + "\r\nOrigin: http://evil.example\r\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, br, res := rawRequest(t, addr, "POST /api/projects HTTP/1.1\r\nHost: "+addr+"\r\n"+tc.extra+
				"Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{\"name\":")
			if res.StatusCode != http.StatusUnauthorized && res.StatusCode != http.StatusForbidden {
				t.Fatalf("status %d", res.StatusCode)
			}
			expectClosed(t, br)
		})
	}
}

// An authorized body that stops arriving ends the request (408) instead
// of holding its connection forever.
func TestSlowBodyTimesOut(t *testing.T) {
	e := newEnv(t, httpapi.Config{BodyTimeout: 200 * time.Millisecond})
	addr := strings.TrimPrefix(e.srv.URL, "http://")
	_, br, res := rawRequest(t, addr, "POST /api/projects HTTP/1.1\r\nHost: "+addr+"\r\nAuthorization: Bearer "+testToken+
		"\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"name\":")
	if res.StatusCode != http.StatusRequestTimeout {
		t.Fatalf("status %d, want 408", res.StatusCode)
	}
	expectClosed(t, br)
	// A body that arrives in time is served.
	if code, body := e.do(t, "POST", "/api/projects", `{"name":"p","workspace":"`+t.TempDir()+`"}`, nil); code != http.StatusCreated && code != http.StatusOK {
		t.Fatalf("normal request: %d %s", code, body)
	}
}

// One client holds at most the cap of connections; the next is closed
// unserved, and a slot freed is usable again.
func TestConnectionCapPerClient(t *testing.T) {
	e := newEnv(t, httpapi.Config{})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: e.h}
	go srv.Serve(httpapi.LimitPerClient(ln, 3, quiet))
	t.Cleanup(func() { srv.Close() })
	addr := ln.Addr().String()
	var held []net.Conn
	for range 3 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, c)
		t.Cleanup(func() { c.Close() })
	}
	c4, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c4.Close()
	io.WriteString(c4, "GET /api/health HTTP/1.1\r\nHost: "+addr+"\r\n\r\n")
	c4.SetReadDeadline(time.Now().Add(15 * time.Second))
	if _, err := bufio.NewReader(c4).ReadByte(); !errors.Is(err, io.EOF) && !isReset(err) {
		t.Fatalf("fourth connection was served (read: %v)", err)
	}
	held[0].Close()
	// The server frees the slot when it sees the close; until then a new
	// connection may still be turned away.
	deadline := time.Now().Add(15 * time.Second)
	for {
		res, err := (&http.Client{Transport: &http.Transport{DisableKeepAlives: true}}).Get("http://" + addr + "/api/health")
		if err == nil {
			res.Body.Close()
			if res.StatusCode != 200 {
				t.Fatalf("health %d", res.StatusCode)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a freed slot was never reusable: %v", err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func isReset(err error) bool {
	return err != nil && strings.Contains(err.Error(), "connection reset")
}

// serve beside a running app (proxy mode) says a body over 1 MiB is too
// large (413), as the direct API does, not that the app is down (502).
func TestProxyRefusesLargeBodyWith413(t *testing.T) {
	e := newEnv(t, httpapi.Config{})
	proxy := proxyTo(t, e.serveLocal(t))

	big := `{"name":"` + strings.Repeat("x", 2<<20) + `","workspace":"/tmp"}`
	req, _ := http.NewRequest("POST", proxy.URL+"/api/projects", strings.NewReader(big))
	req.Header.Set("Authorization", "Bearer "+testToken)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusRequestEntityTooLarge || errCode(t, string(b)) != "too_large" {
		t.Fatalf("status %d %s, want 413 too_large", res.StatusCode, b)
	}
}
