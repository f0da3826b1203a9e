package api

import (
	"net/http"

	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/taxonomy"
)

type fieldValuesJSON struct {
	LeadStatuses                []string          `json:"lead_statuses"`
	SignalTypes                 []string          `json:"signal_types"`
	EmployeeRanges              []string          `json:"employee_ranges"`
	JobLevels                   []string          `json:"job_levels"`
	JobFunctions                []string          `json:"job_functions"`
	Countries                   countriesJSON     `json:"countries"`
	PublicAPIFeedbackEventTypes []string          `json:"public_api_feedback_event_types"`
	OutreachDestinations        []string          `json:"outreach_destinations"`
	SearchLogic                 searchLogicJSON   `json:"search_logic"`
	EndpointGroups              endpointGroupJSON `json:"endpoint_groups"`
	GeneratedAt                 string            `json:"generated_at"`
}

type countriesJSON struct {
	Global              string   `json:"global"`
	RecommendedExamples []string `json:"recommended_examples"`
	Format              string   `json:"format"`
}

type searchLogicJSON struct {
	FieldGroups           string `json:"field_groups"`
	ValuesInsideSameField string `json:"values_inside_same_field"`
	ExcludeFilters        string `json:"exclude_filters"`
	GlobalLocation        string `json:"global_location"`
}

type endpointGroupJSON struct {
	Discover []string `json:"discover"`
	Signals  []string `json:"signals"`
}

// fieldValues: GET /api/v1/meta/field-values
func (s *Server) fieldValues(w http.ResponseWriter, r *http.Request) error {
	writeData(w, fieldValuesJSON{
		LeadStatuses: prospector.LeadStatuses(),
		// tech_changes is listed with the signal types because company
		// signals carry it and callers filter on it.
		SignalTypes:    append(prospector.SignalTypes(), "tech_changes"),
		EmployeeRanges: taxonomy.EmployeeRanges(),
		JobLevels:      taxonomy.JobLevels(),
		JobFunctions:   taxonomy.JobFunctions(),
		Countries: countriesJSON{Global: taxonomy.WorldCode, RecommendedExamples: taxonomy.RecommendedCountries(),
			Format: "ISO 3166-1 alpha-2 country code"},
		PublicAPIFeedbackEventTypes: prospector.FeedbackEventTypes(),
		OutreachDestinations:        prospector.OutreachDestinations(),
		SearchLogic:                 searchLogicJSON{FieldGroups: "AND", ValuesInsideSameField: "OR", ExcludeFilters: "NOT", GlobalLocation: taxonomy.WorldCode},
		EndpointGroups: endpointGroupJSON{
			Discover: []string{"POST /api/v1/discover/companies", "POST /api/v1/discover/people"},
			Signals:  []string{"GET /api/v1/signals/hiring", "GET /api/v1/signals/funding"},
		},
		GeneratedAt: timestamp(s.now()),
	})
	return nil
}
