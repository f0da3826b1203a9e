package sec

import (
	"github.com/prospectorhq/prospector"
)

// NormalizeLegalName reduces a company's legal name to the words that
// tell it apart: prospector.NormalizeLegalName, whose rules the stores
// also index companies by, so a candidate lookup and Resolve agree.
// "The Acme Robotics Co., Inc." and "ACME ROBOTICS" are both "acme
// robotics".
func NormalizeLegalName(s string) string { return prospector.NormalizeLegalName(s) }

// foldAccents replaces accented lowercase Latin letters with their base
// letters ("josé" is "jose"); callers lowercase first.
func foldAccents(s string) string { return prospector.FoldAccents(s) }
