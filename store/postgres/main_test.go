package postgres

import (
	"os"
	"testing"

	"go.uber.org/goleak"

	"github.com/hotplex/hotplex/internal/pgtest"
)

// server is the package's PostgreSQL server; each test makes a database
// of its own on it.
var server *pgtest.Server

func TestMain(m *testing.M) {
	os.Exit(pgtest.Main(m, &server, func() error { return goleak.Find() }))
}
