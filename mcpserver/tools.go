package mcpserver

import (
	"context"
	"log/slog"
	"reflect"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/prospectorhq/prospector"
	"github.com/prospectorhq/prospector/contacts"
	"github.com/prospectorhq/prospector/discovery"
	"github.com/prospectorhq/prospector/enrich"
	"github.com/prospectorhq/prospector/feedback"
	"github.com/prospectorhq/prospector/input"
	"github.com/prospectorhq/prospector/leads"
	"github.com/prospectorhq/prospector/radar"
	"github.com/prospectorhq/prospector/signals"
	"github.com/prospectorhq/prospector/sources"
	"github.com/prospectorhq/prospector/workflows"
)

// tool is one MCP tool: the API operation it mirrors, its arguments'
// Go type (a workflow's request type, with the path parameters and
// headers of the operation as members), and the call.
type tool struct {
	name  string
	title string
	op    string // "METHOD /path" of the API operation
	// note comes first in the description: what an agent must know
	// beyond the operation's documentation.
	note string
	// extra describes members the operation has elsewhere than in its
	// body or parameters (a header).
	extra       map[string]string
	annotations mcp.ToolAnnotations
	in          reflect.Type
	run         func(ctx context.Context, p *prospector.Principal, args []byte) (any, error)
}

// def builds a tool whose arguments decode into In.
func def[In any](name, title, op string, ann mcp.ToolAnnotations,
	run func(ctx context.Context, p *prospector.Principal, in *In) (any, error)) tool {
	return tool{name: name, title: title, op: op, annotations: ann, in: reflect.TypeFor[In](),
		run: func(ctx context.Context, p *prospector.Principal, args []byte) (any, error) {
			var in In
			if err := input.DecodeJSON(args, &in); err != nil {
				return nil, err
			}
			return run(ctx, p, &in)
		}}
}

func (t tool) with(note string, extra map[string]string) tool {
	t.note, t.extra = note, extra
	return t
}

// The annotations of the three kinds of tool.
var (
	// readOnly tools read the workspace's data and the dataset.
	readOnly = mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: ptr(false)}
	// additive tools add to the workspace without touching what is there.
	additive = mcp.ToolAnnotations{DestructiveHint: ptr(false), OpenWorldHint: ptr(false)}
	// changing tools change or remove what the workspace has.
	changing = mcp.ToolAnnotations{DestructiveHint: ptr(true), OpenWorldHint: ptr(false)}
)

func ptr[T any](v T) *T { return &v }

// id is a path parameter {id} as a member.
type id struct {
	ID string `json:"id"`
}

// keyed is a request with the Idempotency-Key header as a member.
type keyed struct {
	IdempotencyKey *string `json:"idempotency_key"`
}

const idempotencyKeyDoc = "Optional: the API's Idempotency-Key. A repeat with the same key within 24 hours returns the first answer and does nothing else (no charge); with another body it is refused. 1 to 255 visible ASCII characters."

// idempotencyKey reads the key as the API reads the header.
func (k keyed) key() (string, error) {
	if k.IdempotencyKey == nil {
		return "", nil
	}
	return input.IdempotencyKey("idempotency_key", *k.IdempotencyKey)
}

// The argument types of tools whose API operation takes more than a body.
type (
	emailArgs struct {
		enrich.EmailRequest
		keyed
	}
	feedbackArgs struct {
		feedback.EventRequest
		keyed
	}
	radarUpdateArgs struct {
		id
		radar.UpdateRequest
	}
	radarLeadsArgs struct {
		id
		radar.LeadsRequest
	}
	radarSignalsArgs struct {
		id
		radar.SignalsRequest
	}
	none struct{}
)

