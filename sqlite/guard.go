package sqlite

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"

	"github.com/prospectorhq/prospector"
)

// openGuarded opens dsn with the "sqlite" driver behind textGuard: every
// string argument of every statement is checked before SQLite sees it, so
// this engine refuses what PostgreSQL refuses (prospector.ValidText) with
// the same typed error instead of storing it. One place, so no write or
// read path, present or future, can miss it.
func openGuarded(dsn string) (*sql.DB, error) {
	// sql.Open connects lazily: this only looks the registered driver up.
	probe, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, err
	}
	drv := probe.Driver()
	if err := probe.Close(); err != nil {
		return nil, err
	}
	return sql.OpenDB(&guardConnector{dsn: dsn, drv: drv}), nil
}

type guardConnector struct {
	dsn string
	drv driver.Driver
}

func (c *guardConnector) Driver() driver.Driver { return c.drv }

func (c *guardConnector) Connect(context.Context) (driver.Conn, error) {
	conn, err := c.drv.Open(c.dsn)
	if err != nil {
		return nil, err
	}
	inner, ok := conn.(sqliteConn)
	if !ok {
		return nil, errors.Join(fmt.Errorf("sqlite: driver connection %T lacks the context methods the store needs", conn), conn.Close())
	}
	return &textGuard{inner}, nil
}

// sqliteConn is what database/sql uses of the driver's connection.
type sqliteConn interface {
	driver.Conn
	driver.ConnBeginTx
	driver.ConnPrepareContext
	driver.ExecerContext
	driver.QueryerContext
	driver.Pinger
	driver.SessionResetter
	driver.Validator
}

// textGuard is the driver's connection with a NamedValueChecker, which
// database/sql calls on every argument, prepared statements' included.
type textGuard struct{ sqliteConn }

var _ driver.NamedValueChecker = (*textGuard)(nil)

// CheckNamedValue converts the argument as database/sql would without a
// checker, then refuses a string that is not prospector.ValidText. The
// error wraps prospector.ErrInvalidText.
func (g *textGuard) CheckNamedValue(nv *driver.NamedValue) error {
	v, err := driver.DefaultParameterConverter.ConvertValue(nv.Value)
	if err != nil {
		return err
	}
	if s, ok := v.(string); ok && !prospector.ValidText(s) {
		return fmt.Errorf("sqlite: argument %d: %w", nv.Ordinal, prospector.ErrInvalidText)
	}
	nv.Value = v
	return nil
}
