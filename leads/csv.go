package leads

import (
	"encoding/csv"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/prospectorhq/prospector/wire"
)

// columns is the header row of a CSV export, the contract's columns in
// its order.
var columns = []string{"id", "full_name", "first_name", "last_name", "title", "company", "network_url", "email",
	"phone", "location", "score", "status", "source", "radar_id", "campaign_id", "created_at"}

// Columns returns the header row of a CSV export: a copy, which callers
// may change.
func Columns() []string { return slices.Clone(columns) }

// formulaStarts are the first characters that make a spreadsheet read a
// cell as a formula (or, tab and CR, hide one behind whitespace).
const formulaStarts = "=+-@\t\r"

// Neutralize returns a cell that a spreadsheet will not evaluate: a cell
// beginning with = + - @ tab or CR gets a single quote in front, which
// spreadsheets read as "this cell is text". Phone numbers are no
// exception: "+1 555 0100" becomes "'+1 555 0100" (docs/decisions.md,
// "Leads export and push"). Other cells are returned unchanged.
func Neutralize(cell string) string {
	if cell != "" && strings.IndexByte(formulaStarts, cell[0]) >= 0 {
		return "'" + cell
	}
	return cell
}

// fillRow fills row (len(columns) cells) with l's cells, neutralised; an
// unknown value is an empty cell.
func fillRow(row []string, l *wire.Lead) {
	score := ""
	if l.Score != nil {
		score = strconv.FormatFloat(*l.Score, 'f', -1, 64)
	}
	created := ""
	if !l.CreatedAt.IsZero() {
		created = wire.Timestamp(l.CreatedAt)
	}
	cells := [...]string{l.ID, l.FullName, l.FirstName, l.LastName, l.Title, l.Company, l.NetworkURL, l.Email,
		l.Phone, l.Location, score, l.Status, l.Source, l.RadarID, l.CampaignID, created}
	for i, c := range cells {
		row[i] = Neutralize(c)
	}
}

// WriteCSV writes the header row and a row per lead, in order, quoted as
// RFC 4180 says (encoding/csv: a cell holding a comma, a quote, CR or LF
// is quoted, quotes doubled); records end with LF, so a cell's own line
// breaks are kept as they are. It fails only when w does.
func WriteCSV(w io.Writer, ls []wire.Lead) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(columns); err != nil {
		return err
	}
	row := make([]string, len(columns))
	for i := range ls {
		fillRow(row, &ls[i])
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
