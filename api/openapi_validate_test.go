package api_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"
)

var (
	openAPIOnce   sync.Once
	openAPIRouter routers.Router
	openAPIErr    error
)

// openAPIRouterForTests loads api/openapi.json once and builds a router over it.
func openAPIRouterForTests() (routers.Router, error) {
	openAPIOnce.Do(func() {
		loader := openapi3.NewLoader()
		loader.IsExternalRefsAllowed = false
		doc, err := loader.LoadFromFile(openAPIPath)
		if err != nil {
			openAPIErr = fmt.Errorf("load %s: %w", openAPIPath, err)
			return
		}
		// legacy.NewRouter validates the document (3.1 semantics) before routing.
		openAPIRouter, openAPIErr = legacy.NewRouter(doc)
	})
	return openAPIRouter, openAPIErr
}

// validateAgainstOpenAPI fails t unless the response (status, header, body)
// to req is one the OpenAPI document allows for req's operation. The status
// must be documented for the operation; headers and the JSON body are checked
// against their schemas. req may be a server-side request (relative URL) or a
// client request (absolute URL); only its method, path and query are used.
func validateAgainstOpenAPI(t *testing.T, req *http.Request, status int, header http.Header, body []byte) {
	t.Helper()
	if err := openAPIResponseError(req, status, header, body); err != nil {
		t.Errorf("%s %s -> %d does not conform to the OpenAPI document: %v", req.Method, req.URL.Path, status, err)
	}
}

// openAPIResponseError is the error-returning core of validateAgainstOpenAPI.
func openAPIResponseError(req *http.Request, status int, header http.Header, body []byte) error {
	router, err := openAPIRouterForTests()
	if err != nil {
		return err
	}
	// Route on method, path and query only: the document's server is "/", so
	// a scheme and host would not match it.
	routed := req.Clone(context.Background())
	routed.URL = &url.URL{Path: req.URL.Path, RawPath: req.URL.RawPath, RawQuery: req.URL.RawQuery}
	routed.Body = http.NoBody
	route, pathParams, err := router.FindRoute(routed)
	if err != nil {
		return fmt.Errorf("find route: %w", err)
	}
	if header == nil {
		header = http.Header{}
	}
	input := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{
			Request:    routed,
			PathParams: pathParams,
			Route:      route,
			Options: &openapi3filter.Options{
				AuthenticationFunc: openapi3filter.NoopAuthenticationFunc,
			},
		},
		Status: status,
		Header: header,
		Body:   io.NopCloser(bytes.NewReader(body)),
		Options: &openapi3filter.Options{
			// Security is not re-checked here; ValidateResponse never calls
			// AuthenticationFunc, which is set anyway for clarity.
			AuthenticationFunc:    openapi3filter.NoopAuthenticationFunc,
			IncludeResponseStatus: true,
			MultiError:            true,
		},
	}
	return openapi3filter.ValidateResponse(context.Background(), input)
}

