package boards

import (
	"strings"
	"testing"

	"github.com/prospectorhq/prospector"
)

func TestRecognize(t *testing.T) {
	for _, tc := range []struct {
		url  string
		want string // Ref.String()
	}{
		{"https://boards.greenhouse.io/acme", "greenhouse:acme"},
		{"https://boards.greenhouse.io/acme/jobs/4012345?gh_src=abc", "greenhouse:acme"},
		{"http://job-boards.greenhouse.io/acme/", "greenhouse:acme"},
		{"https://boards.greenhouse.io/embed/job_board?for=acme&b=https%3A%2F%2Facme.example%2Fcareers", "greenhouse:acme"},
		{"https://boards.greenhouse.io/embed/job_board/js?for=acme", "greenhouse:acme"},
		{"//boards.greenhouse.io/embed/job_board/js?for=acme", "greenhouse:acme"},
		{"https://boards.greenhouse.io/embed/job_app?for=acme&token=4012345", "greenhouse:acme"},
		{"https://boards-api.greenhouse.io/v1/boards/acme/jobs?content=true", "greenhouse:acme"},
		{"boards.greenhouse.io/acme", "greenhouse:acme"},
		{"HTTPS://BOARDS.GREENHOUSE.IO/acme", "greenhouse:acme"},
		{"https://jobs.lever.co/acme", "lever:acme"},
		{"https://jobs.lever.co/acme/3f9c2a71-5b0e-4d6a-9f1e-2c7b8d4e6a10/apply", "lever:acme"},
		{"https://jobs.eu.lever.co/acme", "lever-eu:acme"},
		{"https://api.lever.co/v0/postings/acme?mode=json", "lever:acme"},
		{"https://api.eu.lever.co/v0/postings/acme", "lever-eu:acme"},
		{"https://jobs.ashbyhq.com/acme", "ashby:acme"},
		{"https://jobs.ashbyhq.com/acme/5d2f7e90-1c3a-4b8e-a6f4-9b0c1d2e3f40", "ashby:acme"},
		{"https://jobs.ashbyhq.com/acme/embed?version=2", "ashby:acme"},
		{"https://jobs.ashbyhq.com/Acme%20Labs", "ashby:Acme Labs"},
		{"https://api.ashbyhq.com/posting-api/job-board/acme", "ashby:acme"},
		{"https://apply.workable.com/acme/", "workable:acme"},
		{"https://apply.workable.com/acme/j/7C1E0A9B2D/", "workable:acme"},
		{"https://acme.workable.com/", "workable:acme"},
		{"https://ACME.workable.com/jobs/123", "workable:acme"},
		{"https://apply.workable.com/api/v1/widget/accounts/acme", "workable:acme"},
		{"https://www.workable.com/api/accounts/acme?details=true", "workable:acme"},
		{"https://careers.smartrecruiters.com/AcmeCorp", "smartrecruiters:AcmeCorp"},
		{"https://jobs.smartrecruiters.com/AcmeCorp/744000091234567-quality-lead", "smartrecruiters:AcmeCorp"},
		{"https://api.smartrecruiters.com/v1/companies/AcmeCorp/postings", "smartrecruiters:AcmeCorp"},
		{"https://acme.recruitee.com/", "recruitee:acme"},
		{"https://acme.recruitee.com/o/frontend-developer", "recruitee:acme"},
		{"https://acme.jobs.personio.de/", "personio:acme"},
		{"https://acme.jobs.personio.de/job/1204518?display=en", "personio:acme"},
		{"https://acme-gmbh.jobs.personio.com/xml", "personio-com:acme-gmbh"},
	} {
		ref, ok := Recognize(tc.url)
		if !ok || ref.String() != tc.want {
			t.Errorf("Recognize(%q) = %v, %v; want %s", tc.url, ref, ok, tc.want)
		}
	}
}

