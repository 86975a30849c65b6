package guard

import (
	"regexp"
	"strings"
)

// Payment providers in live mode: refunds, payouts, transfers, voids and
// account rejections move real money or end a merchant's business, and
// none can be taken back. Stripe's CLI in its default test mode, its test
// keys and Adyen's test endpoints reach only test data. (Filed under
// system rather than cloud destruction: a destroying rule's names are
// left to it by the generic clients' rules, and stripe, node and
// PowerShell's web cmdlets delete through those too.)
var paymentRules = []*rule{
	{ID: "payment-live-money-moved", Level: LevelCritical, Category: CategorySystem, Description: "refunds, payouts, transfers, voids or account rejections made in a payment provider's live mode (real money moved, not recoverable)",
		Suggestions: []string{"Try it in test mode first (Stripe's CLI without --live, a test key, Adyen's test endpoint)", "Let the finance team issue refunds and payouts through the dashboard"},
		names:       names("stripe", "curl", "wget", "http", "https", "xh", "invoke-restmethod", "invoke-webrequest", "irm", "iwr", "node"),
		match: func(a *analysis, c *cmd) (bool, string) {
			switch c.name {
			case "stripe":
				low := c.lowerArgs()
				if stripeTestMode(a, c) || len(low) < 2 {
					return false, ""
				}
				if low[1] == "create" && (low[0] == "refunds" || low[0] == "payouts" || low[0] == "transfers") {
					return true, "stripe " + low[0] + " create in live mode"
				}
				if (low[0] == "post" || low[0] == "delete") && paymentMoneyPath.MatchString(low[1]) {
					return true, "stripe " + low[0] + " " + low[1] + " in live mode"
				}
				return false, ""
			case "node":
				code, ok := optValue(c.args(), "-e", "eval")
				if !ok || !strings.Contains(code, "require('stripe')") && !strings.Contains(code, `require("stripe")`) {
					return false, ""
				}
				if !strings.Contains(code, "LIVE") && !strings.Contains(code, "sk_live_") {
					return false, ""
				}
				for _, m := range [...]string{".del(", "refunds.create(", "payouts.create(", "transfers.create(", ".cancel(", ".reject("} {
					if strings.Contains(code, m) {
						return true, "the Stripe library's " + strings.Trim(m, ".(") + " with a live key"
					}
				}
				return false, ""
			}
			h, ok := readHTTPCall(c)
			if !ok || h.method != "POST" && h.method != "DELETE" {
				return false, ""
			}
			host, path := hostOf(h.url), h.url
			if i := strings.Index(path, "://"); i >= 0 {
				path = path[i+3:]
			}
			if i := strings.IndexByte(path, '/'); i >= 0 {
				path = path[i:]
			} else {
				path = "/"
			}
			switch {
			case host == "api.stripe.com":
				if strings.Contains(lower(c.argsText()), "_test_") || !paymentMoneyPath.MatchString(path) {
					return false, ""
				}
				return true, h.method + " " + host + path
			case strings.Contains(host, "adyen") && strings.Contains(host, "-live"):
				if !adyenMoneyPath.MatchString(path) {
					return false, ""
				}
				return true, h.method + " " + host + path
			case host == "api-m.paypal.com" || host == "api.paypal.com":
				// PayPal's live API (the sandbox is api-m.sandbox.paypal.com)
				if !paypalMoneyPath.MatchString(path) {
					return false, ""
				}
				return true, h.method + " " + host + path
			}
			return false, ""
		}},
}

func init() { ruleSets = append(ruleSets, paymentRules) }

// paymentMoneyPath matches Stripe API paths that move money or end an
// account.
var paymentMoneyPath = regexp.MustCompile(`^/?v1/(refunds|payouts|transfers|topups)\b|^/?v1/(charges|payment_intents|invoices|accounts|payouts|transfers)/[^/]+/(refunds?|cancel|void|reject|reversals|mark_uncollectible)\b`)

// paypalMoneyPath matches PayPal API paths that pay out, refund or void.
var paypalMoneyPath = regexp.MustCompile(`/(payouts|refund|void|reauthorize)\b|/payments/(sale|capture|captures)/[^/]+/refund`)

// adyenMoneyPath matches Adyen API paths that refund, cancel or pay out.
var adyenMoneyPath = regexp.MustCompile(`/(refunds|cancels|reversals|payouts|refund|cancel|cancelorrefund|storedetailandsubmitthirdparty|submitthirdparty)\b`)
