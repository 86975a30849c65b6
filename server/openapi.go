package server

import (
	"encoding/json"
	"net/http"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/hotplex/hotplex/engine"
	"github.com/hotplex/hotplex/event"
	"github.com/hotplex/hotplex/webhook"
)

// operation describes one endpoint for both the router and the OpenAPI
// document, so the document cannot drift from what is served.
type operation struct {
	method, path, summary string
	handler               http.HandlerFunc
	public                bool // no API key needed
	request               any  // a value of the JSON body type, or nil
	response              any  // a value of the JSON response type, or nil
	status                int  // success status (default 200)
	stream                bool // the response is an SSE stream of events
	long                  bool // the response may take as long as a turn: no write timeout
	basic                 bool // the API key may come as an HTTP Basic password too
	event                 any  // the type of a stream's data (default EventWithMeta)
}

func (s *Server) operations() []operation {
	type list struct {
		Sessions []sessionView `json:"sessions"`
	}
	type perms struct {
		Permissions []PendingPermission `json:"permissions"`
	}
	type status struct {
		Status string `json:"status"`
	}
	return []operation{
		{method: "GET", path: "/healthz", summary: "Liveness", handler: s.healthz, public: true, response: status{}},
		{method: "GET", path: "/readyz", summary: "Readiness: storage is healthy", handler: s.readyz, public: true, response: status{}},
		{method: "GET", path: "/v1/providers", summary: "The agents sessions may run on, the default first", handler: s.listProviders, response: providerList{}},
		{method: "POST", path: "/v1/sessions", summary: "Create a session", handler: s.createSession, request: createSessionRequest{}, response: sessionView{}, status: http.StatusCreated},
		{method: "GET", path: "/v1/sessions", summary: "List the caller's sessions (admins: ?all=true for every session)", handler: s.listSessions, response: list{}},
		{method: "GET", path: "/v1/sessions/{id}", summary: "Inspect a session: status, PID, statistics", handler: s.getSession, response: sessionView{}},
		{method: "DELETE", path: "/v1/sessions/{id}", summary: "End a session's processes and delete it with its events, queued prompts and worktree (?delete_branch=true: the worktree's branch too); the Hotplex-Dropped-Queued header counts the prompts dropped", handler: s.deleteSession, status: http.StatusNoContent},
		{method: "POST", path: "/v1/sessions/{id}/messages", summary: "Run a turn; the response is an SSE stream of its events. While a turn runs, mode queue (default) queues the prompt (a queued notice, then its turn's events) and mode steer delivers it into the running turn (a steered notice) where the agent can take it, else queues it (steer_fallback)", handler: s.postMessage, request: messageRequest{}, stream: true},
		{method: "GET", path: "/v1/sessions/{id}/events", summary: "Follow a session: replay after Last-Event-ID (or ?after=N), then live events (SSE)", handler: s.followEvents, stream: true},
		{method: "POST", path: "/v1/sessions/{id}/interrupt", summary: "Interrupt the running turn; queued prompts stay and run next (?drop_queued=true drops them)", handler: s.interrupt, response: interruptResponse{}},
		{method: "GET", path: "/v1/sessions/{id}/permissions", summary: "Tool uses waiting for a person's decision", handler: s.listPermissions, response: perms{}},
		{method: "POST", path: "/v1/sessions/{id}/permissions/{request}", summary: "Allow or deny a waiting tool use", handler: s.answerPermission, request: permissionReply{}, response: status{}},
		{method: "GET", path: "/v1/sessions/{id}/diff", summary: "The session's changes: files with status and unified diff, against its worktree's base or its work directory as it was created (patches bounded to 1 MiB in all)", handler: s.getDiff, response: engine.Changes{}},
		{method: "POST", path: "/v1/sessions/{id}/merge", summary: "Fast-forward the branch the session's worktree started from to the session's branch; 409 with the files when that is not possible", handler: s.merge, request: mergeRequest{}, response: engine.MergeResult{}},
		{method: "POST", path: "/v1/sessions/{id}/bypass", summary: "Admin: lift a session's firewall for a while (audited), or restore it (ttl_seconds 0)", handler: s.bypass, request: bypassRequest{}, response: bypassResponse{}},
		{method: "GET", path: "/v1/usage", summary: "Model spend metered by the gateway: the caller's, per session and model (admins: ?all=true for every key's)", handler: s.usage, response: usageView{}},
		{method: "GET", path: "/metrics", summary: "Prometheus metrics (text format 0.0.4)", handler: s.metrics},
		{method: "GET", path: "/v1/ws", summary: "WebSocket API (execute, subscribe, unsubscribe, interrupt, stats, permission_reply, ping)", handler: s.websocket, status: http.StatusSwitchingProtocols, long: true},
		{method: "POST", path: "/v1/hooks", summary: "Register a webhook of the caller's key; the answer holds its signing secret, shown only this once", handler: s.createHook, request: hookRequest{}, response: webhook.Hook{}, status: http.StatusCreated},
		{method: "GET", path: "/v1/hooks", summary: "The caller's webhooks (without their secrets)", handler: s.listHooks, response: hookList{}},
		{method: "DELETE", path: "/v1/hooks/{id}", summary: "Delete one of the caller's webhooks; its pending deliveries are dropped", handler: s.deleteHook, status: http.StatusNoContent},
		{method: "GET", path: "/v1/hooks/{id}/deliveries", summary: "A webhook's delivery log: its latest attempts, newest first, and its counts", handler: s.hookDeliveries, response: webhook.Log{}},
		{method: "GET", path: "/v1/cluster", summary: "Admin: the nodes of the cluster, their load and the leases they hold", handler: s.clusterStatus, response: clusterView{}},
		{method: "DELETE", path: "/v1/keys/{id}", summary: "Admin: revoke an API key; its open WebSockets and streams end at once", handler: s.revokeKey, status: http.StatusNoContent},
	}
}

