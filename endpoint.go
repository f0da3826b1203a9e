package prospector

// Endpoints returns every endpoint of the contract as "<METHOD> <path>",
// in the order the contract lists them. It is what key-info reports as
// allowed_endpoints.
func Endpoints() []string {
	return []string{
		"GET /api/v1/account/key-info",
		"GET /api/v1/account/credit-usage",
		"GET /api/v1/meta/field-values",
		"POST /api/v1/discover/companies",
		"POST /api/v1/discover/people",
		"POST /api/v1/search/companies",
		"POST /api/v1/search/people",
		"POST /api/v1/contacts/find",
		"POST /api/v1/contacts/employee-finder",
		"POST /api/v1/contacts/waterfall-icp",
		"POST /api/v1/enrich/email",
		"POST /api/v1/signals/bulk",
		"GET /api/v1/signals/company/{id}",
		"GET /api/v1/signals/news-events",
		"GET /api/v1/signals/financing-events",
		"GET /api/v1/signals/hiring",
		"GET /api/v1/signals/funding",
		"POST /api/v1/radar/create",
		"GET /api/v1/radar/{id}/leads",
		"GET /api/v1/radar/{id}/signals",
		"POST /api/v1/leads/export",
		"POST /api/v1/leads/push",
		"POST /api/v1/feedback/events",
		"GET /api/v1/feedback/insights",
		"GET /api/v1/health",
	}
}
