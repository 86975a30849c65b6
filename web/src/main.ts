// The HotPlex web UI: a hash router over the login, sessions,
// conversation and fleet pages.

import "./style.css";
import { api, APIError, apiKey, setAPIKey, whenUnauthorized } from "./api";
import { h } from "./html";
import { ConversationView } from "./conversation";
import { SessionsView } from "./sessions";
import { FleetView } from "./fleet";

interface View {
  el: HTMLElement;
  destroy?(): void;
  focus?(): void;
}

const root = document.getElementById("app")!;
let current: View | null = null;
let generation = 0;

function go(hash: string): void {
  if (location.hash === hash) void route();
  else location.hash = hash;
}

function nav(active: string): HTMLElement {
  const link = (href: string, label: string, key: string) =>
    h("a", { href, "aria-current": active === key ? "page" : undefined }, label);
  return h(
    "nav",
    { class: "top", "aria-label": "Main" },
    h("span", { class: "brand" }, "HotPlex"),
    link("#/sessions", "Sessions", "sessions"),
    link("#/fleet", "Fleet", "fleet"),
    h(
      "button",
      {
        type: "button",
        class: "link",
        onclick: () => {
          setAPIKey("");
          go("#/login");
        },
      },
      "Log out",
    ),
  );
}

function show(view: View, active: string): void {
  current?.destroy?.();
  current = view;
  const main = h("main", { id: "main" }, view.el);
  root.replaceChildren(...(active === "login" ? [main] : [nav(active), main]));
  view.focus?.();
}

function loginView(): View {
  const input = h("input", { id: "api-key", type: "password", autocomplete: "current-password", required: true, "aria-describedby": "api-key-help" });
  const err = h("p", { class: "form-error", role: "alert" });
  const form = h(
    "form",
    {
      class: "login",
      "aria-label": "Log in",
      onsubmit: ((e: Event) => {
        e.preventDefault();
        setAPIKey(input.value.trim());
        api
          .sessions()
          .then(() => go("#/sessions"))
          .catch((e: unknown) => {
            setAPIKey("");
            err.textContent = e instanceof APIError && e.status === 401 ? "That key is not valid." : "Cannot reach the daemon: " + String(e);
          });
      }) as EventListener,
    },
    h("h1", {}, "HotPlex"),
    h("label", { for: "api-key" }, "API key"),
    input,
    h(
      "p",
      { class: "login-help muted small", id: "api-key-help" },
      "The daemon prints its admin key when it starts. ",
      h("code", {}, "make run"),
      " also keeps it in ",
      h("code", {}, ".hotplex/admin.key"),
      " (the file ",
      h("code", {}, "--admin-key-file"),
      " names). More keys: ",
      h("code", {}, "hotplex keys create"),
      ".",
    ),
    h("button", { type: "submit", class: "primary" }, "Log in"),
    err,
  );
  return { el: h("section", { class: "login-page" }, form), focus: () => input.focus() };
}

async function route(): Promise<void> {
  const gen = ++generation;
  const hash = location.hash || "#/sessions";
  if (!apiKey() && hash !== "#/login") {
    go("#/login");
    return;
  }
  if (hash === "#/login") {
    show(loginView(), "login");
    return;
  }
  if (hash === "#/fleet") {
    show(new FleetView(), "fleet");
    return;
  }
  const m = /^#\/s\/(.+)$/.exec(hash);
  if (m) {
    const id = decodeURIComponent(m[1]);
    try {
      const s = await api.session(id);
      if (gen !== generation) return;
      show(new ConversationView(s), "sessions");
    } catch (e) {
      if (gen !== generation) return;
      show({ el: h("section", {}, h("h1", {}, "Session " + id), h("p", { class: "form-error", role: "alert" }, e instanceof Error ? e.message : String(e))) }, "sessions");
    }
    return;
  }
  show(new SessionsView(go), "sessions");
}

whenUnauthorized(() => {
  setAPIKey("");
  if (location.hash !== "#/login") go("#/login");
});
window.addEventListener("hashchange", () => void route());
void route();
