package wire

// Pagination is the pagination object of the contract's paged lists
// (contacts/employee-finder), which the radar list answers with too.
type Pagination struct {
	Page     int  `json:"page"`
	PerPage  int  `json:"per_page"`
	Total    int  `json:"total"`
	HasMore  bool `json:"has_more"`
	NextPage *int `json:"next_page"`
}

// NewPagination is page (from 1) of perPage items out of total.
func NewPagination(page, perPage, total int) Pagination {
	p := Pagination{Page: page, PerPage: perPage, Total: total, HasMore: page*perPage < total}
	if p.HasMore {
		next := page + 1
		p.NextPage = &next
	}
	return p
}
