package agents

import (
	"context"
	"runtime/debug"

	"github.com/hotplex/hotplex/provider/api"
)

// apiAnthropicAgent calls the Anthropic Messages API directly.
func apiAnthropicAgent(cfg Config) Agent {
	return apiAgent(cfg, api.Anthropic, "Anthropic Messages API", "ANTHROPIC", "github.com/anthropics/anthropic-sdk-go")
}

// apiOpenAIAgent calls an OpenAI-compatible Chat Completions API directly.
func apiOpenAIAgent(cfg Config) Agent {
	return apiAgent(cfg, api.OpenAI, "OpenAI-compatible Chat Completions API", "OPENAI", "github.com/openai/openai-go/v3")
}

func apiAgent(cfg Config, flavor api.Flavor, label, prefix, sdk string) Agent {
	a := Agent{Name: "api-" + string(flavor), Label: label}
	if cfg.Getenv(prefix+"_API_KEY") == "" && cfg.Getenv(prefix+"_BASE_URL") == "" {
		a.Missing = "set " + prefix + "_API_KEY (or " + prefix + "_BASE_URL for a local server)"
		return a
	}
	p, err := api.New(api.Options{Flavor: flavor, Tools: true, Deltas: cfg.Stream, Model: cfg.Model})
	if err != nil {
		a.Missing = err.Error()
		return a
	}
	a.Provider = p
	a.Version = func(context.Context) (string, error) { return sdkVersion(sdk), nil }
	return a
}

// sdkVersion names the SDK a model API is called with, and its version.
func sdkVersion(module string) string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Path == module {
				return module + " " + d.Version
			}
		}
	}
	return module
}
