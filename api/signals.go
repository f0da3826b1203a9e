package api

import (
	"net/http"

	"github.com/prospectorhq/prospector/signals"
)

// bulkSignals: POST /api/v1/signals/bulk
func (s *Server) bulkSignals(w http.ResponseWriter, r *http.Request) error {
	var req signals.BulkRequest
	if err := decodeBody(w, r, &req); err != nil {
		return err
	}
	res, err := s.flows.Signals.Bulk(r.Context(), &req)
	if err != nil {
		return err
	}
	// Hundreds of records per call: rendered without reflection, as
	// writeData would.
	bp := rawPool.Get().(*[]byte)
	defer putRaw(bp)
	b := append((*bp)[:0], `{"data":`...)
	b = append(res.AppendJSON(b), "}\n"...)
	writeRawJSON(w, http.StatusOK, b)
	*bp = b
	return nil
}

// companySignals: GET /api/v1/signals/company/{id}
func (s *Server) companySignals(w http.ResponseWriter, r *http.Request) error {
	recs, err := s.flows.Signals.Company(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	writeData(w, recs)
	return nil
}

// newsEvents: GET /api/v1/signals/news-events
func (s *Server) newsEvents(w http.ResponseWriter, r *http.Request) error {
	var req signals.NewsRequest
	if err := readParams(r, param{"company_domain", &req.CompanyDomain}, param{"found_at_from", &req.FoundAtFrom},
		param{"found_at_until", &req.FoundAtUntil}, param{"page", &req.Page}, param{"limit", &req.Limit}); err != nil {
		return err
	}
	page, err := s.flows.Signals.News(r.Context(), req)
	if err != nil {
		return err
	}
	writeData(w, page)
	return nil
}

// financingEvents: GET /api/v1/signals/financing-events
func (s *Server) financingEvents(w http.ResponseWriter, r *http.Request) error {
	var req signals.FinancingRequest
	if err := readParams(r, param{"company_domain", &req.CompanyDomain}, param{"first_seen_at_from", &req.FirstSeenAtFrom},
		param{"first_seen_at_until", &req.FirstSeenAtUntil}, param{"page", &req.Page}, param{"limit", &req.Limit}); err != nil {
		return err
	}
	page, err := s.flows.Signals.Financing(r.Context(), req)
	if err != nil {
		return err
	}
	writeData(w, page)
	return nil
}

// hiringSignals: GET /api/v1/signals/hiring
func (s *Server) hiringSignals(w http.ResponseWriter, r *http.Request) error {
	req, err := feedRequest(r)
	if err != nil {
		return err
	}
	feed, err := s.flows.Signals.Hiring(r.Context(), req)
	if err != nil {
		return err
	}
	writeData(w, feed)
	return nil
}

// fundingSignals: GET /api/v1/signals/funding
func (s *Server) fundingSignals(w http.ResponseWriter, r *http.Request) error {
	req, err := feedRequest(r)
	if err != nil {
		return err
	}
	feed, err := s.flows.Signals.Funding(r.Context(), req)
	if err != nil {
		return err
	}
	writeData(w, feed)
	return nil
}

func feedRequest(r *http.Request) (signals.FeedRequest, error) {
	var req signals.FeedRequest
	err := readParams(r, param{"since", &req.Since}, param{"company_domain", &req.CompanyDomain},
		param{"industry", &req.Industry}, param{"location", &req.Location}, param{"page", &req.Page}, param{"limit", &req.Limit})
	return req, err
}
