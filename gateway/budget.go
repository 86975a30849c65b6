package gateway

import (
	"errors"
	"fmt"
)

// ErrBudgetExceeded is the cause of a call refused, and of a turn ended,
// because a session or an API key spent its budget.
var ErrBudgetExceeded = errors.New("budget_exceeded")

// BudgetError says whose budget was spent. It wraps ErrBudgetExceeded.
type BudgetError struct {
	SessionID string
	Owner     string
	// Scope is "session" or "key": which budget was spent.
	Scope     string
	SpentUSD  float64
	BudgetUSD float64
}

func (e *BudgetError) Error() string {
	who := "session " + e.SessionID
	if e.Scope == "key" {
		who = "API key " + e.Owner
	}
	return fmt.Sprintf("%v: %s has spent $%.4f of its $%.4f budget", ErrBudgetExceeded, who, e.SpentUSD, e.BudgetUSD)
}

func (e *BudgetError) Unwrap() error { return ErrBudgetExceeded }

// ownerBudget is the budget of one API key (0: none).
func (g *Gateway) ownerBudget(owner string) float64 {
	if owner == "" {
		return 0
	}
	if b, ok := g.opts.OwnerBudgets[owner]; ok {
		return b
	}
	return g.opts.OwnerBudgetUSD
}

// overBudget returns the budget a session or its owner has used up, given
// what each has spent, or nil.
func (g *Gateway) overBudget(sessionID, owner string, sessionUSD, ownerUSD float64) *BudgetError {
	if b := g.opts.SessionBudgetUSD; b > 0 && sessionID != "" && sessionUSD >= b {
		return &BudgetError{SessionID: sessionID, Owner: owner, Scope: "session", SpentUSD: sessionUSD, BudgetUSD: b}
	}
	if b := g.ownerBudget(owner); b > 0 && ownerUSD >= b {
		return &BudgetError{SessionID: sessionID, Owner: owner, Scope: "key", SpentUSD: ownerUSD, BudgetUSD: b}
	}
	return nil
}

func (g *Gateway) exceeded(e *BudgetError) {
	g.log.Warn("model budget exceeded", "session", e.SessionID, "owner", e.Owner, "scope", e.Scope, "spent_usd", e.SpentUSD, "budget_usd", e.BudgetUSD)
	if h := g.opts.OnBudgetExceeded; h != nil {
		h(e)
	}
}
