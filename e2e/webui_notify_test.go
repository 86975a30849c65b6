package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/internal/scriptedmodel"
	"github.com/hotplex/hotplex/testkit"
)

// hiddenTabWithNotifications makes every page of the browser a hidden tab
// whose Notification API records what it is asked to show (headless
// Chromium shows no notifications, and its tabs are never hidden).
const hiddenTabWithNotifications = `
window.__notices = [];
Object.defineProperty(document, "hidden", { configurable: true, get: () => true });
window.Notification = class {
  static permission = "default";
  static requestPermission() { window.Notification.permission = "granted"; return Promise.resolve("granted"); }
  constructor(title, opts) { window.__notices.push({ title, body: opts.body, tag: opts.tag }); }
  close() {}
};`

// The web UI, in a hidden tab with the user's leave, tells of a session
// that needs a person (a tool use waiting for an answer) and of a turn
// that ended, both run by another client on the real Claude Code; history
// replayed when the page opens is never notified.
func TestWebUINotifiesWhenHidden(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	d := startWebDaemon(t, t.TempDir(),
		scriptedmodel.Then("greet", scriptedmodel.Text("Hello from the agent.")),
		scriptedmodel.Then("make a file", scriptedmodel.Bash("touch noticed.txt"), scriptedmodel.Text("Made it.")),
	)
	aliceDo := func(method, path string, body any) *http.Response {
		t.Helper()
		b, _ := json.Marshal(body)
		req, _ := http.NewRequest(method, d.URL+path, bytes.NewReader(b))
		req.Header.Set("Authorization", "Bearer "+d.Alice)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { resp.Body.Close() })
		return resp
	}
	if resp := aliceDo("POST", "/v1/sessions", map[string]string{"id": "nt", "title": "notes", "approval": "ask"}); resp.StatusCode != http.StatusCreated {
		t.Fatalf("create: %d", resp.StatusCode)
	}
	otherClientTurn(t, d, "nt", "greet me") // history by the time the page opens

	b := startBrowser(t)
	b.do(t, "hide the tab", 10*time.Second, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: hiddenTabWithNotifications})
		return err
	}))
	b.do(t, "open", 15*time.Second,
		chromedp.Navigate(d.URL+"/"),
		chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`sessionStorage.setItem("hotplex.apiKey", %q)`, d.Alice)),
		chromedp.Navigate(d.URL+"/#/s/nt"))
	b.waitFor(t, "the replay", `document.querySelector(".log") && document.querySelector(".log").dataset.replayed === "true" && document.querySelector(".conn").dataset.state === "live"`, 15*time.Second)
	b.waitFor(t, "the Notify me button", `!!document.querySelector(".notify-me")`, 5*time.Second)
	// The button fits a phone's header.
	b.do(t, "phone", 10*time.Second, chromedp.EmulateViewport(375, 740))
	b.waitFor(t, "the header at 375 px", `document.documentElement.scrollWidth <= 375 && document.querySelector(".notify-me").getBoundingClientRect().right <= 375`, 5*time.Second)
	b.do(t, "desktop", 10*time.Second, chromedp.EmulateViewport(1280, 900))
	b.do(t, "allow notifications", 5*time.Second, chromedp.Click(chromedp.CSS(".notify-me")))
	b.waitFor(t, "the button gone once allowed", `document.querySelector(".notify-me").hidden`, 5*time.Second)
	if n := eval[int](t, b, `window.__notices.length`); n != 0 {
		t.Fatalf("replayed history was notified: %d notices", n)
	}

	// A tool use waits for alice; the hidden tab says so.
	resp := aliceDo("POST", "/v1/sessions/nt/messages", map[string]string{"prompt": "make a file please"})
	got := testkit.ReadSSE(resp.Body, func(e testkit.SSEEvent) bool { return e.Type == event.TypePermissionRequest })
	var req event.EventWithMeta
	if err := json.Unmarshal(got[len(got)-1].Data, &req); err != nil || req.Permission == nil {
		t.Fatalf("no permission request: %v", got)
	}
	b.waitFor(t, "the notice of the waiting tool use",
		`window.__notices.length === 1 && window.__notices[0].title === "notes needs you" && window.__notices[0].body.includes("touch noticed.txt")`, 30*time.Second)
	if a := aliceDo("POST", "/v1/sessions/nt/permissions/"+req.Permission.RequestID, map[string]string{"decision": "allow"}); a.StatusCode != http.StatusOK {
		t.Fatalf("answer: %d", a.StatusCode)
	}
	testkit.ReadSSE(resp.Body, nil)
	b.waitFor(t, "the notice of the finished turn",
		`window.__notices.length === 2 && window.__notices[1].title === "notes: the turn finished" && window.__notices[1].body.includes("Made it")`, 30*time.Second)
	if errs := b.consoleErrors(); len(errs) > 0 {
		t.Errorf("console errors: %v", errs)
	}
}