func TestOpenAPIValidateHelper(t *testing.T) {
	headers := func() http.Header {
		h := http.Header{}
		h.Set("Content-Type", "application/json")
		h.Set("X-Request-Id", "req-123")
		h.Set("X-Ratelimit-Limit", "100")
		h.Set("X-Ratelimit-Remaining", "0")
		h.Set("X-Ratelimit-Reset", "42")
		return h
	}
	keyInfo := httptest.NewRequest(http.MethodGet, "/api/v1/account/key-info", nil)
	const unauthorized = `{"error":{"code":"unauthorized","message":"missing API key"}}`

	t.Run("valid 401 passes", func(t *testing.T) {
		validateAgainstOpenAPI(t, keyInfo, http.StatusUnauthorized, headers(), []byte(unauthorized))
	})
	t.Run("valid 401 with absolute client URL passes", func(t *testing.T) {
		req, err := http.NewRequest(http.MethodGet, "http://127.0.0.1:8080/api/v1/account/key-info", nil)
		if err != nil {
			t.Fatal(err)
		}
		validateAgainstOpenAPI(t, req, http.StatusUnauthorized, headers(), []byte(unauthorized))
	})
	t.Run("valid 429 with Retry-After passes", func(t *testing.T) {
		h := headers()
		h.Set("Retry-After", "42")
		req := httptest.NewRequest(http.MethodGet, "/api/v1/radar/r_1/leads?date_range=last_30_days", nil)
		validateAgainstOpenAPI(t, req, http.StatusTooManyRequests, h,
			[]byte(`{"error":{"code":"rate_limit_exceeded","message":"slow down"}}`))
	})
	t.Run("valid health passes", func(t *testing.T) {
		req := httptest.NewRequest(http.MethodGet, "/api/v1/health", nil)
		validateAgainstOpenAPI(t, req, http.StatusOK, headers(),
			[]byte(`{"data":{"status":"ok","version":"1.0.0","database":"ok","rate_limiter":"local","time":"2024-05-01T10:00:00Z"}}`))
	})

	invalid := []struct {
		name   string
		req    *http.Request
		status int
		header func() http.Header
		body   string
		want   string
	}{
		{"unknown error code", keyInfo, http.StatusUnauthorized, headers,
			`{"error":{"code":"bogus","message":"missing API key"}}`, "response body doesn't match schema"},
		{"extra envelope member", keyInfo, http.StatusUnauthorized, headers,
			`{"error":{"code":"unauthorized","message":"x"},"detail":"y"}`, "response body doesn't match schema"},
		{"missing message", keyInfo, http.StatusUnauthorized, headers,
			`{"error":{"code":"unauthorized"}}`, "response body doesn't match schema"},
		{"missing x-request-id", keyInfo, http.StatusUnauthorized, func() http.Header {
			h := headers()
			h.Del("X-Request-Id")
			return h
		}, unauthorized, "x-request-id"},
		{"non-integer x-ratelimit-reset", keyInfo, http.StatusUnauthorized, func() http.Header {
			h := headers()
			h.Set("X-Ratelimit-Reset", "soon")
			return h
		}, unauthorized, "x-ratelimit-reset"},
		{"undocumented status", keyInfo, http.StatusBadRequest, headers,
			`{"error":{"code":"validation_error","message":"bad"}}`, "status is not supported"},
		{"wrong content type", keyInfo, http.StatusUnauthorized, func() http.Header {
			h := headers()
			h.Set("Content-Type", "text/plain")
			return h
		}, unauthorized, "Content-Type"},
		{"health with a bad rate_limiter", httptest.NewRequest(http.MethodGet, "/api/v1/health", nil), http.StatusOK, headers,
			`{"data":{"status":"ok","version":"1","database":"ok","rate_limiter":"memcached","time":"2024-05-01T10:00:00Z"}}`,
			"response body doesn't match schema"},
	}
	for _, tc := range invalid {
		t.Run("invalid: "+tc.name, func(t *testing.T) {
			err := openAPIResponseError(tc.req, tc.status, tc.header(), []byte(tc.body))
			if err == nil {
				t.Fatal("validation passed, want an error")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not mention %q", err, tc.want)
			}
		})
	}

	t.Run("unknown route fails", func(t *testing.T) {
		req := httptest.NewRequest(http.MethodGet, "/api/v1/nope", nil)
		if err := openAPIResponseError(req, http.StatusOK, headers(), []byte(`{"data":{}}`)); err == nil {
			t.Fatal("validation passed for an undocumented route")
		}
	})
}

// openAPISample is a response the document must accept (or reject).
type openAPISample struct {
	method, target string
	status         int
	body           string
}

