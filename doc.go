// Package prospector is the domain of the Prospector service: the types
// a workspace works with (companies, people, signals, radars, leads,
// feedback, deliveries, jobs, credits and keys), the interfaces of what
// keeps and finds them (Store and its parts, Searcher, EmailFinder), and
// the product rules both storage engines share as pure functions, so a
// rule is written once and the engines keep only their SQL:
// PlanLeadBatch and PlanAutoSync decide what a radar batch writes,
// DecideFeedback what an outcome does to a lead, ReplayKey when an
// Idempotency-Key replays, PlanUpsert how a batch import is numbered,
// CountOutcome what a bounce or reply teaches about addresses.
//
// It depends on no other package of the module. Technology lives in
// subpackages that depend on it: the engines in sqlite and postgres (both
// held to the storetest suite), the HTTP API in api, the search index in
// search, background work in jobs, radar and webhook, and the binary's
// wiring in cmd/prospector. Errors meant for callers are *Error values
// with a code from the contract (error.go).
package prospector
