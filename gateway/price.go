package gateway

import "strings"

// Price is what a model costs, in US dollars per million tokens.
type Price struct {
	Input      float64 `yaml:"input" json:"input"`
	Output     float64 `yaml:"output" json:"output"`
	CacheRead  float64 `yaml:"cache_read" json:"cache_read"`
	CacheWrite float64 `yaml:"cache_write" json:"cache_write"`
}

// Prices maps a model name, or the start of one, to its price. A model is
// priced by the longest key that equals it or begins it, so that
// "claude-sonnet-4-5" prices "claude-sonnet-4-5-20250929".
type Prices map[string]Price

// DefaultPrices are the list prices of the models HotPlex's agents use by
// default, and of the test model's names. The configuration's table is laid
// over them; prices change, so operators who bill by them should set their own.
func DefaultPrices() Prices {
	return Prices{
		// Claude Code 2.1.3xx's default model, at the price the CLI itself
		// reports its cost with.
		"claude-opus-5":     {Input: 4, Output: 20, CacheRead: 0.4, CacheWrite: 5},
		"claude-opus-4":     {Input: 15, Output: 75, CacheRead: 1.5, CacheWrite: 18.75},
		"claude-opus-4-5":   {Input: 5, Output: 25, CacheRead: 0.5, CacheWrite: 6.25},
		"claude-sonnet-4":   {Input: 3, Output: 15, CacheRead: 0.3, CacheWrite: 3.75},
		"claude-3-7-sonnet": {Input: 3, Output: 15, CacheRead: 0.3, CacheWrite: 3.75},
		"claude-haiku-4-5":  {Input: 1, Output: 5, CacheRead: 0.1, CacheWrite: 1.25},
		"claude-3-5-haiku":  {Input: 0.8, Output: 4, CacheRead: 0.08, CacheWrite: 1},
		"gpt-5":             {Input: 1.25, Output: 10, CacheRead: 0.125},
		"gpt-5-mini":        {Input: 0.25, Output: 2, CacheRead: 0.025},
		"gpt-5-nano":        {Input: 0.05, Output: 0.4, CacheRead: 0.005},
		"gpt-4.1":           {Input: 2, Output: 8, CacheRead: 0.5},
		"gpt-4o":            {Input: 2.5, Output: 10, CacheRead: 1.25},
		"gemini-2.5-pro":    {Input: 1.25, Output: 10, CacheRead: 0.31},
		"gemini-2.5-flash":  {Input: 0.3, Output: 2.5, CacheRead: 0.075},
		// internal/scriptedmodel's model names, priced like the real ones they stand for.
		"claude-fake": {Input: 3, Output: 15, CacheRead: 0.3, CacheWrite: 3.75},
		"gpt-fake":    {Input: 1.25, Output: 10, CacheRead: 0.125},
		"gemini-fake": {Input: 0.3, Output: 2.5, CacheRead: 0.075},
	}
}

// With returns p with over's entries added or replaced.
func (p Prices) With(over Prices) Prices {
	out := make(Prices, len(p)+len(over))
	for k, v := range p {
		out[k] = v
	}
	for k, v := range over {
		out[k] = v
	}
	return out
}

// Lookup returns the price of model and whether the table knows it.
func (p Prices) Lookup(model string) (Price, bool) {
	if pr, ok := p[model]; ok {
		return pr, true
	}
	best, found := "", false
	for k := range p {
		if len(k) > len(best) && strings.HasPrefix(model, k) {
			best, found = k, true
		}
	}
	return p[best], found
}

// Cost is what usage of the model costs at price, in US dollars.
func (pr Price) Cost(u Usage) float64 {
	return (float64(u.InputTokens)*pr.Input + float64(u.OutputTokens)*pr.Output +
		float64(u.CacheReadTokens)*pr.CacheRead + float64(u.CacheWriteTokens)*pr.CacheWrite) / 1e6
}
