// Package deps pins modules that packages under construction will import.
package deps

import (
	_ "github.com/anthropics/anthropic-sdk-go"
	_ "github.com/anthropics/anthropic-sdk-go/option"
	_ "github.com/anthropics/anthropic-sdk-go/packages/ssestream"
	_ "github.com/charmbracelet/x/vt"
	_ "github.com/chromedp/cdproto/runtime"
	_ "github.com/chromedp/chromedp"
	_ "github.com/coder/acp-go-sdk"
	_ "github.com/creack/pty"
	_ "github.com/openai/openai-go/v3"
	_ "github.com/openai/openai-go/v3/option"
	_ "github.com/openai/openai-go/v3/packages/ssestream"
	_ "github.com/prometheus/client_golang/prometheus"
	_ "github.com/prometheus/client_golang/prometheus/collectors"
	_ "github.com/prometheus/client_golang/prometheus/promhttp"
	_ "github.com/prometheus/client_golang/prometheus/testutil"
	_ "golang.org/x/time/rate"
)
