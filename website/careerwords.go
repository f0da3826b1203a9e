package website

// The words companies use for their careers page, in the languages of the
// markets Prospector's users sell into. All are normalised as
// normalizeWords leaves them: lower case, no accents, single spaces.

// careerPhrases are link texts, matched as the whole text or as words
// within it.
func careerPhrases() []string {
	return []string{
		"careers", "career", "jobs", "job openings", "job opportunities", "open positions",
		"open roles", "current openings", "join us", "join our team", "join the team",
		"work with us", "work for us", "we are hiring", "we re hiring", "were hiring", "hiring",
		"vacancies", "karriere", "jobs karriere", "stellenangebote", "offene stellen",
		"emplois", "offres d emploi", "carrieres", "carriere", "recrutement", "nous rejoindre",
		"rejoignez nous", "empleo", "empleos", "trabaja con nosotros", "trabaje con nosotros",
		"unete", "unete al equipo", "carreras", "bolsa de trabajo", "lavora con noi",
		"posizioni aperte", "vacatures", "werken bij", "vagas", "carreiras", "trabalhe conosco",
		"kariera", "recruitment", "採用情報", "採用",
	}
}

// careerSlug reports whether a whole path segment (words joined by "-")
// names a careers page.
func careerSlug(s string) bool {
	switch s {
	case "careers", "career", "jobs", "join-us", "joinus", "join", "join-our-team",
		"work-with-us", "workwithus", "work-for-us", "hiring", "were-hiring", "we-are-hiring",
		"open-positions", "openings", "vacancies", "karriere", "stellenangebote",
		"jobs-karriere", "emplois", "offres-d-emploi", "offres-emploi", "carrieres", "carriere",
		"recrutement", "nous-rejoindre", "rejoignez-nous", "empleo", "empleos",
		"trabaja-con-nosotros", "trabaje-con-nosotros", "unete", "carreras",
		"bolsa-de-trabajo", "lavora-con-noi", "posizioni-aperte", "vacatures", "werken-bij",
		"vagas", "carreiras", "trabalhe-conosco", "kariera", "recruit", "recruitment", "saiyo":
		return true
	}
	return false
}

// careerWord reports whether one word inside a longer segment
// (careers-at-acme, acme-jobs) points at careers.
func careerWord(w string) bool {
	switch w {
	case "careers", "career", "jobs", "karriere", "vacancies", "emplois", "empleo", "empleos",
		"carreras", "carrieres", "vacatures", "vagas", "carreiras", "hiring", "stellenangebote",
		"recrutement", "recruiting", "recruitment":
		return true
	}
	return false
}

// careerHostLabel reports whether a subdomain's first label is a careers
// site (careers.acme.example, jobs.acme.example).
func careerHostLabel(l string) bool {
	switch l {
	case "careers", "career", "jobs", "job", "karriere", "join", "work", "hiring", "talent",
		"emplois", "empleo", "vacatures":
		return true
	}
	return false
}
