package news

// Words of places and buildings.
var (
	// facilityWords make an object a facility rather than an office.
	facilityWords = words(`plant plants factory factories facility facilities warehouse warehouses hangar
		hangars lab labs laboratory laboratories campus site sites mill mills depot depots refinery refineries
		bakery bakeries data distribution production manufacturing fulfillment fulfilment assembly research`)
	closable  = union(facilityWords, officeNouns, storeNouns)
	officeHQ  = words(`office offices headquarters hq hub`)
	openVerbs = join(forms("open"), []string{"to open"})
)

func (c *Classifier) placeRules() []*rule {
	return []*rule{
		// Acme closes its Chicago office; shuts its Leipzig plant.
		{cat: ClosesOfficesIn, phrases: join(forms("close"), []string{"to close", "shuts", "shut", "shutting",
			"shuts down", "shut down", "shutting down", "shutters", "shuttered", "shutter", "shuttering",
			"winds down", "wind down", "wound down", "winding down", "consolidates", "consolidate", "closure of",
			"closures of", "closure", "exits"}),
			prio: 56, conf: .85, check: nextHas(6, closable)},
		// Acme expands its plant; breaks ground on a factory; opens a data center.
		{cat: ExpandsFacilities, phrases: join(forms("expand"), forms("upgrade"), []string{"expansion of",
			"doubles", "triples", "double", "triple", "enlarges", "enlarge", "extends"}),
			prio: 57, conf: .85, check: objHas(facilityWords)},
		{cat: ExpandsFacilities, phrases: []string{"breaks ground on", "broke ground on", "break ground on",
			"breaking ground on", "groundbreaking"}, prio: 57, conf: .85},
		{cat: ExpandsFacilities, phrases: join(forms("build"), forms("construct"), openVerbs,
			[]string{"to build", "adds", "add", "added", "adding"}),
			prio: 57, conf: .8, check: objHas(facilityWords)},
		// Acme expands to Singapore; opens its first office in Japan.
		{cat: ExpandsOfficesTo, phrases: join(with(forms("expand"), "to", "into"), forms("enter"),
			[]string{"expands operations to", "expands operations into", "expand operations to", "sets up shop in",
				"set up shop in", "setting up shop in", "launches operations in", "launch operations in",
				"begins operations in", "starts operations in", "commences operations in", "arrives in"}),
			prio: 55, conf: .85, check: objName},
		{cat: ExpandsOfficesTo, phrases: join(openVerbs, forms("establish"), []string{"sets up", "set up"}),
			prio: 55, conf: .85, check: objHas(officeHQ)},
		// Acme expands its London office; moves into a larger office.
		{cat: ExpandsOfficesIn, phrases: join(forms("expand"), forms("enlarge"), forms("relocate"),
			[]string{"grows", "grow", "grew", "growing", "doubles", "triples", "double", "triple"}),
			prio: 53, conf: .8, check: allOf(objHas(officeNouns), not(objHas(facilityWords)))},
		{cat: ExpandsOfficesIn, phrases: []string{"moves", "move", "moved", "moving", "square feet",
			"expands presence in", "expand presence in", "expanding presence in", "grows presence in"},
			prio: 53, conf: .75, check: allOf(nextHas(6, officeNouns), not(nextHas(6, facilityWords)))},
		// Acme opens a store in Leeds; Acme's new branch opens in York.
		{cat: OpensNewLocation, phrases: join(openVerbs, forms("unveil"), forms("launch")),
			prio: 54, conf: .85, check: anyOf(objHas(storeNouns), prevHasStore)},
	}
}

// prevHasStore accepts a store word just before the trigger ("the new
// branch opens", "urgent care center opens").
func prevHasStore(c *Classifier, m *match) bool {
	for k := m.ts - 1; k >= 0 && k >= m.ts-4; k-- {
		w := m.s.toks[k].w
		if storeNouns.has(w) || w == "care" {
			return true
		}
	}
	return false
}
