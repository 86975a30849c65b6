package opencode

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/store"
)

// todoTool is the tool with which Claude Code writes its todo list, whole
// each time; agents without one keep no list HotPlex can show.
const todoTool = "TodoWrite"

// ocTodo is a todo item as OpenCode shows it.
type ocTodo struct {
	ID       string `json:"id"`
	Content  string `json:"content"`
	Status   string `json:"status"`   // pending, in_progress, completed, cancelled
	Priority string `json:"priority"` // high, medium, low
}

type ocTodoUpdate struct {
	SessionID string   `json:"sessionID"`
	Todos     []ocTodo `json:"todos"`
}

// todosOf reads the list a TodoWrite tool use writes; ok is false for
// another tool or an input of another shape.
func todosOf(ev *event.EventWithMeta) (todos []ocTodo, ok bool) {
	if ev.EventType != event.TypeToolUse || ev.Meta == nil || ev.Meta.ToolName != todoTool {
		return nil, false
	}
	items, ok := ev.Input["todos"].([]any)
	if !ok {
		return nil, false
	}
	todos = make([]ocTodo, 0, len(items))
	for i, it := range items {
		m, _ := it.(map[string]any)
		str := func(k, def string) string {
			if s, ok := m[k].(string); ok && s != "" {
				return s
			}
			return def
		}
		todos = append(todos, ocTodo{ID: str("id", fmt.Sprint(i+1)), Content: str("content", ""), Status: str("status", "pending"), Priority: str("priority", "medium")})
	}
	return todos, true
}

// todos is the list st's agent wrote last.
func (a *API) todos(r *http.Request, st store.Session) ([]ocTodo, error) {
	evs, err := a.store.Events(r.Context(), st.ID, 0, 0)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return nil, err
	}
	for i := len(evs) - 1; i >= 0; i-- {
		if ev := decodeStored(evs[i]); ev != nil {
			if todos, ok := todosOf(ev); ok {
				return todos, nil
			}
		}
	}
	return []ocTodo{}, nil
}

func (a *API) ocSessionTodo(w http.ResponseWriter, r *http.Request) {
	st, err := a.owned(r)
	if err != nil {
		a.writeError(w, err)
		return
	}
	todos, err := a.todos(r, st)
	if err != nil {
		a.writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, todos)
}
