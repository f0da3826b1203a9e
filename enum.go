package prospector

// LeadStatuses are the lead states, in the contract's order.
func LeadStatuses() []string {
	return []string{"detected", "queued_comment", "commented", "queued_connect", "connection_sent",
		"connected", "queued_message", "messaged", "replied", "meeting_booked", "not_interested",
		"connection_withdrawn", "skipped", "blocked"}
}

// SignalTypes are the person and company signal types; tech_changes is
// only carried by company signals.
func SignalTypes() []string {
	return []string{"keyword_post", "keyword_comment", "competitor_engagement", "influencer_engagement",
		"asking_for_recommendations", "job_change", "company_hiring", "funding_announcement", "event_rsvp"}
}

// FeedbackEventTypes are the outcome events POST /feedback/events takes.
func FeedbackEventTypes() []string {
	return []string{"open", "click", "reply", "positive_reply", "bounce", "meeting_booked"}
}

// OutreachDestinations are where leads can be pushed.
func OutreachDestinations() []string {
	return []string{"outreach_tool_a", "outreach_tool_b", "webhook_url"}
}
