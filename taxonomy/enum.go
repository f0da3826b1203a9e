// Package taxonomy holds the reference vocabularies every endpoint and the
// demo generator share: employee ranges, job levels and functions,
// countries and industries.
package taxonomy

// EmployeeRanges are the size buckets, smallest first.
func EmployeeRanges() []string {
	return []string{"1-10", "11-50", "51-200", "201-500", "501-1000", "1001-5000", "5001-10000", "10001+"}
}

// JobLevels are the seniority levels, most senior first.
func JobLevels() []string {
	return []string{"Founder", "CXO", "VP", "Director", "Head", "Manager", "IC"}
}

// JobFunctions are the twelve functions a title maps to.
func JobFunctions() []string {
	return []string{"Sales", "Marketing", "Growth", "Revenue", "Operations", "RevOps", "Product",
		"Engineering", "People", "Finance", "Customer Success", "Partnerships"}
}

// WorldCode means any country.
const WorldCode = "WORLD"

// RecommendedCountries are the examples meta/field-values suggests.
func RecommendedCountries() []string {
	return []string{"WORLD", "US", "SG", "GB", "AU", "CA", "ID"}
}