// tools are every tool, in the API's order.
func tools(f *workflows.Services) []tool {
	openWorld := func(a mcp.ToolAnnotations) mcp.ToolAnnotations { a.OpenWorldHint = ptr(true); return a }
	return []tool{
		def("account_credit_usage", "Credits and quotas", "GET /api/v1/account/credit-usage", readOnly,
			func(ctx context.Context, p *prospector.Principal, _ *none) (any, error) {
				return f.Account.CreditUsage(ctx, p)
			}),
		def("meta_field_values", "Field values", "GET /api/v1/meta/field-values", readOnly,
			func(ctx context.Context, _ *prospector.Principal, _ *none) (any, error) {
				return f.Account.FieldValues(), nil
			}),
		def("discover_companies", "Discover companies", "POST /api/v1/discover/companies", readOnly,
			func(ctx context.Context, _ *prospector.Principal, in *discovery.DiscoverCompaniesRequest) (any, error) {
				return f.Discovery.DiscoverCompanies(ctx, in)
			}),
		def("discover_people", "Discover people", "POST /api/v1/discover/people", readOnly,
			func(ctx context.Context, _ *prospector.Principal, in *discovery.DiscoverPeopleRequest) (any, error) {
				return f.Discovery.DiscoverPeople(ctx, in)
			}),
		def("search_companies", "Search companies", "POST /api/v1/search/companies", readOnly,
			func(ctx context.Context, _ *prospector.Principal, in *discovery.CompaniesRequest) (any, error) {
				return f.Discovery.Companies(ctx, in)
			}),
		def("search_people", "Search people", "POST /api/v1/search/people", readOnly,
			func(ctx context.Context, _ *prospector.Principal, in *discovery.PeopleRequest) (any, error) {
				return f.Discovery.People(ctx, in)
			}),
		def("contacts_find", "Find contacts at a company", "POST /api/v1/contacts/find", readOnly,
			func(ctx context.Context, _ *prospector.Principal, in *contacts.FindRequest) (any, error) {
				return f.Contacts.Find(ctx, in)
			}),
		def("employee_finder", "Find a company's employees", "POST /api/v1/contacts/employee-finder", readOnly,
			func(ctx context.Context, _ *prospector.Principal, in *contacts.EmployeeFinderRequest) (any, error) {
				return f.Contacts.EmployeeFinder(ctx, in)
			}),
		def("waterfall_icp", "Ideal-customer cascade", "POST /api/v1/contacts/waterfall-icp", readOnly,
			func(ctx context.Context, _ *prospector.Principal, in *contacts.WaterfallRequest) (any, error) {
				return f.Contacts.Waterfall(ctx, in)
			}),
		def("find_email", "Find a work email", "POST /api/v1/enrich/email", openWorld(additive),
			func(ctx context.Context, p *prospector.Principal, in *emailArgs) (any, error) {
				key, err := in.key()
				if err != nil {
					return nil, err
				}
				ans, _, err := f.Enrich.Email(ctx, &p.Workspace, key, &in.EmailRequest)
				return ans, err
			}).with("Spends one credit of the workspace when it finds an address (nothing when it finds none); account_credit_usage shows the credits left.",
			map[string]string{"idempotency_key": idempotencyKeyDoc}),
		def("signals_bulk", "Signals of many companies", "POST /api/v1/signals/bulk", readOnly,
			func(ctx context.Context, _ *prospector.Principal, in *signals.BulkRequest) (any, error) {
				return f.Signals.Bulk(ctx, in)
			}),
		def("company_signals", "Signals of a company", "GET /api/v1/signals/company/{id}", readOnly,
			func(ctx context.Context, _ *prospector.Principal, in *id) (any, error) {
				return f.Signals.Company(ctx, in.ID)
			}),
		def("news_events", "News events of a company", "GET /api/v1/signals/news-events", readOnly,
			func(ctx context.Context, _ *prospector.Principal, in *signals.NewsRequest) (any, error) {
				return f.Signals.News(ctx, *in)
			}).with(queryNote, nil),
		def("financing_events", "Financing events of a company", "GET /api/v1/signals/financing-events", readOnly,
			func(ctx context.Context, _ *prospector.Principal, in *signals.FinancingRequest) (any, error) {
				return f.Signals.Financing(ctx, *in)
			}).with(queryNote, nil),
		def("hiring_signals", "Hiring feed", "GET /api/v1/signals/hiring", readOnly,
			func(ctx context.Context, _ *prospector.Principal, in *signals.FeedRequest) (any, error) {
				return f.Signals.Hiring(ctx, *in)
			}).with(queryNote, nil),
		def("funding_signals", "Funding feed", "GET /api/v1/signals/funding", readOnly,
			func(ctx context.Context, _ *prospector.Principal, in *signals.FeedRequest) (any, error) {
				return f.Signals.Funding(ctx, *in)
			}).with(queryNote, nil),
		def("job_openings", "Job openings of a watched company", "GET /api/v1/signals/job-openings", readOnly,
			func(ctx context.Context, _ *prospector.Principal, in *sources.OpeningsRequest) (any, error) {
				return f.Sources.JobOpenings(ctx, *in)
			}).with(queryNote, nil),
		def("technologies", "Technologies of a watched company", "GET /api/v1/signals/technologies", readOnly,
			func(ctx context.Context, _ *prospector.Principal, in *sources.TechnologiesRequest) (any, error) {
				return f.Sources.Technologies(ctx, in.CompanyDomain)
			}).with(queryNote, nil),
		def("radar_create", "Create a radar", "POST /api/v1/radar/create", additive,
			func(ctx context.Context, p *prospector.Principal, in *radar.CreateRequest) (any, error) {
				r, err := f.Radars.Create(ctx, &p.Workspace, in)
				if err != nil {
					return nil, err
				}
				return map[string]string{"radar_id": r.ID}, nil
			}),
		def("radar_list", "List radars", "GET /api/v1/radar", readOnly,
			func(ctx context.Context, p *prospector.Principal, in *radar.ListRequest) (any, error) {
				return f.Radars.List(ctx, &p.Workspace, *in)
			}).with(queryNote, nil),
		def("radar_get", "Read a radar", "GET /api/v1/radar/{id}", readOnly,
			func(ctx context.Context, p *prospector.Principal, in *id) (any, error) {
				return f.Radars.Get(ctx, &p.Workspace, in.ID)
			}),
		def("radar_update", "Pause, resume, rename a radar or change its rules", "PATCH /api/v1/radar/{id}",
			mcp.ToolAnnotations{DestructiveHint: ptr(true), IdempotentHint: true, OpenWorldHint: ptr(false)},
			func(ctx context.Context, p *prospector.Principal, in *radarUpdateArgs) (any, error) {
				return f.Radars.Update(ctx, &p.Workspace, in.ID, &in.UpdateRequest)
			}),
		def("radar_delete", "Delete a radar", "DELETE /api/v1/radar/{id}",
			mcp.ToolAnnotations{DestructiveHint: ptr(true), IdempotentHint: true, OpenWorldHint: ptr(false)},
			func(ctx context.Context, p *prospector.Principal, in *id) (any, error) {
				return f.Radars.Delete(ctx, &p.Workspace, in.ID)
			}),
		def("radar_leads", "Leads of a radar", "GET /api/v1/radar/{id}/leads", readOnly,
			func(ctx context.Context, p *prospector.Principal, in *radarLeadsArgs) (any, error) {
				return f.Radars.Leads(ctx, &p.Workspace, in.ID, in.LeadsRequest)
			}).with(queryNote, nil),
		def("radar_signals", "Signals of a radar", "GET /api/v1/radar/{id}/signals", readOnly,
			func(ctx context.Context, p *prospector.Principal, in *radarSignalsArgs) (any, error) {
				return f.Radars.Signals(ctx, &p.Workspace, in.ID, in.SignalsRequest)
			}),
		def("leads_export", "Export leads", "POST /api/v1/leads/export", readOnly,
			func(ctx context.Context, p *prospector.Principal, in *leads.ExportRequest) (any, error) {
				return f.Leads.Export(ctx, &p.Workspace, in)
			}),
		def("leads_push", "Push leads to an outreach tool or webhook", "POST /api/v1/leads/push", openWorld(additive),
			func(ctx context.Context, p *prospector.Principal, in *leads.PushRequest) (any, error) {
				return f.Leads.Push(ctx, &p.Workspace, in)
			}).with("Sends the leads outside Prospector: to the webhook URL given or the workspace's outreach tool.", nil),
		def("feedback_event", "Record an outreach outcome", "POST /api/v1/feedback/events", changing,
			func(ctx context.Context, p *prospector.Principal, in *feedbackArgs) (any, error) {
				key, err := in.key()
				if err != nil {
					return nil, err
				}
				res, _, err := f.Feedback.Record(ctx, &p.Workspace, key, &in.EventRequest)
				return res, err
			}).with("Changes the lead's status as the outcome says (a reply, a bounce, a meeting booked).",
			map[string]string{"idempotency_key": idempotencyKeyDoc}),
		def("feedback_insights", "What converts", "GET /api/v1/feedback/insights", readOnly,
			func(ctx context.Context, p *prospector.Principal, in *feedback.InsightsRequest) (any, error) {
				return f.Feedback.Insights(ctx, &p.Workspace, *in)
			}).with(queryNote, nil),
	}
}

// queryNote explains the text members of tools mirroring query strings.
const queryNote = "Numbers and dates are given as text, as in the API's query string (\"page\": \"2\")."

// handler runs t for the principal of the call's context.
func (t tool) handler(logger *slog.Logger) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		p := principalOf(ctx)
		if p == nil {
			return toolError(ctx, logger, t.name, errNoPrincipal), nil
		}
		args := []byte(req.Params.Arguments)
		if len(args) == 0 || string(args) == "null" {
			args = []byte("{}")
		}
		out, err := t.run(ctx, p, args)
		if err != nil {
			return toolError(ctx, logger, t.name, err), nil
		}
		return result(out)
	}
}
