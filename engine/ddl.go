package engine

import (
	"context"
	"errors"
	"fmt"

	"github.com/gofluss/fluss/flussrpc"
	"github.com/gofluss/fluss/planner"
)

// executeDDL runs the catalog-changing plans execute hands it. Every
// change invalidates the session's prepared plans (and flussrpc's Admin
// drops the client's handles of the tables changed), so that the next
// statement sees the new schema.
func (c *Session) executeDDL(ctx context.Context, p planner.Plan) (err error) {
	adm := c.client.Admin()
	switch p := p.(type) {
	case *planner.CreateDatabase:
		err = adm.CreateDatabase(ctx, p.Name, p.Descriptor, p.IfNotExists)
	case *planner.DropDatabase:
		err = adm.DropDatabase(ctx, p.Name, p.IfExists, p.Cascade)
		if errors.Is(err, flussrpc.ErrDatabaseNotEmpty) {
			// Say what would work: Flink's default is RESTRICT, as here.
			err = &flussrpc.Error{Code: flussrpc.CodeDatabaseNotEmpty, API: flussrpc.APIKeyDropDatabase,
				Message: fmt.Sprintf("database %q is not empty; use DROP DATABASE %s CASCADE", p.Name, p.Name)}
		}
	case *planner.AlterDatabase:
		err = errors.New("fluss: ALTER DATABASE needs a Fluss 1.0 server (0.9 has no API for it)")
	case *planner.CreateTable:
		err = adm.CreateTable(ctx, p.Path, p.Descriptor, p.IfNotExists)
	case *planner.DropTable:
		for _, path := range p.Paths {
			if err = adm.DropTable(ctx, path, p.IfExists); err != nil {
				break
			}
		}
	case *planner.AlterTable:
		err = c.alterTable(ctx, p)
	case *planner.AddPartition:
		for _, spec := range p.Specs {
			if err = adm.CreatePartition(ctx, p.Path, spec, p.IfNotExists); err != nil {
				break
			}
		}
	case *planner.DropPartition:
		for _, spec := range p.Specs {
			if err = adm.DropPartition(ctx, p.Path, spec, p.IfExists); err != nil {
				break
			}
		}
	default:
		return fmt.Errorf("fluss: %s is not a catalog change", planKind(p))
	}
	c.sessVersion++
	return err
}

// alterTable sends option and schema changes as separate requests: the
// server refuses a request that mixes them.
func (c *Session) alterTable(ctx context.Context, p *planner.AlterTable) error {
	for _, group := range [][]planner.TableChange{p.OptionChanges, p.SchemaChanges} {
		if len(group) == 0 {
			continue
		}
		changes := make([]flussrpc.TableChange, len(group))
		for i, ch := range group {
			changes[i] = rpcChange(ch)
		}
		if err := c.client.Admin().AlterTable(ctx, p.Path, p.IfExists, changes...); err != nil {
			return err
		}
	}
	return nil
}
