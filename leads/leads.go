// Package leads gives stored leads the forms in which they leave the
// service that are not JSON: export rows (CSV) for POST /leads/export;
// and the hook that queues a radar's new leads to the auto-sync outbox.
// A lead's shape and its JSON renderings are wire.Lead's.
package leads