// OpenAPI returns the OpenAPI 3.1 document of the HTTP API.
func (s *Server) OpenAPI() ([]byte, error) {
	schemas := map[string]any{}
	gen := &schemaGen{defs: schemas}
	paths := map[string]map[string]any{}
	for _, op := range append(s.operations(), s.openCodeOperations()...) {
		o := map[string]any{"summary": op.summary, "operationId": operationID(op)}
		switch {
		case op.public:
			o["security"] = []any{}
		case op.basic:
			o["security"] = []any{map[string]any{"apiKey": []any{}}, map[string]any{"basicAuth": []any{}}}
		}
		var params []any
		for _, seg := range strings.Split(op.path, "/") {
			if strings.HasPrefix(seg, "{") {
				params = append(params, map[string]any{"name": strings.Trim(seg, "{}"), "in": "path", "required": true, "schema": map[string]any{"type": "string"}})
			}
		}
		if params != nil {
			o["parameters"] = params
		}
		if op.request != nil {
			o["requestBody"] = map[string]any{"required": true, "content": map[string]any{
				"application/json": map[string]any{"schema": gen.schema(reflect.TypeOf(op.request))}}}
		}
		code := op.status
		if code == 0 {
			code = http.StatusOK
		}
		resp := map[string]any{"description": http.StatusText(code)}
		switch {
		case op.stream && op.event != nil:
			resp["content"] = map[string]any{"text/event-stream": map[string]any{
				"schema": map[string]any{"description": "Server-Sent Events: data is one event",
					"$ref": gen.ref(reflect.TypeOf(op.event))}}}
		case op.stream:
			resp["content"] = map[string]any{"text/event-stream": map[string]any{
				"schema": map[string]any{"description": "Server-Sent Events: id is the event's number in the session, event its type, data an EventWithMeta",
					"$ref": gen.ref(reflect.TypeFor[event.EventWithMeta]())}}}
		case op.response != nil:
			resp["content"] = map[string]any{"application/json": map[string]any{"schema": gen.schema(reflect.TypeOf(op.response))}}
		}
		o["responses"] = map[string]any{
			strconv.Itoa(code): resp,
			"default":          map[string]any{"description": "Error", "content": map[string]any{"application/json": map[string]any{"schema": gen.schema(reflect.TypeFor[errorBody]())}}},
		}
		if paths[op.path] == nil {
			paths[op.path] = map[string]any{}
		}
		paths[op.path][strings.ToLower(op.method)] = o
	}
	doc := map[string]any{
		"openapi": "3.1.0",
		"info":    map[string]any{"title": "HotPlex API", "version": "1"},
		"paths":   paths,
		"components": map[string]any{
			"schemas": schemas,
			"securitySchemes": map[string]any{
				"apiKey": map[string]any{"type": "http", "scheme": "bearer"},
				// OpenCode's routes take the key as a Basic password too.
				"basicAuth": map[string]any{"type": "http", "scheme": "basic", "description": "the API key as the password, any user name"},
			},
		},
		"security": []any{map[string]any{"apiKey": []any{}}},
	}
	return json.MarshalIndent(doc, "", "  ")
}

