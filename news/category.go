package news

// The news event categories, as PredictLeads names them. A category is
// always read for one company: "Acme acquires Beta" is Acquires for Acme
// and no category for Beta.
const (
	Acquires                 = "acquires"
	MergesWith               = "merges_with"
	SellsAssetsTo            = "sells_assets_to"
	SignsNewClient           = "signs_new_client"
	FilesSuitAgainst         = "files_suit_against"
	HasIssuesWith            = "has_issues_with"
	ClosesOfficesIn          = "closes_offices_in"
	DecreasesHeadcountBy     = "decreases_headcount_by"
	IncreasesHeadcountBy     = "increases_headcount_by"
	AttendsEvent             = "attends_event"
	ExpandsFacilities        = "expands_facilities"
	ExpandsOfficesIn         = "expands_offices_in"
	ExpandsOfficesTo         = "expands_offices_to"
	OpensNewLocation         = "opens_new_location"
	GoesPublic               = "goes_public"
	InvestsInto              = "invests_into"
	InvestsIntoAssets        = "invests_into_assets"
	ReceivesFinancing        = "receives_financing"
	Hires                    = "hires"
	Leaves                   = "leaves"
	Promotes                 = "promotes"
	RetiresFrom              = "retires_from"
	IntegratesWith           = "integrates_with"
	IsDeveloping             = "is_developing"
	Launches                 = "launches"
	PartnersWith             = "partners_with"
	ReceivesAward            = "receives_award"
	RecognizedAs             = "recognized_as"
	IdentifiedAsCompetitorOf = "identified_as_competitor_of"
)

// Categories returns every category in the order of the list above.
func Categories() []string {
	return []string{Acquires, MergesWith, SellsAssetsTo, SignsNewClient, FilesSuitAgainst, HasIssuesWith,
		ClosesOfficesIn, DecreasesHeadcountBy, IncreasesHeadcountBy, AttendsEvent, ExpandsFacilities,
		ExpandsOfficesIn, ExpandsOfficesTo, OpensNewLocation, GoesPublic, InvestsInto, InvestsIntoAssets,
		ReceivesFinancing, Hires, Leaves, Promotes, RetiresFrom, IntegratesWith, IsDeveloping, Launches,
		PartnersWith, ReceivesAward, RecognizedAs, IdentifiedAsCompetitorOf}
}

// ValidCategory reports whether s is one of Categories.
func ValidCategory(s string) bool {
	for _, c := range Categories() {
		if c == s {
			return true
		}
	}
	return false
}

// SignalType returns the signal a news event of category means for its
// company: funding_announcement for receives_financing, job_change for
// hires, leaves, promotes and retires_from, company_hiring for
// increases_headcount_by. Every other category, and none, returns "".
func SignalType(category string) string {
	switch category {
	case ReceivesFinancing:
		return "funding_announcement"
	case Hires, Leaves, Promotes, RetiresFrom:
		return "job_change"
	case IncreasesHeadcountBy:
		return "company_hiring"
	}
	return ""
}
