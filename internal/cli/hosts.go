package cli

import (
	"context"
	"fmt"
	"strings"
)

// maxListedHosts bounds /hosts without a selection.
const maxListedHosts = 200

// slashHosts lists the fleet inventory, or the hosts a selection picks.
func (c *chat) slashHosts(_ context.Context, args []string) error {
	if c.w == nil || c.w.Fleet == nil {
		if c.w != nil && c.w.FleetErr != nil {
			return c.w.FleetErr
		}
		return fmt.Errorf("no fleet: no Host alias in ~/.ssh/config and no fleet.inventory in the configuration")
	}
	inv := c.w.Fleet.Inventory()
	hosts, limit, selection := inv.Hosts(), maxListedHosts, ""
	if len(args) > 0 {
		selection = strings.Join(args, ",")
		sel, err := inv.Select(selection)
		if err != nil {
			return err
		}
		hosts, limit = sel, 0
	}
	c.println("%s", inv.Listing(hosts, limit, selection))
	return nil
}
