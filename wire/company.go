package wire

import "github.com/prospectorhq/prospector"

// Company is the contract's Company item.
type Company struct {
	ID            string  `json:"id"`
	Name          string  `json:"name"`
	Domain        string  `json:"domain"`
	Website       string  `json:"website"`
	Industry      string  `json:"industry"`
	Location      *string `json:"location"`
	EmployeeSize  *string `json:"employee_size"`
	EmployeeCount *int64  `json:"employee_count"`
}

// NewCompany returns c's item.
func NewCompany(c *prospector.Company) Company {
	return Company{ID: c.PublicID(), Name: c.Name, Domain: c.Domain, Website: c.Website, Industry: c.Industry,
		Location: OrNull(Place(c.City, c.Region, c.CountryCode)), EmployeeSize: OrNull(c.EmployeeRange),
		EmployeeCount: c.EmployeeCount}
}

// Person is the contract's Person item.
type Person struct {
	ID         string   `json:"id"`
	Name       string   `json:"name"`
	Title      *string  `json:"title"`
	Company    *string  `json:"company"`
	NetworkURL *string  `json:"network_url"`
	Location   *string  `json:"location"`
	Score      *float64 `json:"score"`
}

// NewPerson returns p's item.
func NewPerson(p *prospector.Person) Person {
	return Person{ID: p.PublicID(), Name: p.FullName, Title: OrNull(p.Title), Company: OrNull(p.CompanyName),
		NetworkURL: OrNull(p.NetworkURL), Location: OrNull(Place(p.City, p.Region, p.CountryCode)), Score: p.Score}
}