const (
	oasSampleLead = `{"id":"l_1","full_name":"Ada Lovelace","first_name":"Ada","last_name":null,"title":"CTO","company":"Acme",` +
		`"network_url":null,"email":null,"phone":null,"location":"London, UK","score":0.8,"status":"detected","source":"radar",` +
		`"radar_id":"r_1","campaign_id":null,"created_at":"2024-05-01T10:00:00Z"}`
	oasSampleSignal = `{"id":"l_1:0","type":"tech_changes","company":"Acme","company_domain":"acme.com","lead_id":"l_1","lead_name":"Ada Lovelace",` +
		`"lead_title":null,"network_url":null,"title":"Adopted a CRM","detail":null,"source_url":null,"detected_at":"2024-05-01T10:00:00.123+02:00","score":null}`
	oasSampleRadarSignal = `{"id":"l_1:0","type":"job_change","lead_id":"l_1","lead_name":"Ada Lovelace","company":null,"title":"VP Sales",` +
		`"detail":null,"source_url":null,"detected_at":null,"score":3}`
	oasSampleBreakdown = `{"total":93.4,"signal_type":30,"recency":24.4,"title_fit":24,"company_fit":15,"signal":"l_1:0",` +
		`"type":"job_change"}`
	oasSampleContact = `{"id":"c_1","name":"Ada Lovelace","title":"CTO","company":"Acme","role":"decision_maker","network_url":null,` +
		`"email":null,"location":null,"score":null,"outreach_angle":"Scaling engineering"}`
	oasSampleWorkspace   = `{"id":"w_1","user_id":"u_1","role":"owner","email":"owner@example.com"}`
	oasSampleFieldValues = `{"lead_statuses":["detected","queued_comment","commented","queued_connect","connection_sent","connected","queued_message",` +
		`"messaged","replied","meeting_booked","not_interested","connection_withdrawn","skipped","blocked"],` +
		`"signal_types":["keyword_post","keyword_comment","competitor_engagement","influencer_engagement","asking_for_recommendations",` +
		`"job_change","company_hiring","funding_announcement","event_rsvp","tech_changes"],` +
		`"employee_ranges":["1-10","11-50","51-200","201-500","501-1000","1001-5000","5001-10000","10001+"],` +
		`"job_levels":["Founder","CXO","VP","Director","Head","Manager","IC"],` +
		`"job_functions":["Sales","Marketing","Growth","Revenue","Operations","RevOps","Product","Engineering","People","Finance",` +
		`"Customer Success","Partnerships"],` +
		`"countries":{"global":"WORLD","recommended_examples":["WORLD","US","SG","GB","AU","CA","ID"],"format":"ISO 3166-1 alpha-2 country code"},` +
		`"public_api_feedback_event_types":["open","click","reply","positive_reply","bounce","meeting_booked"],` +
		`"outreach_destinations":["outreach_tool_a","outreach_tool_b","webhook_url"],` +
		`"search_logic":{"field_groups":"AND","values_inside_same_field":"OR","exclude_filters":"NOT","global_location":"WORLD"},` +
		`"endpoint_groups":{"discover":["POST /api/v1/discover/companies","POST /api/v1/discover/people"],` +
		`"signals":["GET /api/v1/signals/hiring","GET /api/v1/signals/funding"]},"generated_at":"2024-05-01T10:00:00Z"}`
)

// oasSampleRadar is a radar as GET /radar/{id} answers it.
const oasSampleRadar = `{"radar_id":"rdr_aaaaaaaaaaaaaaaaaaaaaaaaaa","name":"VP Sales · US (2026-11-24)","status":"active",` +
	`"leads":3,"signals":5,"last_scan_at":"2026-11-24T10:00:00.000Z","paused_at":null,"created_at":"2026-11-24T09:00:00.000Z",` +
	`"rules":{"titles":["VP Sales"],"industries":[],"geos":["US"],"signals_to_track":["hiring"],"company_size_min":null,` +
	`"company_size_max":null,"pain_keywords":[],"category_keywords":[],"competitor_urls":[],"influencer_urls":[],` +
	`"exclude_keywords":[],"company_types":[],"company_network_url":null,"your_profile_url":null,` +
	`"track_profile_visitors":false,"company_followers_url":null,"raised_funds":false,"recent_job_changes":false,` +
	`"job_posting_keywords":["hiring"]},"signal_types":["company_hiring"]}`