func TestRecognizeIgnoresVendorPagesAndStrangers(t *testing.T) {
	for _, u := range []string{
		"", "acme", "https://acme.example/careers", "mailto:jobs@acme.example", "javascript:void(0)",
		"ftp://boards.greenhouse.io/acme",
		// The vendors' own sites.
		"https://www.greenhouse.io/", "https://www.greenhouse.io/job-board", "https://greenhouse.io/acme",
		"https://boards.greenhouse.io/", "https://boards.greenhouse.io/embed/job_board", "https://boards.greenhouse.io/embed/job_board/js",
		"https://lever.co/", "https://www.lever.co/pricing", "https://jobs.lever.co/", "https://hire.lever.co/acme",
		"https://www.ashbyhq.com/", "https://ashbyhq.com/customers", "https://jobs.ashbyhq.com/", "https://app.ashbyhq.com/acme",
		"https://jobs.ashbyhq.com/api/non-user-graphql",
		"https://www.workable.com/", "https://workable.com/pricing", "https://apply.workable.com/", "https://apply.workable.com/j/7C1E0A9B2D",
		"https://help.workable.com/hc", "https://jobs.workable.com/search", "https://resources.workable.com/job-descriptions",
		"https://www.smartrecruiters.com/", "https://careers.smartrecruiters.com/", "https://jobs.smartrecruiters.com/sr-jobs/search",
		"https://www.recruitee.com/", "https://recruitee.com/", "https://app.recruitee.com/", "https://support.recruitee.com/x",
		"https://www.personio.de/", "https://personio.com/", "https://www.jobs.personio.de/", "https://a.b.jobs.personio.de/",
		// Tokens no vendor would issue.
		"https://jobs.lever.co/a%20b", "https://boards.greenhouse.io/" + strings.Repeat("a", 101), "https://-acme.recruitee.com/",
		"https://boards.greenhouse.io/embed/job_board?for=a/b",
	} {
		if ref, ok := Recognize(u); ok {
			t.Errorf("Recognize(%q) = %v, want nothing", u, ref)
		}
	}
}

func TestParseRef(t *testing.T) {
	for in, want := range map[string]Ref{
		"greenhouse:acme":               {Kind: KindGreenhouse, Token: "acme"},
		" Greenhouse : acme ":           {Kind: KindGreenhouse, Token: "acme"},
		"lever:acme":                    {Kind: KindLever, Token: "acme"},
		"lever-eu:acme":                 {Kind: KindLever, Token: "acme", Region: RegionEU},
		"ashby:Acme Labs":               {Kind: KindAshby, Token: "Acme Labs"},
		"ashby:Acme%20Labs":             {Kind: KindAshby, Token: "Acme Labs"},
		"workable:ACME":                 {Kind: KindWorkable, Token: "acme"},
		"smartrecruiters:Acme":          {Kind: KindSmartRecruiters, Token: "Acme"},
		"recruitee:acme":                {Kind: KindRecruitee, Token: "acme"},
		"personio:acme-gmbh":            {Kind: KindPersonio, Token: "acme-gmbh"},
		"personio-com:acme":             {Kind: KindPersonio, Token: "acme", Region: RegionCom},
		"https://jobs.eu.lever.co/acme": {Kind: KindLever, Token: "acme", Region: RegionEU},
	} {
		got, err := ParseRef(in)
		if err != nil || got != want {
			t.Errorf("ParseRef(%q) = %v, %v; want %v", in, got, err, want)
		}
		if err == nil {
			if back, err := ParseRef(got.String()); err != nil || back != got {
				t.Errorf("ParseRef(%q) does not read back: %v, %v", got.String(), back, err)
			}
		}
	}
	for _, in := range []string{"", "acme", "greenhouse:", ":acme", "monster:acme", "greenhouse:a/b", "greenhouse:a b",
		"recruitee:acme_co", "recruitee:acme.co", "workable:-acme", "https://acme.example/jobs", "lever:..", "lever-us:acme"} {
		_, err := ParseRef(in)
		if prospector.ErrorCode(err) != prospector.EINVALID || !strings.Contains(err.Error(), "--board") {
			t.Errorf("ParseRef(%q) = %v, want a validation error naming --board", in, err)
		}
	}
}

func FuzzRecognize(f *testing.F) {
	for _, s := range []string{"https://boards.greenhouse.io/embed/job_board?for=acme", "//jobs.eu.lever.co/acme",
		"https://acme.jobs.personio.com/", "https://jobs.ashbyhq.com/Acme%20Labs", "http://[::1]:80/x", "https://a.workable.com",
		"greenhouse:acme"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ref, ok := Recognize(s)
		if !ok {
			return
		}
		// Whatever is recognised is a valid board that reads back.
		back, err := ParseRef(ref.String())
		if err != nil || back != ref {
			t.Fatalf("Recognize(%q) = %v, which ParseRef reads as %v, %v", s, ref, back, err)
		}
	})
}

func FuzzParseRef(f *testing.F) {
	for _, s := range []string{"greenhouse:acme", "lever-eu:acme", "ashby:Acme%20Labs", "x:y:z", "https://jobs.lever.co/acme"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ref, err := ParseRef(s)
		if err != nil {
			if prospector.ErrorCode(err) != prospector.EINVALID {
				t.Fatalf("ParseRef(%q): %v is not a validation error", s, err)
			}
			return
		}
		if DefaultBaseURL(ref.Endpoint()) == "" || ref.Token == "" {
			t.Fatalf("ParseRef(%q) = %v", s, ref)
		}
	})
}
