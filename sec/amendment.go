package sec

// How an offering's original notice was found (Offering.OriginalMethod).
const (
	// OriginalSelf: the filing is the original notice (a D).
	OriginalSelf = "self"
	// OriginalFileNumber: the earliest D of the submissions record with
	// the amendment's SEC file number (021-...), which every filing of an
	// offering shares. It survives chains of amendments and amendments
	// that name no previous filing.
	OriginalFileNumber = "file_number"
	// OriginalPrevious: the D/A's previousAccessionNumber. When that is
	// itself an amendment the key differs from the original's; the file
	// number, when the record has it, is preferred for this reason.
	OriginalPrevious = "previous_accession"
	// OriginalLatestNotice: the issuer's latest D filed on or before the
	// amendment, when neither the file number nor a previous accession
	// number tells.
	OriginalLatestNotice = "latest_prior_notice"
	// OriginalUnknown: nothing tells; the amendment is keyed on itself
	// and becomes an event of its own.
	OriginalUnknown = "unknown"
)

// ResolveOriginal finds the notice an amendment's offering began with,
// using the issuer's submissions record when subs is not nil: by file
// number, else the previousAccessionNumber, else the issuer's latest
// notice (D) filed on or before the amendment. A D is its own original.
// It sets o.Original and o.OriginalMethod.
func ResolveOriginal(o *Offering, subs *Submissions) {
	if !o.IsAmendment {
		o.Original, o.OriginalMethod = o.Accession, OriginalSelf
		return
	}
	if subs != nil {
		if own, ok := subs.Filing(o.Accession); ok && own.FileNumber != "" {
			var best *SubmissionFiling
			for i := range subs.Filings {
				f := &subs.Filings[i]
				if f.Form != FormD || f.FileNumber != own.FileNumber {
					continue
				}
				if best == nil || f.FilingDate < best.FilingDate ||
					(f.FilingDate == best.FilingDate && f.Accession < best.Accession) {
					best = f
				}
			}
			if best != nil {
				o.Original, o.OriginalMethod = best.Accession, OriginalFileNumber
				return
			}
		}
	}
	if o.PreviousAccession != "" {
		o.Original, o.OriginalMethod = o.PreviousAccession, OriginalPrevious
		return
	}
	if subs != nil {
		var best *SubmissionFiling
		for i := range subs.Filings {
			f := &subs.Filings[i]
			if f.Form != FormD || (o.Filed != "" && f.FilingDate > o.Filed) {
				continue
			}
			if best == nil || f.FilingDate > best.FilingDate ||
				(f.FilingDate == best.FilingDate && f.Accession > best.Accession) {
				best = f
			}
		}
		if best != nil {
			o.Original, o.OriginalMethod = best.Accession, OriginalLatestNotice
			return
		}
	}
	o.Original, o.OriginalMethod = o.Accession, OriginalUnknown
}