var validOpenAPISamples = []openAPISample{
	{"GET", "/api/v1/account/key-info", 200, `{"data":{"valid":true,"public_api_enabled":true,` +
		`"auth":{"type":"api_key","subject":"k_1","key_header":"X-Service-API-Key"},"workspace":` + oasSampleWorkspace + `,"tier":"starter",` +
		`"rate_limit":{"enabled":true,"strategy":"fixed_window","simple":{"requests":300,"window":"1m"},` +
		`"tiers":{"default":"100/m","starter":"300/m","growth":"1000/m"}},` +
		`"allowed_endpoints":["GET /api/v1/account/key-info","POST /api/v1/leads/push"],"generated_at":"2024-05-01T10:00:00Z"}}`},
	{"GET", "/api/v1/account/credit-usage", 200, `{"data":{"workspace":` + oasSampleWorkspace + `,` +
		`"subscription":{"tier":"growth","status":"none","current_period_end":null,"pending_plan":null,"pending_plan_at":null},` +
		`"credits":{"total":null,"used":12,"remaining":null,"unlimited":true,"bypassed":true},` +
		`"limits":{"radars":{"used":1,"limit":5,"unlimited":false,"bypassed":false},` +
		`"networkAccounts":{"used":0,"limit":null,"unlimited":true,"bypassed":false},` +
		`"radarSignals":{"limit":1000,"unlimited":false,"bypassed":false}},"generated_at":"2024-05-01T10:00:00Z"}}`},
	{"GET", "/api/v1/meta/field-values", 200, `{"data":` + oasSampleFieldValues + `}`},
	{"POST", "/api/v1/discover/companies", 200, `{"data":[{"id":"https://network.example/company/acme","name":"Acme","domain":"acme.com",` +
		`"website":"https://acme.com","industry":"Software Development","location":null,"employee_size":"51-200","employee_count":120},` +
		`{"id":"x","name":"X","domain":"x.io","website":"https://x.io","industry":"Banking","location":"SG","employee_size":null,"employee_count":null}]}`},
	{"POST", "/api/v1/discover/people", 200, `{"data":[{"id":"p_1","name":"Ada","title":null,"company":"Acme","network_url":null,"location":null,"score":1.5}]}`},
	{"POST", "/api/v1/search/companies", 200, `{"data":{"items":[],"pagination":{"cursor":null,"next_cursor":"abc","has_more":true}}}`},
	{"POST", "/api/v1/search/people", 200, `{"data":{"items":[{"id":"p_1","name":"Ada","title":"CTO","company":null,"network_url":null,` +
		`"location":null,"score":null}],"pagination":{"cursor":"abc","next_cursor":null,"has_more":false}}}`},
	{"POST", "/api/v1/contacts/find", 200, `{"data":[` + oasSampleContact + `]}`},
	{"POST", "/api/v1/contacts/employee-finder", 200, `{"data":{"items":[` + oasSampleContact + `],` +
		`"pagination":{"page":1,"per_page":25,"total":1,"has_more":false,"next_page":null}}}`},
	{"POST", "/api/v1/contacts/waterfall-icp", 200, `{"data":{"matched":true,"matched_tier":2,"matched_role":"budget_owner",` +
		`"items":[` + oasSampleContact + `],"waterfall":[{"tier":1,"role":"decision_maker","status":"not_matched","result_count":0,"evaluated":true},` +
		`{"tier":2,"role":"budget_owner","status":"matched","result_count":1,"evaluated":true},` +
		`{"tier":3,"role":"influencer","status":"not_matched","result_count":0,"evaluated":false}]}}`},
	{"POST", "/api/v1/enrich/email", 200, `{"data":{"email":"","verified":false,"confidence":0}}`},
	{"POST", "/api/v1/signals/bulk", 200, `{"data":{"acme.com":[` + oasSampleSignal + `],"x.io":[]}}`},
	{"GET", "/api/v1/signals/company/acme.com", 200, `{"data":[` + oasSampleSignal + `]}`},
	{"GET", "/api/v1/signals/news-events?company_domain=acme.com&page=1&limit=10", 200, `{"data":{"company_domain":"acme.com",` +
		`"type":"news_events","count":1,"items":[{"id":"n_1","event_type":"news_event","categories":["launches"],"effective_date":"2024-04-30",` +
		`"found_at":"2024-05-01T10:00:00Z","attributes":{"summary":"Acme launches X","confidence":0.9,"article_sentence":null,"planning":false,` +
		`"amount":null,"amount_normalized":null,"assets":null,"assets_tags":[],"award":null,"contact":null,"division":null,"event":null,` +
		`"financing_type":null,"financing_type_normalized":null,"financing_type_tags":[],"headcount":null,"job_title":null,"job_title_tags":[],` +
		`"location":null,"location_data":[{"city":"Berlin"}],"product":"X","product_data":{"full_text":null,"name":"X","release_type":null,` +
		`"release_version":null,"fuzzy_match":false},"product_tags":["saas"],"recognition":null,"vulnerability":null}}]}}`},
	{"GET", "/api/v1/signals/financing-events?company_domain=acme.com", 200, `{"data":{"company_domain":"acme.com",` +
		`"type":"financing_events","count":1,"items":[{"id":"f_1","event_type":"financing_event","categories":["venture"],` +
		`"financing_type":"Series A","financing_type_normalized":"series_a","amount":"$10M","amount_normalized":10000000,` +
		`"effective_date":null,"found_at":"2024-05-01T10:00:00Z","source_urls":["https://news.example/a"],` +
		`"company":{"id":"co_1","name":"Acme","domain":"acme.com","ticker":null},` +
		`"investors":[{"id":"i_1","name":"Fund","domain":null,"ticker":null}]}]}}`},
	{"GET", "/api/v1/signals/hiring?since=2024-05-01&page=2&limit=25", 200, `{"data":{"items":[` + oasSampleSignal + `],` +
		`"pagination":{"page":2,"per_page":25,"has_more":true,"next_page":3}}}`},
	{"GET", "/api/v1/signals/funding", 200, `{"data":{"items":[],"pagination":{"page":1,"per_page":25,"has_more":false,"next_page":null}}}`},
	{"POST", "/api/v1/radar/create", 200, `{"data":{"radar_id":"r_1"}}`},
	{"GET", "/api/v1/radar/r_1/leads?min_score=0.5&date_range=last_30_days", 200, `{"data":[{"id":"l_1","name":"Ada","title":null,` +
		`"company":null,"network_url":null,"location":null,"score":null,"signal_context":[` + oasSampleRadarSignal + `]}]}`},
	{"GET", "/api/v1/radar/r_1/signals", 200, `{"data":[` + oasSampleRadarSignal + `]}`},
	{"GET", "/api/v1/radar/r_1/leads?date_range=all_time", 200, `{"data":[{"id":"l_1","name":"Ada","title":"VP Sales",` +
		`"company":"Acme","network_url":null,"location":"Austin, Texas, United States","score":93.4,"signal_context":[` +
		oasSampleRadarSignal + `],"score_breakdown":` + oasSampleBreakdown + `}]}`},
	{"POST", "/api/v1/radar/create", 429, `{"error":{"code":"rate_limit_exceeded","message":"Radar limit reached: 1 of 1 radars"}}`},
	{"GET", "/api/v1/radar?page=1&limit=25", 200, `{"data":{"items":[` + oasSampleRadar + `],` +
		`"pagination":{"page":1,"per_page":25,"total":1,"has_more":false,"next_page":null}}}`},
	{"GET", "/api/v1/radar/rdr_aaaaaaaaaaaaaaaaaaaaaaaaaa", 200, `{"data":` + oasSampleRadar + `}`},
	{"PATCH", "/api/v1/radar/rdr_aaaaaaaaaaaaaaaaaaaaaaaaaa", 200, `{"data":` +
		strings.Replace(oasSampleRadar, `"paused_at":null`, `"paused_at":"2026-11-24T10:00:00.000Z"`, 1) + `}`},
	{"DELETE", "/api/v1/radar/rdr_aaaaaaaaaaaaaaaaaaaaaaaaaa", 200, `{"data":{"radar_id":"rdr_aaaaaaaaaaaaaaaaaaaaaaaaaa","deleted":true,"leads_kept":3}}`},
	{"POST", "/api/v1/leads/export", 200, `{"data":{"status":"ready","format":"csv","lead_count":1,"requested_lead_count":2,` +
		`"missing_lead_ids":["l_9"],"content_type":"text/csv","file_name":"service-leads-export-20240501T100000Z.csv",` +
		`"data":"id,full_name\nl_1,Ada\n"}}`},
	{"POST", "/api/v1/leads/export", 200, `{"data":{"status":"ready","format":"json","lead_count":1,"requested_lead_count":1,` +
		`"missing_lead_ids":[],"content_type":"application/json","file_name":"service-leads-export-1714557600.json",` +
		`"data":[` + oasSampleLead + `]}}`},
	{"POST", "/api/v1/leads/push", 200, `{"data":{"status":"dispatch_failed","destination":"webhook_url","lead_count":0,` +
		`"requested_lead_count":1,"missing_lead_ids":["l_1"],"dispatched":false,"provider_status_code":502,"provider_response":"bad gateway"}}`},
	{"POST", "/api/v1/feedback/events", 200, `{"data":{"accepted":true,"event_type":"reply","source":"custom","lead_id":"l_1",` +
		`"mutated_lead":true,"stored_event":false,"note":"lead marked replied","lead":{"id":"l_1","status":"replied",` +
		`"replied_at":"2024-05-01T10:00:00Z","meeting_booked_at":null,"feedback":"","feedback_reason":""}}}`},
	{"POST", "/api/v1/feedback/events", 404, `{"error":{"code":"lead_not_found","message":"lead not found"}}`},
	{"GET", "/api/v1/feedback/insights?days=30", 200, `{"data":{"period":{"days":30,"since":"2024-04-01T10:00:00Z"},` +
		`"summary":{"total_leads":10,"replied":2,"positive":1,"meetings":1,"bounced_or_skipped":0},` +
		`"rates":{"reply_rate":0.2,"positive_rate":0.1,"meeting_rate":0.1},` +
		`"winning_personas":{"titles":[{"title":"CTO","total":3,"replies":1,"positive":1,"meetings":0}],` +
		`"companies":[{"company":"Acme","total":3,"replies":1,"positive":1,"meetings":0}],` +
		`"signal_types":[{"signal_type":"job_change","total":3,"replies":1,"positive":1,"meetings":1}]},"next_actions":["Follow up"]}}`},
	{"GET", "/api/v1/health", 200, `{"data":{"status":"ok","version":"1.0.0","database":"ok","rate_limiter":"redis_degraded",` +
		`"time":"2024-05-01T10:00:00.5Z"}}`},
	{"GET", "/api/v1/health", 500, `{"error":{"code":"service_error","message":"database unavailable"}}`},
	{"GET", "/api/v1/openapi.json", 200, `{"openapi":"3.1.0"}`},
	{"POST", "/api/v1/enrich/email", 404, `{"error":{"code":"not_found","message":"no email found"}}`},
	{"POST", "/api/v1/discover/companies", 400, `{"error":{"code":"validation_error","message":"Provide at least one discovery filter"}}`},
}

