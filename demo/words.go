package demo

// Company brands are two parts joined: "North" + "wind" is "Northwind".
var brandHeads = []string{
	"North", "Blue", "Iron", "Silver", "Bright", "Red", "Green", "Stone", "Clear", "Swift",
	"High", "Deep", "Cedar", "Maple", "Oak", "Pine", "Star", "Sun", "Moon", "Cloud",
	"River", "Lake", "Harbor", "Summit", "Granite", "Copper", "Amber", "Coral", "Crystal", "Falcon",
	"Hawk", "Fox", "Wolf", "Bear", "Eagle", "Orbit", "Nova", "Quantum", "Vector", "Pixel",
	"Signal", "Prism", "Echo", "Atlas", "Apex", "Zen", "True", "Open", "Bold", "Wild",
	"Golden", "Quiet", "Rapid", "Lumen", "Terra", "Aqua", "Ever", "Fair", "First", "Sky",
	"Snow", "Storm", "Thunder", "Tide", "West", "East", "South", "Glen", "Elm", "Birch",
	"Willow", "Juniper", "Sage", "Indigo", "Cobalt", "Scarlet", "Violet", "Flint", "Kite", "Lark",
	"Alder", "Aspen", "Basalt", "Beacon", "Bramble", "Briar", "Canyon", "Cinder", "Clover", "Comet",
	"Crane", "Dawn", "Delta", "Dune", "Ember", "Fable", "Frost", "Gale", "Harvest", "Heron",
	"Ivory", "Jade", "Marble", "Meadow", "Mesa", "Mist", "Noble", "Onyx", "Opal", "Otter",
	"Pebble", "Plum", "Raven", "Rowan", "Slate", "Sparrow", "Spruce", "Thistle", "Velvet", "Wren",
}

var brandTails = []string{
	"wind", "peak", "leaf", "field", "bridge", "gate", "path", "point", "line", "craft",
	"forge", "light", "wave", "mark", "spring", "brook", "wood", "ridge", "crest", "haven",
	"port", "shore", "vale", "view", "way", "well", "wing", "hill", "loop", "mint",
	"nest", "grid", "spark", "beam", "bloom", "bolt", "core", "dale", "flow", "fold",
	"glass", "grove", "lane", "stack", "scope", "sail", "rock", "root", "run", "side",
	"march", "stream", "thread", "top", "trail", "vault", "ward", "yard", "bay", "hollow",
	"pulse", "quill", "rise", "fern", "stead", "keel", "moor", "cove", "arc", "tern",
	"cast", "dock", "helm", "hold", "house", "lock", "mill", "post", "reach", "sound",
	"span", "tree", "vista", "wise", "wick", "worth", "berry", "bird", "cliff", "frame",
}

// Investor names: "Granite Peak Ventures".
var (
	investorFirst = []string{
		"Granite", "Harbor", "Northstar", "Larkspur", "Bluewater", "Blackbird", "Lighthouse", "Waypoint", "Kestrel", "Meridian",
		"Foundry", "Basecamp", "Cascade", "Evergreen", "Highland", "Keystone", "Lantern", "Oakmont", "Pioneer", "Sandstone",
		"Tidewater", "Wildflower", "Brightwater", "Longbow", "Driftwood", "Headwater", "Hollow Oak", "Longview", "Starling", "Riverbend",
	}
	investorSecond = []string{"Peak", "Light", "Point", "Hill", "Creek", "Bay", "Ridge", "Field", "Lake", "Stone"}
	investorKind   = []string{"Ventures", "Capital", "Partners", "Fund", "Growth", "Investments", "Equity", "Seed Fund"}
)

// vendor is a fictional software product that competes, integrates or is
// adopted.
type vendor struct{ name, category string }

var vendors = []vendor{
	{"Pipewell CRM", "CRM"}, {"Leadloom", "sales engagement"}, {"Quotaflow", "revenue intelligence"},
	{"Callcraft", "conversation intelligence"}, {"Enrichbase", "data enrichment"}, {"Cadencely", "sales engagement"},
	{"Churnwatch", "customer success"}, {"Ledgerline", "billing"}, {"Paylark", "payments"},
	{"Hirewell", "recruiting"}, {"Stackwatch", "observability"}, {"Formcrest", "forms"},
	{"Docuvault", "document management"}, {"Adpilot", "advertising"}, {"Mailcrest", "email marketing"},
	{"Querybay", "data warehouse"}, {"Pipeforge", "ETL"}, {"Dashloom", "business intelligence"},
	{"Shiftwise", "workforce management"}, {"Payrollo", "payroll"}, {"Ticketfox", "help desk"},
	{"Keystrand", "identity"}, {"Vaultkey", "secrets management"}, {"Deploybird", "CI/CD"},
	{"Roadmapr", "product management"}, {"Intentwave", "intent data"}, {"Meetbright", "scheduling"},
}

// Open-source technologies companies adopt.
var technologies = []string{
	"Kubernetes", "PostgreSQL", "Apache Kafka", "Apache Spark", "Terraform", "React", "Django", "Ruby on Rails",
	"Prometheus", "OpenTelemetry", "TypeScript", "GraphQL", "Rust", "Go", "Apache Airflow", "Apache Iceberg",
	"Vue.js", "Svelte", "Apache Flink", "Grafana dashboards",
}

var topics = []string{
	"replacing their CRM", "scaling outbound prospecting", "sales forecasting accuracy", "reducing churn",
	"building a RevOps function", "data enrichment", "buying intent data", "cold email deliverability",
	"hiring their first SDRs", "pipeline generation", "AI in sales", "migrating their data warehouse",
	"getting SOC 2 compliant", "product-led growth", "expanding into EMEA", "shortening sales cycles",
	"customer onboarding", "pricing and packaging", "account-based marketing", "sales compensation plans",
	"consolidating their tool stack", "quota attainment", "partner-led growth", "outbound in 2025",
}

var recommendationAsks = []string{
	"a sales engagement tool", "a CRM that scales past 50 reps", "a data enrichment provider", "a conversation intelligence platform",
	"a customer success platform", "a payroll provider for remote teams", "an observability platform", "a RevOps consultant",
	"an intent data vendor", "a help desk tool", "a BI tool for a small data team", "an SEO agency",
	"a fractional CFO", "an ATS for a growing team", "an e-signature tool", "a security awareness training vendor",
}

var eventThemes = []string{
	"RevOps", "Pipeline", "SaaS Growth", "Demand Gen", "Customer Success", "Data Leaders", "Sales Leadership",
	"Future of Work", "Fintech Forward", "Cloud Native", "Security Leaders", "Product-Led Growth", "Partner Ecosystems",
}

var eventKinds = []string{"Summit", "Forum", "Live", "Conference", "Roundtable", "Meetup"}

var publishers = []string{
	"Techwire Weekly", "The Pipeline Journal", "Founders Ledger", "Signal & Noise Daily", "Metro Business Review",
	"Cloud Report", "The Growth Desk", "Northern Trade Gazette",
}

var awards = []string{
	"Best Places to Work", "Fastest-Growing Companies", "Customer Choice Awards", "Innovation Awards",
	"Top 100 B2B Software Companies", "Best Workplaces for Women", "Companies to Watch", "Sustainability Awards",
}

var productWords = []string{"Copilot", "Insights", "Connect", "Studio", "Assist", "Flow", "Pulse", "Cloud", "Edge", "Sense", "Hub", "Go"}

var productReleases = []string{"new product", "new version", "new feature"}
