package console

import (
	"net/http"

	"github.com/prospectorhq/prospector/account"
)

type accountData struct {
	Usage   *account.CreditUsage
	Keys    []account.Key
	Rate    string
	Credits chart
}

// account: GET /account, credits, tier, rate limit and keys.
func (c *Console) account(w http.ResponseWriter, r *http.Request) error {
	s := sessionOf(r.Context())
	u, err := c.flows.Account.CreditUsage(r.Context(), s.principal)
	if err != nil {
		return err
	}
	keys, err := c.flows.Account.Keys(r.Context(), s.principal)
	if err != nil {
		return err
	}
	// The rate the API applies to this key, the default tier's for a
	// tier the configuration does not know.
	d := &accountData{Usage: u, Keys: keys, Rate: c.tierRates.Of(s.principal.Key.Tier).String()}
	used := float64(u.Credits.Used)
	items := []chartItem{{"Used", used, itoa(u.Credits.Used)}}
	scale := 0.0
	if u.Credits.Remaining != nil && u.Credits.Total != nil {
		items = append(items, chartItem{"Remaining", float64(*u.Credits.Remaining), itoa(*u.Credits.Remaining)})
		scale = float64(*u.Credits.Total)
		items[0].Text += " of " + itoa(*u.Credits.Total)
	} else {
		items[0].Text += " (no limit)"
	}
	// The period's elapsed days beside the credits, on the same scale of
	// 100%, tell whether the credits will last the period.
	if span := u.PeriodEnd.Sub(u.PeriodStart); span > 0 && scale > 0 {
		elapsed := min(max(u.Now.Sub(u.PeriodStart), 0), span)
		days, total := int64(elapsed.Hours()/24), int64(span.Hours()/24+0.5)
		items = append(items, chartItem{"Period elapsed", float64(elapsed) / float64(span) * scale,
			itoa(days) + " of " + itoa(total) + " days"})
	}
	d.Credits = newChart("credits", "Credits used and remaining, and the period elapsed, from "+
		u.PeriodStart.UTC().Format("2006-01-02")+" to "+u.PeriodEnd.UTC().Format("2006-01-02"), items, scale)
	return c.render(w, r, http.StatusOK, "account", &page{Title: "Account", Nav: "account", Data: d})
}