var invalidOpenAPISamples = []openAPISample{
	// A Company missing a member, and one with an unknown size bucket.
	{"POST", "/api/v1/discover/companies", 200, `{"data":[{"id":"x","name":"X","domain":"x.io","website":"w","industry":"i","location":null,"employee_size":null}]}`},
	{"POST", "/api/v1/discover/companies", 200, `{"data":[{"id":"x","name":"X","domain":"x.io","website":"w","industry":"i","location":null,"employee_size":"2-9","employee_count":null}]}`},
	// data must be the top-level member.
	{"POST", "/api/v1/radar/create", 200, `{"radar_id":"r_1"}`},
	{"POST", "/api/v1/radar/create", 200, `{"data":{"radar_id":"r_1","extra":1}}`},
	// A 9-value signal type list missing one value (duplicates are not a substitute).
	{"GET", "/api/v1/meta/field-values", 200, `{"data":` + strings.Replace(oasSampleFieldValues, `"event_rsvp"`, `"job_change"`, 1) + `}`},
	// csv export carrying JSON data; json export carrying text.
	{"POST", "/api/v1/leads/export", 200, `{"data":{"status":"ready","format":"csv","lead_count":1,"requested_lead_count":1,` +
		`"missing_lead_ids":[],"content_type":"text/csv","file_name":"service-leads-export-1.csv","data":[` + oasSampleLead + `]}}`},
	{"POST", "/api/v1/leads/export", 200, `{"data":{"status":"ready","format":"json","lead_count":1,"requested_lead_count":1,` +
		`"missing_lead_ids":[],"content_type":"application/json","file_name":"service-leads-export-1.json","data":"[]"}}`},
	// Unknown push status.
	{"POST", "/api/v1/leads/push", 200, `{"data":{"status":"queued","destination":"webhook_url","lead_count":0,` +
		`"requested_lead_count":1,"missing_lead_ids":[],"dispatched":false,"provider_status_code":0,"provider_response":""}}`},
	// Timestamps must be RFC 3339 date-times.
	{"GET", "/api/v1/signals/company/acme.com", 200, `{"data":[` + strings.Replace(oasSampleSignal, `"2024-05-01T10:00:00.123+02:00"`, `"yesterday"`, 1) + `]}`},
	// Signal ids are shaped <lead_id>:<index>.
	{"GET", "/api/v1/signals/company/acme.com", 200, `{"data":[` + strings.Replace(oasSampleSignal, `"l_1:0"`, `"l_1"`, 1) + `]}`},
	// Wrong news-events type.
	{"GET", "/api/v1/signals/news-events?company_domain=acme.com", 200, `{"data":{"company_domain":"acme.com","type":"news","count":0,"items":[]}}`},
	// A score breakdown is complete; a lead score is 0 to 100.
	{"GET", "/api/v1/radar/r_1/leads", 200, `{"data":[{"id":"l_1","name":"Ada","title":null,"company":null,"network_url":null,` +
		`"location":null,"score":93.4,"signal_context":[],"score_breakdown":` + strings.Replace(oasSampleBreakdown, `"recency":24.4,`, ``, 1) + `}]}`},
	{"GET", "/api/v1/radar/r_1/leads", 200, `{"data":[{"id":"l_1","name":"Ada","title":null,"company":null,"network_url":null,` +
		`"location":null,"score":130,"signal_context":[]}]}`},
	// lead_not_found is an error code; a 404 elsewhere still uses the envelope.
	{"GET", "/api/v1/radar/r_1/leads", 404, `{"error":{"code":"not_found"}}`},
	// A radar status outside the three; a list without its pagination.
	{"GET", "/api/v1/radar/rdr_aaaaaaaaaaaaaaaaaaaaaaaaaa", 200, `{"data":` + strings.Replace(oasSampleRadar, `"active"`, `"running"`, 1) + `}`},
	{"GET", "/api/v1/radar", 200, `{"data":{"items":[]}}`},
	// 404 is not documented for health.
	{"GET", "/api/v1/health", 404, `{"error":{"code":"not_found","message":"x"}}`},
}

