package natstest

import (
	"io"
	"net"
	"strconv"
	"sync"
	"testing"
)

// Proxy forwards TCP connections to a server, and can cut them: a client
// connected through it then loses the server while others keep it, as a
// node partitioned from NATS would. Only the client side is cut; the
// server and its other clients go on.
type Proxy struct {
	target string
	ln     net.Listener

	mu    sync.Mutex
	cut   bool
	conns map[net.Conn]struct{}
	wg    sync.WaitGroup // the accept loop and every copy
}

// StartProxy forwards 127.0.0.1 on a random port to the host:port in
// target (a nats:// URL is accepted); it is closed when the test ends.
func StartProxy(t testing.TB, target string) *Proxy {
	t.Helper()
	if u, ok := trimScheme(target); ok {
		target = u
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("natstest: proxy: %v", err)
	}
	p := &Proxy{target: target, ln: ln, conns: make(map[net.Conn]struct{})}
	p.wg.Add(1)
	go p.accept()
	t.Cleanup(p.Close)
	return p
}

func trimScheme(u string) (string, bool) {
	const scheme = "nats://"
	if len(u) > len(scheme) && u[:len(scheme)] == scheme {
		return u[len(scheme):], true
	}
	return u, false
}

// URL is the address clients dial instead of the server's.
func (p *Proxy) URL() string {
	return "nats://127.0.0.1:" + strconv.Itoa(p.ln.Addr().(*net.TCPAddr).Port)
}

func (p *Proxy) accept() {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		if p.cut {
			p.mu.Unlock()
			c.Close()
			continue
		}
		p.mu.Unlock()
		s, err := net.Dial("tcp", p.target)
		if err != nil {
			c.Close()
			continue
		}
		p.mu.Lock()
		if p.cut {
			p.mu.Unlock()
			c.Close()
			s.Close()
			continue
		}
		p.conns[c] = struct{}{}
		p.conns[s] = struct{}{}
		p.wg.Add(2)
		p.mu.Unlock()
		go p.pipe(c, s)
		go p.pipe(s, c)
	}
}

// pipe copies one direction and, when it ends, closes both sides so the
// other direction ends too.
func (p *Proxy) pipe(dst, src net.Conn) {
	defer p.wg.Done()
	_, _ = io.Copy(dst, src)
	dst.Close()
	src.Close()
	p.mu.Lock()
	delete(p.conns, dst)
	delete(p.conns, src)
	p.mu.Unlock()
}

// Cut closes every connection through the proxy and refuses new ones
// until Resume.
func (p *Proxy) Cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cut = true
	for c := range p.conns {
		c.Close()
	}
}

// Resume lets clients connect again.
func (p *Proxy) Resume() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cut = false
}

// Close stops the proxy and waits for its goroutines.
func (p *Proxy) Close() {
	p.ln.Close()
	p.Cut()
	p.wg.Wait()
}
