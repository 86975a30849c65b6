package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/hotplex/hotplex/provider/claude"
	"github.com/hotplex/hotplex/server"
	"github.com/hotplex/hotplex/testkit"
)

// BenchmarkStalledWebSocketMemory: WebSocket clients subscribe to a
// session and never read while 200 kB answers flow. It reports what the
// server held for one such connection — the most bytes one connection's
// send queue held (hotplex_ws_queue_peak_bytes) and the process's heap
// growth per stalled connection — beside the configured bound, and how
// many were dropped. peak/bound stays at or under 1 (a single message
// larger than the bound passes alone): memory is bounded in bytes,
// whatever the events' size. Run with -benchtime=1x.
func BenchmarkStalledWebSocketMemory(b *testing.B) {
	const (
		conns = 4
		bound = 1 << 20
	)
	agent := testkit.BuildFakeAgent(b, b.TempDir())
	d := testkit.StartDaemon(b, testkit.DaemonOptions{
		Provider: claude.New(claude.Options{Path: agent, Name: "fakeagent"}),
		Env:      append(os.Environ(), "HOME="+b.TempDir()), Root: b.TempDir(), DBPath: filepath.Join(b.TempDir(), "hotplex.db"),
		Server: func(o *server.Options) { o.WS.QueueBytes = bound },
	})
	call := func(method, path, key string, body any) []byte {
		var rd io.Reader
		if body != nil {
			js, _ := json.Marshal(body)
			rd = bytes.NewReader(js)
		}
		req, _ := http.NewRequest(method, d.URL+path, rd)
		req.Header.Set("Authorization", "Bearer "+key)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		defer resp.Body.Close()
		out, _ := io.ReadAll(resp.Body)
		return out
	}
	call("POST", "/v1/sessions", d.Alice, map[string]string{"id": "flood"})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()

	var heapBefore, heapPeak uint64
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	heapBefore = ms.HeapInuse
	b.ResetTimer()
	for iter := range b.N {
		var stalled []*websocket.Conn
		for i := range conns {
			c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(d.URL, "http")+"/v1/ws", &websocket.DialOptions{
				HTTPHeader: http.Header{"Authorization": []string{"Bearer " + d.Alice}},
				HTTPClient: &http.Client{Transport: &http.Transport{DialContext: smallWindow}},
			})
			if err != nil {
				b.Fatal(err)
			}
			defer c.CloseNow()
			sub, _ := json.Marshal(map[string]any{"request_id": fmt.Sprint(i), "type": "subscribe", "session_id": "flood"})
			if err := c.Write(ctx, websocket.MessageText, sub); err != nil {
				b.Fatal(err)
			}
			stalled = append(stalled, c)
		}
		turns := 0
		for ; turns < 300 && metric(call("GET", "/metrics", d.Admin, nil), "hotplex_ws_slow_clients_dropped_total") < float64(conns*(iter+1)); turns++ {
			call("POST", "/v1/sessions/flood/messages", d.Alice, map[string]string{"prompt": "huge:200000"})
			runtime.ReadMemStats(&ms)
			heapPeak = max(heapPeak, ms.HeapInuse)
		}
		b.ReportMetric(float64(turns), "turns_to_drop")
		for _, c := range stalled {
			_ = c.CloseNow()
		}
	}
	b.StopTimer()
	text := call("GET", "/metrics", d.Admin, nil)
	peak := metric(text, "hotplex_ws_queue_peak_bytes")
	b.ReportMetric(peak, "peak_queue_bytes/conn")
	b.ReportMetric(bound, "bound_bytes")
	b.ReportMetric(peak/bound, "peak/bound")
	// The heap's growth includes what the flood costs anyway (the hub's
	// ring of 200 kB events, the store's writes), not only the queues.
	b.ReportMetric(float64(heapPeak-min(heapPeak, heapBefore))/conns, "heap_growth_bytes/conn")
	b.ReportMetric(metric(text, "hotplex_ws_slow_clients_dropped_total"), "dropped")
}

func smallWindow(ctx context.Context, network, addr string) (net.Conn, error) {
	conn, err := (&net.Dialer{}).DialContext(ctx, network, addr)
	if err == nil {
		_ = conn.(*net.TCPConn).SetReadBuffer(128 << 10)
	}
	return conn, err
}

// metric reads one unlabelled sample of the Prometheus text format.
func metric(text []byte, name string) float64 {
	m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(name) + ` (\S+)$`).FindSubmatch(text)
	if m == nil {
		return 0
	}
	v, _ := strconv.ParseFloat(string(m[1]), 64)
	return v
}
