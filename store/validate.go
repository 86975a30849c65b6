package store

import (
	"encoding/json"
	"fmt"
	"math"
	"time"
)

// Validate reports, wrapping ErrInvalid, what makes s unfit to store: an
// empty ID, a LastSeq beyond what a signed 64-bit column holds, options
// or statistics that are not JSON. Every Store implementation checks
// with it, so they refuse the same input.
func (s Session) Validate() error {
	switch {
	case s.ID == "":
		return fmt.Errorf("%w: empty session ID", ErrInvalid)
	case s.LastSeq > math.MaxInt64:
		return fmt.Errorf("%w: last seq %d out of range", ErrInvalid, s.LastSeq)
	case len(s.Options) > 0 && !json.Valid(s.Options):
		return fmt.Errorf("%w: options are not valid JSON", ErrInvalid)
	case len(s.Stats) > 0 && !json.Valid(s.Stats):
		return fmt.Errorf("%w: stats are not valid JSON", ErrInvalid)
	}
	return nil
}

// Validate reports, wrapping ErrInvalid, what makes e unfit to store: no
// session, a seq of zero or beyond a signed 64-bit column, no type, data
// that is not JSON.
func (e Event) Validate() error {
	switch {
	case e.SessionID == "":
		return fmt.Errorf("%w: empty session ID", ErrInvalid)
	case e.Seq == 0 || e.Seq > math.MaxInt64:
		return fmt.Errorf("%w: seq %d out of range", ErrInvalid, e.Seq)
	case e.Type == "":
		return fmt.Errorf("%w: empty event type", ErrInvalid)
	case len(e.Data) > 0 && !json.Valid(e.Data):
		return fmt.Errorf("%w: data is not valid JSON", ErrInvalid)
	}
	return nil
}

// WithDefaults is s as the Store contract stores it: an empty PublicID is
// the ID, and zero CreatedAt and UpdatedAt are now.
func (s Session) WithDefaults(now time.Time) Session {
	if s.PublicID == "" {
		s.PublicID = s.ID
	}
	if s.CreatedAt.IsZero() {
		s.CreatedAt = now
	}
	if s.UpdatedAt.IsZero() {
		s.UpdatedAt = now
	}
	return s
}