func openAPISampleHeaders() http.Header {
	h := http.Header{}
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("X-Request-Id", "req-1")
	h.Set("X-Ratelimit-Limit", "300")
	h.Set("X-Ratelimit-Remaining", "299")
	h.Set("X-Ratelimit-Reset", "60")
	return h
}

func TestOpenAPISampleResponses(t *testing.T) {
	covered := map[string]bool{}
	router, err := openAPIRouterForTests()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range validOpenAPISamples {
		req := httptest.NewRequest(s.method, s.target, nil)
		validateAgainstOpenAPI(t, req, s.status, openAPISampleHeaders(), []byte(s.body))
		if s.status == http.StatusOK {
			if route, _, err := router.FindRoute(req); err == nil {
				covered[route.Method+" "+route.Path] = true
			}
		}
	}
	for _, op := range openAPIWantOperations() {
		if !covered[op] {
			t.Errorf("no valid 200 sample for %s", op)
		}
	}
	for i, s := range invalidOpenAPISamples {
		req := httptest.NewRequest(s.method, s.target, nil)
		if err := openAPIResponseError(req, s.status, openAPISampleHeaders(), []byte(s.body)); err == nil {
			t.Errorf("invalid sample %d (%s %s -> %d) passed validation", i, s.method, s.target, s.status)
		}
	}
}
