package wire

// Contact is the contract's Contact item: a person at a company as a
// contacts workflow ranks them, with a score and an outreach angle.
type Contact struct {
	ID            string   `json:"id"`
	Name          string   `json:"name"`
	Title         string   `json:"title"`
	Company       string   `json:"company"`
	Role          string   `json:"role"`
	NetworkURL    *string  `json:"network_url"`
	Email         *string  `json:"email"`
	Location      *string  `json:"location"`
	Score         *float64 `json:"score"`
	OutreachAngle string   `json:"outreach_angle"`
}
