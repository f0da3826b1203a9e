package console

import (
	"net/http"
	"strconv"

	"github.com/prospectorhq/prospector/feedback"
)

// insightDays are the windows the insights page offers.
var insightDays = []int{7, 30, 90, 365}

type insightsData struct {
	Insights *feedback.Insights
	Days     []int
	Chosen   int
	Rates    chart
	Signals  chart
}

// insights: GET /insights?days=N, what converted over the chosen days.
func (c *Console) insights(w http.ResponseWriter, r *http.Request) error {
	s := sessionOf(r.Context())
	in, err := c.flows.Feedback.Insights(r.Context(), &s.principal.Workspace, feedback.InsightsRequest{Days: r.URL.Query().Get("days")})
	if err != nil {
		return err
	}
	sum := in.Summary
	d := &insightsData{Insights: in, Days: insightDays, Chosen: in.Period.Days}
	d.Rates = newChart("rates", "Reply, positive and meeting rates over the last "+strconv.Itoa(in.Period.Days)+" days",
		[]chartItem{
			{"Reply rate", in.Rates.ReplyRate, pctText(in.Rates.ReplyRate, sum.Replied, sum.TotalLeads)},
			{"Positive rate", in.Rates.PositiveRate, pctText(in.Rates.PositiveRate, sum.Positive, sum.TotalLeads)},
			{"Meeting rate", in.Rates.MeetingRate, pctText(in.Rates.MeetingRate, sum.Meetings, sum.TotalLeads)},
		}, 1)
	var items []chartItem
	for _, st := range in.WinningPersonas.SignalTypes {
		items = append(items, chartItem{st.SignalType, float64(st.Replies), itoa(st.Replies) + " replies of " + itoa(st.Total)})
	}
	d.Signals = newChart("signals", "Replies by signal type", items, 0)
	return c.render(w, r, http.StatusOK, "insights", &page{Title: "Insights", Nav: "insights", Data: d})
}

// pctText writes a rate with what it is made of: "25.0% (1 of 4)".
func pctText(rate float64, n, total int64) string {
	return strconv.FormatFloat(rate*100, 'f', 1, 64) + "% (" + itoa(n) + " of " + itoa(total) + ")"
}
