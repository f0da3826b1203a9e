package account

import (
	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/taxonomy"
	"github.com/prospectorhq/prospector/wire"
)

// FieldValues is GET /meta/field-values' answer: the enumerated values
// requests take.
type FieldValues struct {
	LeadStatuses                []string       `json:"lead_statuses"`
	SignalTypes                 []string       `json:"signal_types"`
	EmployeeRanges              []string       `json:"employee_ranges"`
	JobLevels                   []string       `json:"job_levels"`
	JobFunctions                []string       `json:"job_functions"`
	Countries                   Countries      `json:"countries"`
	PublicAPIFeedbackEventTypes []string       `json:"public_api_feedback_event_types"`
	OutreachDestinations        []string       `json:"outreach_destinations"`
	SearchLogic                 SearchLogic    `json:"search_logic"`
	EndpointGroups              EndpointGroups `json:"endpoint_groups"`
	GeneratedAt                 string         `json:"generated_at"`
}

// Countries say how countries are written.
type Countries struct {
	Global              string   `json:"global"`
	RecommendedExamples []string `json:"recommended_examples"`
	Format              string   `json:"format"`
}

// SearchLogic says how filters combine.
type SearchLogic struct {
	FieldGroups           string `json:"field_groups"`
	ValuesInsideSameField string `json:"values_inside_same_field"`
	ExcludeFilters        string `json:"exclude_filters"`
	GlobalLocation        string `json:"global_location"`
}

// EndpointGroups name the discovery and signal feed endpoints.
type EndpointGroups struct {
	Discover []string `json:"discover"`
	Signals  []string `json:"signals"`
}

// FieldValues returns the enumerated values; it cannot fail.
func (s *Service) FieldValues() *FieldValues {
	return &FieldValues{
		LeadStatuses: prospector.LeadStatuses(),
		// tech_changes is listed with the signal types because company
		// signals carry it and callers filter on it.
		SignalTypes:    append(prospector.SignalTypes(), "tech_changes"),
		EmployeeRanges: taxonomy.EmployeeRanges(),
		JobLevels:      taxonomy.JobLevels(),
		JobFunctions:   taxonomy.JobFunctions(),
		Countries: Countries{Global: taxonomy.WorldCode, RecommendedExamples: taxonomy.RecommendedCountries(),
			Format: "ISO 3166-1 alpha-2 country code"},
		PublicAPIFeedbackEventTypes: prospector.FeedbackEventTypes(),
		OutreachDestinations:        prospector.OutreachDestinations(),
		SearchLogic: SearchLogic{FieldGroups: "AND", ValuesInsideSameField: "OR", ExcludeFilters: "NOT",
			GlobalLocation: taxonomy.WorldCode},
		EndpointGroups: EndpointGroups{
			Discover: []string{"POST /api/v1/discover/companies", "POST /api/v1/discover/people"},
			Signals:  []string{"GET /api/v1/signals/hiring", "GET /api/v1/signals/funding"},
		},
		GeneratedAt: wire.Timestamp(s.now()),
	}
}
