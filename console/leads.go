package console

import (
	"context"
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/feedback"
	"github.com/prospectorhq/prospector/leads"
	"github.com/prospectorhq/prospector/radar"
	"github.com/prospectorhq/prospector/wire"
)

type leadsData struct {
	Radars       []wire.Radar
	Radar        string // the chosen radar's id
	Leads        []wire.RadarLead
	More         bool // more leads than are shown
	Destinations []string
	Events       []string
	Back         string
	Push         *leads.PushResult
}

// leads: GET /leads, a radar's leads to select for export or push.
func (c *Console) leads(w http.ResponseWriter, r *http.Request) error {
	d, err := c.leadsData(r, r.URL.Query().Get("radar"))
	if err != nil {
		return err
	}
	return c.render(w, r, http.StatusOK, "leads", &page{Title: "Leads", Nav: "leads", Data: d})
}

func (c *Console) leadsData(r *http.Request, radarID string) (*leadsData, error) {
	ctx, ws := r.Context(), &sessionOf(r.Context()).principal.Workspace
	rs, err := c.flows.Radars.List(ctx, ws, radar.ListRequest{Limit: "100"})
	if err != nil {
		return nil, err
	}
	d := &leadsData{Radars: rs.Items, Radar: radarID, Destinations: prospector.OutreachDestinations(),
		Events: prospector.FeedbackEventTypes(), Back: "/leads?radar=" + url.QueryEscape(radarID)}
	if radarID == "" && len(rs.Items) > 0 {
		d.Radar = rs.Items[0].ID
		d.Back = "/leads?radar=" + url.QueryEscape(d.Radar)
	}
	if d.Radar == "" {
		return d, nil
	}
	if d.Leads, err = c.flows.Radars.Leads(ctx, ws, d.Radar, radar.LeadsRequest{Limit: radarPageLeads + 1, Context: 1}); err != nil {
		return nil, err
	}
	if len(d.Leads) > radarPageLeads {
		d.More = true
		d.Leads = d.Leads[:radarPageLeads]
	}
	return d, nil
}

var errNoLeadsSelected = prospector.Errorf(prospector.EINVALID, "lead_ids: select at least one lead")

// exportLeads: POST /leads/export, the selected leads as a CSV or JSON
// file the browser downloads.
func (c *Console) exportLeads(w http.ResponseWriter, r *http.Request) error {
	ids := nonEmpty(r.PostForm["lead_id"])
	if len(ids) == 0 {
		return errNoLeadsSelected
	}
	format := r.PostFormValue("format")
	res, err := c.flows.Leads.Export(r.Context(), &sessionOf(r.Context()).principal.Workspace,
		&leads.ExportRequest{LeadIDs: ids, Format: opt(format)})
	if err != nil {
		return err
	}
	var body []byte
	switch data := res.Data.(type) {
	case string:
		body = []byte(data)
	default:
		if body, err = json.MarshalIndent(data, "", "  "); err != nil {
			return fmt.Errorf("console: export: %w", err)
		}
	}
	h := w.Header()
	h.Set("Content-Type", res.ContentType)
	h.Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": res.FileName}))
	h.Set("Content-Length", strconv.Itoa(len(body)))
	_, err = w.Write(body)
	return err
}

// pushLeads: POST /leads/push, the selected leads to a destination; the
// page shows how it went.
func (c *Console) pushLeads(w http.ResponseWriter, r *http.Request) error {
	ids := nonEmpty(r.PostForm["lead_id"])
	d, err := c.leadsData(r, r.PostFormValue("radar"))
	if err != nil {
		return err
	}
	p := &page{Title: "Leads", Nav: "leads", Data: d}
	if len(ids) == 0 {
		p.Error = errNoLeadsSelected.Message
		return c.render(w, r, http.StatusBadRequest, "leads", p)
	}
	// A push waits on the destination; the workflow bounds it.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), leads.PushDeadline+5*time.Second)
	defer cancel()
	d.Push, err = c.flows.Leads.Push(ctx, &sessionOf(r.Context()).principal.Workspace, &leads.PushRequest{
		LeadIDs: ids, Destination: opt(r.PostFormValue("destination")), WebhookURL: opt(r.PostFormValue("webhook_url"))})
	if err != nil {
		return c.formError(w, r, "leads", p, err)
	}
	return c.render(w, r, http.StatusOK, "leads", p)
}

// recordFeedback: POST /feedback, an outcome on one of the workspace's
// leads; back to the page the form was on.
func (c *Console) recordFeedback(w http.ResponseWriter, r *http.Request) error {
	req := &feedback.EventRequest{LeadID: opt(r.PostFormValue("lead_id")), EventType: opt(r.PostFormValue("event_type")),
		Content: opt(r.PostFormValue("content"))}
	if _, _, err := c.flows.Feedback.Record(r.Context(), &sessionOf(r.Context()).principal.Workspace, "", req); err != nil {
		return err
	}
	http.Redirect(w, r, withNotice(r.PostFormValue("back"), "/leads", "recorded")+"#feedback", http.StatusSeeOther)
	return nil
}

// withNotice is the local path back (or def when back is not local) with
// its notice set to code.
func withNotice(back, def, code string) string {
	u, err := url.Parse(localPath(back))
	if err != nil || u.Path == "" {
		u, _ = url.Parse(def)
	}
	q := u.Query()
	q.Set("notice", code)
	u.RawQuery, u.Fragment = q.Encode(), ""
	return u.RequestURI()
}
