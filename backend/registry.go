package backend

import (
	"errors"
	"fmt"
	"slices"
	"sync"
)

// ErrDuplicateBackend means a backend of that name is already registered.
var ErrDuplicateBackend = errors.New("backend already registered")

// Registry holds backends by name. The zero value is not usable; create it
// with NewRegistry. It is safe for concurrent use.
type Registry struct {
	mu       sync.RWMutex
	backends map[string]Backend
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry {
	return &Registry{backends: map[string]Backend{}}
}

// Register adds b under b.Name(). A nil backend, an empty name or a name
// already taken is an error.
func (r *Registry) Register(b Backend) error {
	if b == nil {
		return errors.New("backend: register: nil backend")
	}
	name := b.Name()
	if name == "" {
		return errors.New("backend: register: empty name")
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.backends[name]; ok {
		return fmt.Errorf("backend: register %q: %w", name, ErrDuplicateBackend)
	}
	r.backends[name] = b
	return nil
}

// Get returns the backend called name, or an error wrapping
// ErrBackendNotFound.
func (r *Registry) Get(name string) (Backend, error) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	b, ok := r.backends[name]
	if !ok {
		return nil, fmt.Errorf("%w: %q (registered: %v)", ErrBackendNotFound, name, r.namesLocked())
	}
	return b, nil
}

// List returns the registered names, sorted.
func (r *Registry) List() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.namesLocked()
}

func (r *Registry) namesLocked() []string {
	names := make([]string, 0, len(r.backends))
	for n := range r.backends {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}
