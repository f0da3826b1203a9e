package boards

import (
	"net/url"
	"strings"
)

// Recognize reads the board behind a URL found in a company's pages (a
// link, an iframe src, a script src) or typed by someone. It knows:
//
//	greenhouse       boards.greenhouse.io/{token}[/jobs/{id}], job-boards.greenhouse.io/{token},
//	                 boards.greenhouse.io/embed/job_board?for={token} (and /embed/job_board/js,
//	                 /embed/job_app), boards-api.greenhouse.io/v1/boards/{token}/...
//	lever            jobs.lever.co/{site}[/...], api.lever.co/v0/postings/{site};
//	                 jobs.eu.lever.co and api.eu.lever.co give Region "eu"
//	ashby            jobs.ashbyhq.com/{name}[/...] (the embed script is /{name}/embed),
//	                 api.ashbyhq.com/posting-api/job-board/{name}
//	workable         apply.workable.com/{sub}[/...], {sub}.workable.com,
//	                 apply.workable.com/api/v1/widget/accounts/{sub}, www.workable.com/api/accounts/{sub}
//	smartrecruiters  careers.smartrecruiters.com/{id}, jobs.smartrecruiters.com/{id}[/...],
//	                 api.smartrecruiters.com/v1/companies/{id}/...
//	recruitee        {sub}.recruitee.com
//	personio         {sub}.jobs.personio.de; {sub}.jobs.personio.com gives Region "com"
//
// A URL without a scheme or starting with "//" is read as https. The
// vendors' own sites (www.greenhouse.io, lever.co, ashbyhq.com, the
// vendors' help, API and app hosts) and paths that name no board
// (boards.greenhouse.io/embed without "for", apply.workable.com/j/{code})
// give false, and so does anything that is not http(s).
func Recognize(rawURL string) (Ref, bool) {
	s := strings.TrimSpace(rawURL)
	if len(s) > 2048 {
		return Ref{}, false
	}
	switch {
	case strings.HasPrefix(s, "//"):
		s = "https:" + s
	case !strings.Contains(s, "://"):
		s = "https://" + s
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.User != nil {
		return Ref{}, false
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	segs := pathSegments(u)
	var ref Ref
	switch {
	case host == "boards.greenhouse.io" || host == "job-boards.greenhouse.io":
		ref = recognizeGreenhouse(segs, u.Query())
	case host == "boards-api.greenhouse.io" || host == "api.greenhouse.io":
		ref = afterPrefix(KindGreenhouse, segs, "v1", "boards")
	case host == "jobs.lever.co":
		ref = first(KindLever, segs)
	case host == "jobs.eu.lever.co":
		ref = first(KindLever, segs)
		ref.Region = RegionEU
	case host == "api.lever.co":
		ref = afterPrefix(KindLever, segs, "v0", "postings")
	case host == "api.eu.lever.co":
		ref = afterPrefix(KindLever, segs, "v0", "postings")
		ref.Region = RegionEU
	case host == "jobs.ashbyhq.com":
		if len(segs) > 0 && segs[0] != "api" {
			ref = first(KindAshby, segs)
		}
	case host == "api.ashbyhq.com":
		ref = afterPrefix(KindAshby, segs, "posting-api", "job-board")
	case host == "apply.workable.com":
		ref = recognizeWorkableApply(segs)
	case host == "www.workable.com":
		ref = afterPrefix(KindWorkable, segs, "api", "accounts")
	case strings.HasSuffix(host, ".workable.com"):
		ref = subdomain(KindWorkable, host, ".workable.com")
	case host == "careers.smartrecruiters.com" || host == "jobs.smartrecruiters.com":
		if len(segs) > 0 && !reservedSegment(KindSmartRecruiters, segs[0]) {
			ref = first(KindSmartRecruiters, segs)
		}
	case host == "api.smartrecruiters.com":
		ref = afterPrefix(KindSmartRecruiters, segs, "v1", "companies")
	case strings.HasSuffix(host, ".recruitee.com"):
		ref = subdomain(KindRecruitee, host, ".recruitee.com")
	case strings.HasSuffix(host, ".jobs.personio.de"):
		ref = subdomain(KindPersonio, host, ".jobs.personio.de")
	case strings.HasSuffix(host, ".jobs.personio.com"):
		ref = subdomain(KindPersonio, host, ".jobs.personio.com")
		ref.Region = RegionCom
	}
	if ref.Token == "" {
		return Ref{}, false
	}
	tok, ok := cleanToken(ref.Kind, ref.Token)
	if !ok {
		return Ref{}, false
	}
	ref.Token = tok
	return ref, true
}

// reservedSubdomain reports whether a vendor subdomain is the vendor's own
// site (help, API, app, marketing) rather than a customer's board.
func reservedSubdomain(sub string) bool {
	switch sub {
	case "www", "apply", "jobs", "careers", "help", "support", "resources", "developers", "developer",
		"docs", "api", "app", "blog", "status", "marketplace", "partners", "info", "go", "events",
		"assets", "static", "cdn", "mail", "email", "community", "academy", "login", "auth", "admin":
		return true
	}
	return false
}

// reservedSegment reports whether the first path segment of a board host
// is one of the vendor's own paths rather than a board's token.
func reservedSegment(kind, seg string) bool {
	switch strings.ToLower(seg) {
	case "static", "assets", "favicon.ico", "robots.txt", "sitemap.xml":
		return true
	case "embed", "v1":
		return kind == KindGreenhouse
	case "api":
		return kind == KindWorkable || kind == KindSmartRecruiters
	case "j":
		return kind == KindWorkable
	case "sr-jobs", "oneclick-ui":
		return kind == KindSmartRecruiters
	}
	return false
}

func pathSegments(u *url.URL) []string {
	var segs []string
	for _, s := range strings.Split(u.EscapedPath(), "/") {
		if s == "" {
			continue
		}
		if v, err := url.PathUnescape(s); err == nil {
			s = v
		}
		segs = append(segs, s)
	}
	return segs
}

func first(kind string, segs []string) Ref {
	if len(segs) == 0 {
		return Ref{}
	}
	return Ref{Kind: kind, Token: segs[0]}
}

// afterPrefix reads the token that follows the given path segments.
func afterPrefix(kind string, segs []string, prefix ...string) Ref {
	if len(segs) <= len(prefix) {
		return Ref{}
	}
	for i, p := range prefix {
		if !strings.EqualFold(segs[i], p) {
			return Ref{}
		}
	}
	return Ref{Kind: kind, Token: segs[len(prefix)]}
}

func subdomain(kind, host, suffix string) Ref {
	sub := strings.TrimSuffix(host, suffix)
	if sub == "" || strings.Contains(sub, ".") || reservedSubdomain(sub) {
		return Ref{}
	}
	return Ref{Kind: kind, Token: sub}
}

func recognizeGreenhouse(segs []string, q url.Values) Ref {
	if len(segs) > 0 && segs[0] == "embed" {
		// /embed/job_board?for=acme, /embed/job_board/js?for=acme,
		// /embed/job_app?for=acme&token=123
		return Ref{Kind: KindGreenhouse, Token: q.Get("for")}
	}
	if len(segs) == 0 || reservedSegment(KindGreenhouse, segs[0]) {
		return Ref{}
	}
	return first(KindGreenhouse, segs)
}

func recognizeWorkableApply(segs []string) Ref {
	if len(segs) >= 5 && segs[0] == "api" && segs[2] == "widget" && segs[3] == "accounts" {
		return Ref{Kind: KindWorkable, Token: segs[4]}
	}
	if len(segs) >= 4 && segs[0] == "api" && segs[2] == "accounts" {
		return Ref{Kind: KindWorkable, Token: segs[3]}
	}
	if len(segs) == 0 || reservedSegment(KindWorkable, segs[0]) {
		return Ref{}
	}
	return first(KindWorkable, segs)
}