type errorBody struct {
	Error apiError `json:"error"`
}

func operationID(op operation) string {
	var b strings.Builder
	b.WriteString(strings.ToLower(op.method))
	for _, seg := range strings.Split(op.path, "/") {
		seg = strings.Trim(seg, "{}")
		if seg == "" || seg == "v1" {
			continue
		}
		b.WriteString(strings.ToUpper(seg[:1]) + seg[1:])
	}
	return b.String()
}

// schemaGen derives JSON schemas from Go types by their json tags.
type schemaGen struct {
	defs map[string]any
}

var timeType = reflect.TypeFor[time.Time]()
var rawType = reflect.TypeFor[json.RawMessage]()

func (g *schemaGen) ref(t reflect.Type) string {
	name := t.Name()
	if _, ok := g.defs[name]; !ok {
		g.defs[name] = nil // placeholder against recursion
		g.defs[name] = g.object(t)
	}
	return "#/components/schemas/" + name
}

func (g *schemaGen) schema(t reflect.Type) map[string]any {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch {
	case t == timeType:
		return map[string]any{"type": "string", "format": "date-time"}
	case t == rawType:
		return map[string]any{"description": "any JSON value"}
	}
	switch t.Kind() {
	case reflect.Struct:
		if t.Name() == "" {
			return g.object(t)
		}
		return map[string]any{"$ref": g.ref(t)}
	case reflect.String:
		return map[string]any{"type": "string"}
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if _, ok := reflect.New(t).Interface().(interface{ MarshalText() ([]byte, error) }); ok {
			return map[string]any{"type": "string"}
		}
		return map[string]any{"type": "integer"}
	case reflect.Float32, reflect.Float64:
		return map[string]any{"type": "number"}
	case reflect.Slice, reflect.Array:
		return map[string]any{"type": "array", "items": g.schema(t.Elem())}
	case reflect.Map:
		return map[string]any{"type": "object", "additionalProperties": g.schema(t.Elem())}
	}
	return map[string]any{"description": "any JSON value"}
}

func (g *schemaGen) object(t reflect.Type) map[string]any {
	props := map[string]any{}
	var required []string
	g.fields(t, props, &required)
	sort.Strings(required)
	o := map[string]any{"type": "object", "properties": props}
	if len(required) > 0 {
		o["required"] = required
	}
	return o
}

func (g *schemaGen) fields(t reflect.Type, props map[string]any, required *[]string) {
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" || (!f.IsExported() && !f.Anonymous) {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			ft := f.Type
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				g.fields(ft, props, required) // promoted fields
				continue
			}
		}
		if name == "" {
			name = f.Name
		}
		props[name] = g.schema(f.Type)
		if !strings.Contains(opts, "omitempty") && !strings.Contains(opts, "omitzero") && f.Type.Kind() != reflect.Pointer {
			*required = append(*required, name)
		}
	}
}
