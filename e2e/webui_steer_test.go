package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/hotplex/hotplex/internal/scriptedmodel"
	"github.com/hotplex/hotplex/testkit"
)

// In the browser, the prompt box stays usable while the real CLI's turn
// runs: Steer sends the prompt into that turn, the conversation shows it
// as steering, and the turn's one answer is the steered prompt's.
func TestWebUISteer(t *testing.T) {
	t.Cleanup(func() { testkit.AssertNoDescendants(t) })
	d := startWebDaemon(t, t.TempDir(),
		scriptedmodel.Then("STEERED", scriptedmodel.Text("steered answer")),
		scriptedmodel.Then("slow", scriptedmodel.Bash("sleep 4"), scriptedmodel.Text("unsteered answer")),
	)
	b := startBrowser(t)
	const turnLimit = 45 * time.Second
	b.do(t, "open", 15*time.Second, chromedp.Navigate(d.URL+"/"), chromedp.WaitVisible(chromedp.CSS("#api-key")))
	b.do(t, "log in", 10*time.Second,
		chromedp.SendKeys(chromedp.CSS("#api-key"), d.Alice+kb.Enter),
		chromedp.WaitVisible(chromedp.CSS(".sessions")))
	b.waitFor(t, "providers", `document.querySelectorAll("#new-provider option").length > 0`, 5*time.Second)
	b.do(t, "create", 15*time.Second,
		chromedp.Click(chromedp.CSS(".create-box summary")),
		chromedp.SendKeys(chromedp.CSS("#new-id"), "steer-1"),
		chromedp.Click(chromedp.CSS("#create-session")),
		chromedp.WaitVisible(chromedp.CSS(".conversation")))
	b.waitFor(t, "the empty conversation", `document.querySelector(".log").dataset.replayed === "true" && document.querySelector(".conn").dataset.state === "live"`, 10*time.Second)

	b.send(t, "slow please")
	b.waitFor(t, "the running tool", `!!document.querySelector('.tool[data-tool="Bash"]') && !document.querySelector('button[aria-label^="Steer"]').hidden`, turnLimit)
	b.do(t, "steer", 10*time.Second,
		chromedp.SendKeys(chromedp.CSS("#prompt"), "STEERED: say hi"),
		chromedp.Click(chromedp.CSS(`button[aria-label^="Steer"]`)))
	b.waitFor(t, "the steered prompt", `[...document.querySelectorAll(".msg.user")].some(e => e.getAttribute("aria-label").includes("steering") && e.textContent.includes("STEERED: say hi"))`, turnLimit)
	b.waitFor(t, "the turn's end", `document.querySelectorAll(".turn-end").length === 1`, turnLimit)
	if got := eval[string](t, b, `[...document.querySelectorAll(".msg.agent")].map(e => e.textContent).join("|")`); !strings.Contains(got, "steered answer") || strings.Contains(got, "unsteered") {
		t.Fatalf("the steered turn's answers: %q", got)
	}
	if n := count(t, b, ".turn-end"); n != 1 {
		t.Fatalf("%d turns ended, want the one steered", n)
	}
	b.screenshot(t, "webui-steer")
}
